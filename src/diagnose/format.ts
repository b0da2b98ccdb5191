// The plain-text form of a diagnosis, for `vigil diagnose` and the watch renderers (pure: no I/O, no terminal).
import { styleText } from 'node:util';
import type { Diagnosis, Evidence } from '../events.ts';

export type DiagnosisTone = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

export interface FormatDiagnosisOptions {
  /** Colour with ANSI codes; off by default. */
  color?: boolean;
  /** A renderer's own painter; wins over `color`. */
  paint?: (tone: DiagnosisTone, text: string) => string;
  /** Evidence lines longer than this are cut with an ellipsis (default 240 characters; 0 keeps them whole). */
  maxLineLength?: number;
}

const cut = (text: string, max: number): string =>
  max > 0 && text.length > max ? `${text.slice(0, max - 1)}…` : text;

// Where a piece of evidence came from: `line 53` for a log line, its source (`POST /v1/chat/completions`) for
// anything else, or nothing; `width` pads line numbers so a column of them lines up.
export const evidenceLabel = (evidence: Evidence, width = 0): string | null =>
  evidence.line !== undefined
    ? `line ${String(evidence.line).padStart(width)}`
    : evidence.source !== undefined && evidence.source !== ''
      ? evidence.source
      : null;

// Formats a diagnosis for people: the class and summary, the evidence with file line numbers, then the advice.
// Multi-line, no trailing newline.
export const formatDiagnosisPlain = (diagnosis: Diagnosis, options: FormatDiagnosisOptions = {}): string => {
  const paint =
    options.paint ??
    (options.color === true
      ? (tone: DiagnosisTone, text: string) => styleText(tone, text, { validateStream: false })
      : (_tone: DiagnosisTone, text: string) => text);
  const max = options.maxLineLength ?? 240;
  const tone: DiagnosisTone =
    diagnosis.class === 'ready' ? 'green' : diagnosis.class === 'hang' ? 'yellow' : 'red';
  const lines = [`${paint('bold', paint(tone, diagnosis.class))}: ${diagnosis.summary}`];
  if (diagnosis.evidence.length > 0) {
    lines.push('evidence:');
    const width = Math.max(0, ...diagnosis.evidence.map((e) => String(e.line ?? '').length));
    for (const evidence of diagnosis.evidence) {
      const label = evidenceLabel(evidence, width);
      lines.push(`  ${label === null ? '' : `${paint('dim', `${label}:`)} `}${cut(evidence.text, max)}`);
    }
  }
  if (diagnosis.advice.length > 0) {
    lines.push('what to do:');
    for (const advice of diagnosis.advice) lines.push(`  ${paint('cyan', '-')} ${advice}`);
  }
  return lines.join('\n');
};
