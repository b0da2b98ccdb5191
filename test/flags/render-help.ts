// Test helper: renders a flag table as argparse help in another width, program name and Python layout,
// so the help parser can be shown not to depend on any of them.
import { stripAnsi } from '../../src/flags/schema/help-parser.ts';
import { pyStr } from '../../src/flags/argparse/py-values.ts';
import type { FlagsJsonAction } from '../../src/flags/schema/schema.ts';

export interface RenderOptions {
  prog: string;
  width: number;
  /** py38: `optional arguments:` and `[M [M ...]]`; py311: `-s M, --long M`; py313: `-s, --long M`. */
  layout: 'py38' | 'py311' | 'py313';
  ansi: boolean;
}

const color = (on: boolean, code: string, text: string): string =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

const metavarOf = (a: FlagsJsonAction): string => {
  if (typeof a.metavar === 'string') return a.metavar;
  if (a.choices !== null) return `{${a.choices.map(pyStr).join(',')}}`;
  return (a.flags.find((f) => f.startsWith('--')) ?? a.dest)
    .replace(/^-+/, '')
    .replace(/-/g, '_')
    .toUpperCase();
};

const argsOf = (a: FlagsJsonAction, layout: RenderOptions['layout']): string => {
  if (a.nargs === 0) return '';
  const m = metavarOf(a);
  if (a.nargs === null) return m;
  if (a.nargs === '?') return `[${m}]`;
  if (a.nargs === '*') return layout === 'py38' ? `[${m} [${m} ...]]` : `[${m} ...]`;
  if (a.nargs === '+') return `${m} [${m} ...]`;
  return Array.from({ length: Number(a.nargs) }, () => m).join(' ');
};

const invocationOf = (a: FlagsJsonAction, o: RenderOptions): string => {
  if (a.flags.length === 0) return color(o.ansi, '32', a.dest);
  const args = argsOf(a, o.layout);
  const strings = a.flags.map((f) => color(o.ansi, '1;36', f));
  if (args === '') return strings.join(', ');
  if (o.layout === 'py313') return `${strings.join(', ')} ${color(o.ansi, '33', args)}`;
  return strings.map((s) => `${s} ${color(o.ansi, '33', args)}`).join(', ');
};

const visibleLength = (text: string): number => stripAnsi(text).length;

const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && visibleLength(line) + 1 + visibleLength(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
};

const usageOf = (table: readonly FlagsJsonAction[], o: RenderOptions): string[] => {
  const parts = table
    .filter((a) => !a.help_suppressed)
    .map((a) => {
      const first = a.flags[0];
      if (first === undefined) return a.nargs === '?' ? `[${a.dest}]` : a.dest;
      const args = argsOf(a, o.layout);
      const body = args === '' ? first : `${first} ${args}`;
      return a.required ? body : `[${body}]`;
    });
  const head = `usage: ${o.prog} `;
  const lines: string[] = [];
  let line = head;
  for (const part of parts) {
    if (line.length > head.length && line.length + part.length + 1 > o.width) {
      lines.push(line.trimEnd());
      line = ' '.repeat(head.length);
    }
    line += `${part} `;
  }
  lines.push(line.trimEnd());
  return lines;
};

// Renders help text for a table the way argparse lays it out (HelpFormatter defaults: indent 2, help at ≤ 24).
export const renderHelp = (table: readonly FlagsJsonAction[], o: RenderOptions): string => {
  const visible = table.filter((a) => !a.help_suppressed);
  const helpPosition = Math.min(24, Math.max(o.width - 20, 4));
  const out = [...usageOf(table, o), '', 'A re-rendered help text.', ''];
  const section = (title: string, actions: FlagsJsonAction[]): void => {
    if (actions.length === 0) return;
    out.push(color(o.ansi, '1;34', `${title}:`));
    for (const a of actions) {
      const invocation = `  ${invocationOf(a, o)}`;
      const help = wrap(a.help ?? '', Math.max(o.width - helpPosition, 11));
      const [first, ...rest] = help;
      if (visibleLength(invocation) <= helpPosition - 2 && first !== undefined) {
        out.push(`${invocation}${' '.repeat(helpPosition - visibleLength(invocation))}${first}`);
      } else {
        out.push(invocation);
        if (first !== undefined) rest.unshift(first);
      }
      for (const line of rest) out.push(`${' '.repeat(helpPosition)}${line}`);
    }
    out.push('');
  };
  section(
    'positional arguments',
    visible.filter((a) => a.flags.length === 0),
  );
  section(
    o.layout === 'py38' ? 'optional arguments' : 'options',
    visible.filter((a) => a.flags.length > 0),
  );
  return out.join('\n');
};
