// The two formatters the renderers borrow: preflight findings and a diagnosis. Each sits behind one function,
// so moving to the flags/diagnose modules' own plain formatters is a one-line change here.
import type { Diagnosis, PreflightEvent } from '../events.ts';
import { formatPreflightPlain } from '../flags/format.ts';
import type { Paint } from './style.ts';

export type PreflightReport = Omit<PreflightEvent, 'type' | 't'>;

// Formats a preflight result for people (multi-line, no trailing newline).
export const formatPreflight = (report: PreflightReport, command: readonly string[], paint: Paint): string =>
  formatPreflightPlain(report, [...command], { color: paint.enabled }).trimEnd();

// Formats a diagnosis for people (multi-line, no trailing newline).
export const formatDiagnosis = (diagnosis: Diagnosis, paint: Paint): string =>
  formatDiagnosisCompact(diagnosis, paint);

// Compact fallback: class and summary, the evidence lines, then the advice.
export const formatDiagnosisCompact = (diagnosis: Diagnosis, paint: Paint): string =>
  [
    `${paint('bold', `diagnosis: ${diagnosis.class}`)} — ${diagnosis.summary}`,
    ...diagnosisDetails(diagnosis, paint),
  ].join('\n');

// Evidence and advice only, for endings whose verdict line already carries the summary (preflight, smoke).
export const diagnosisDetails = (diagnosis: Diagnosis, paint: Paint): string[] => [
  ...diagnosis.evidence.map((evidence) => `  line ${evidence.line}: ${evidence.text}`),
  ...diagnosis.advice.map((advice) => `  ${paint('cyan', 'fix:')} ${advice}`),
];
