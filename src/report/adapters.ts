// The two formatters the renderers borrow from their owners: preflight findings (flags) and a diagnosis (diagnose),
// each behind one function so the renderers do not depend on their signatures.
import type { Diagnosis, PreflightEvent } from '../events.ts';
import { formatDiagnosisPlain } from '../diagnose/format.ts';
import { formatPreflightPlain } from '../flags/format.ts';
import type { Paint } from './style.ts';

export type PreflightReport = Omit<PreflightEvent, 'type' | 't'>;

// Formats a preflight result for people (multi-line, no trailing newline).
export const formatPreflight = (report: PreflightReport, command: readonly string[], paint: Paint): string =>
  formatPreflightPlain(report, [...command], { color: paint.enabled }).trimEnd();

// Formats a diagnosis for people (multi-line, no trailing newline).
export const formatDiagnosis = (diagnosis: Diagnosis, paint: Paint): string =>
  formatDiagnosisPlain(diagnosis, { paint });

// Evidence and advice only, for endings whose verdict line already carries the summary (preflight, smoke).
export const diagnosisDetails = (diagnosis: Diagnosis, paint: Paint): string[] => {
  const lines: string[] = [];
  if (diagnosis.evidence.length > 0) lines.push('evidence:');
  for (const evidence of diagnosis.evidence)
    lines.push(`  ${paint('dim', `line ${evidence.line}:`)} ${evidence.text}`);
  if (diagnosis.advice.length > 0) lines.push('what to do:');
  for (const advice of diagnosis.advice) lines.push(`  ${paint('cyan', '-')} ${advice}`);
  return lines;
};
