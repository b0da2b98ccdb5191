// The two formatters the renderers borrow: preflight findings and a diagnosis. Each sits behind one function,
// so moving to the flags/diagnose modules' own plain formatters is a one-line change here.
import type { Diagnosis, PreflightEvent } from '../events.ts';
import type { Paint } from './style.ts';

export type PreflightReport = Omit<PreflightEvent, 'type' | 't'>;

// Formats a preflight result for people (multi-line, no trailing newline).
export const formatPreflight = (report: PreflightReport, command: readonly string[], paint: Paint): string =>
  formatPreflightCompact(report, command, paint);

// Formats a diagnosis for people (multi-line, no trailing newline).
export const formatDiagnosis = (diagnosis: Diagnosis, paint: Paint): string =>
  formatDiagnosisCompact(diagnosis, paint);

const SEVERITY_TONE = { error: 'red', warning: 'yellow', info: 'cyan' } as const;

const describeSource = (report: PreflightReport): string => {
  const source = report.source;
  if (source === null) return '';
  const version = source.version === null ? '' : ` ${source.version}`;
  return ` (${source.engine}${version}, ${source.kind} schema)`;
};

// Compact fallback: one line for the verdict, one per finding with its best suggestion.
export const formatPreflightCompact = (
  report: PreflightReport,
  _command: readonly string[],
  paint: Paint,
): string => {
  if (report.status === 'skipped') {
    return `preflight skipped${report.skipped_reason === undefined ? '' : `: ${report.skipped_reason}`}`;
  }
  const lines = [`preflight ${report.status}${describeSource(report)}`];
  for (const finding of report.findings) {
    const at = finding.arg === null ? '' : `${finding.arg}: `;
    const suggestion = finding.suggestions[0];
    const hint = suggestion === undefined ? '' : ` — did you mean ${suggestion}?`;
    lines.push(
      `  ${paint(SEVERITY_TONE[finding.severity], finding.severity)}: ${at}${finding.message}${hint}`,
    );
  }
  return lines.join('\n');
};

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
