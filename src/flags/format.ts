// Plain text for a preflight report, read like a compiler's: the command with the bad argument marked, the
// message, the suggestion, and which schema decided. Pure string building; callers write it.
import type { Finding, SchemaSource } from '../events.ts';
import { createRedactor, MASK } from '../redact/redactor.ts';
import type { PreflightReport } from './preflight.ts';
import { ENGINE_LABEL } from './schema/history.ts';

export interface FormatOptions {
  color: boolean;
}

const WIDTH = 110;
const SEVERITY_COLOR: Record<Finding['severity'], string> = { error: '1;31', warning: '1;33', info: '1;36' };
const SAFE = /^[\w@%+=:,./-]+$/;

const paint = (on: boolean, code: string, text: string): string =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

// Quotes an argument the way a POSIX shell would need it.
export const shellQuote = (arg: string): string =>
  arg === MASK || (arg !== '' && SAFE.test(arg)) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

const ENGINE: Readonly<Record<string, string>> = ENGINE_LABEL;
// How a finding's suggestions read: "did you mean" fits a misspelling, not a missing option.
const VERB: Readonly<Record<string, string>> = {
  'missing-required': 'add',
  'speculative-partial': 'add',
  'speculative-draft-missing': 'add',
  'deprecated-option': 'use',
  'speculative-draft-tokens-adjusted': 'use',
  'abbreviated-option': 'write',
  'unexpected-value': 'write',
};

// "bundled SGLang v0.5.18 schema (data/flags/sglang-v0.5.18.flags.json)"
export const describeSource = (source: SchemaSource): string => {
  const engine = ENGINE[source.engine] ?? source.engine;
  const version = source.version === null ? '' : ` v${source.version}`;
  const kind =
    source.kind === 'help-file' ? '--help-file' : source.kind === 'live' ? 'live --help of' : 'bundled';
  const path = source.path === null ? '' : ` (${source.path})`;
  return source.kind === 'help-file'
    ? `${engine}${version} help text${path}`
    : `${kind} ${engine}${version}${path}`;
};

// The command on one line (a window around the marked argument when long) with a caret line under it.
const markedCommand = (command: readonly string[], index: number | null): string[] => {
  const quoted = command.map(shellQuote);
  const full = quoted.join(' ');
  let from = 0;
  let to = quoted.length;
  if (full.length > WIDTH && index !== null) {
    from = Math.max(0, index - 4);
    to = Math.min(quoted.length, index + 4);
  }
  const head = from > 0 ? '… ' : '';
  const parts = quoted.slice(from, to);
  const line = `${head}${parts.join(' ')}${to < quoted.length ? ' …' : ''}`;
  if (index === null || index < from || index >= to) return [`  ${line}`];
  const offset = head.length + parts.slice(0, index - from).reduce((n, p) => n + p.length + 1, 0);
  const width = Math.max(1, (quoted[index] ?? '').length);
  return [`  ${line}`, `  ${' '.repeat(offset)}${'^'.repeat(width)}`];
};

const formatFinding = (finding: Finding, command: readonly string[], color: boolean): string[] => {
  const label = paint(color, SEVERITY_COLOR[finding.severity], `${finding.severity}[${finding.code}]`);
  const lines = [`${label}: ${finding.message}`];
  if (finding.index !== null)
    lines.push(
      ...markedCommand(command, finding.index).map((l) =>
        paint(color && l.trim().startsWith('^'), '1;32', l),
      ),
    );
  const [best, ...others] = finding.suggestions;
  if (best !== undefined) {
    const verb = VERB[finding.code] ?? 'did you mean';
    const also =
      others.length === 0 ? '' : verb === 'add' ? `, ${others.join(', ')}` : ` (or: ${others.join(', ')})`;
    lines.push(`  ${paint(color, '1', verb)} ${best}${also}`);
  }
  return lines;
};

const count = (n: number, word: string): string => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

// Renders a preflight report as plain text; the command is redacted before it is shown.
export const formatPreflightPlain = (
  report: PreflightReport,
  command: string[],
  opts: FormatOptions,
): string => {
  if (report.status === 'skipped')
    return `preflight skipped: ${report.skipped_reason ?? 'no reason given'}\n`;
  const shown = createRedactor({ argv: command }).argv(command);
  const blocks = report.findings.map((f) => formatFinding(f, shown, opts.color).join('\n'));
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  const source = report.source === null ? 'no schema' : describeSource(report.source);
  const verdict =
    errors + warnings === 0
      ? 'no problems found'
      : [count(errors, 'error'), count(warnings, 'warning')].join(', ');
  return `${[...blocks, `preflight: ${verdict}, checked against ${source}`].join('\n\n')}\n`;
};
