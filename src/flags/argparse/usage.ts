// argparse's usage block and error line, rebuilt from a FlagSchema the way Python 3.11's HelpFormatter writes
// them (`format_usage()` + `error()`), so `vigil sim` can reject a command exactly as the engine would.
// Hand-written: no JS library reproduces argparse's wrapping rules, and the output must match byte for byte.
import type { FlagOption, FlagSchema, Nargs, Positional } from '../schema/schema.ts';

export interface UsageOptions {
  /** The program name argparse prints, e.g. `launch_server.py`. */
  prog: string;
  /** The formatter width: argparse uses the terminal columns minus 2 (see `argparseWidth`). */
  width: number;
}

const PREFIX = 'usage: ';
// argparse splits the usage into wrappable parts with this pattern (groups in brackets stay whole).
const PART = /\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+/g;

// The width argparse formats for: COLUMNS (or the terminal's columns) minus 2, 80 - 2 when unknown.
export const argparseWidth = (env: NodeJS.ProcessEnv, terminalColumns?: number): number => {
  const fromEnv = Number.parseInt(env['COLUMNS'] ?? '', 10);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv - 2;
  if (terminalColumns !== undefined && terminalColumns > 0) return terminalColumns - 2;
  return 78;
};

const formatArgs = (nargs: Nargs, metavar: string): string => {
  if (nargs === null) return metavar;
  if (nargs === '?') return `[${metavar}]`;
  if (nargs === '*') return `[${metavar} ...]`;
  if (nargs === '+') return `${metavar} [${metavar} ...]`;
  if (nargs === 0) return '';
  return Array.from({ length: nargs }, () => metavar).join(' ');
};

const optionMetavar = (option: FlagOption): string => {
  if (option.metavar !== null) return option.metavar;
  if (option.choices !== null) return `{${option.choices.join(',')}}`;
  return option.dest.toUpperCase();
};

const formatOption = (option: FlagOption): string => {
  const first = option.strings[0] ?? '';
  let part: string;
  if (option.nargs === 0) {
    // BooleanOptionalAction lists both spellings; every other flag action shows its first string.
    part = option.action === 'boolean_optional' ? option.strings.join(' | ') : first;
  } else {
    part = `${first} ${formatArgs(option.nargs, optionMetavar(option))}`;
  }
  return option.required ? part : `[${part}]`;
};

const formatPositional = (positional: Positional): string =>
  formatArgs(positional.nargs, positional.metavar ?? positional.dest);

const cleanUp = (text: string): string =>
  text
    .replace(/([[(]) /g, '$1')
    .replace(/ ([\])])/g, '$1')
    .replace(/[[(] *[\])]/g, '')
    .trim();

const formatOptionals = (schema: FlagSchema): string =>
  cleanUp(
    schema.options
      .filter((option) => !option.hidden)
      .map(formatOption)
      .join(' '),
  );

const formatPositionals = (schema: FlagSchema): string =>
  cleanUp(schema.positionals.map(formatPositional).join(' '));

// argparse's get_lines: fill parts into lines of at most `width`, each starting with `indent`.
const wrapParts = (parts: readonly string[], indent: string, width: number, prefix?: string): string[] => {
  const lines: string[] = [];
  let line: string[] = [];
  let length = prefix === undefined ? indent.length - 1 : prefix.length - 1;
  for (const part of parts) {
    if (length + 1 + part.length > width && line.length > 0) {
      lines.push(indent + line.join(' '));
      line = [];
      length = indent.length - 1;
    }
    line.push(part);
    length += part.length + 1;
  }
  if (line.length > 0) lines.push(indent + line.join(' '));
  if (prefix !== undefined && lines[0] !== undefined) lines[0] = lines[0].slice(indent.length);
  return lines;
};

const splitParts = (text: string): string[] => text.match(PART) ?? [];

// The usage block argparse prints before an error (`usage: prog ...`), ending in one newline.
export const formatUsage = (schema: FlagSchema, options: UsageOptions): string => {
  const { prog, width } = options;
  const optUsage = formatOptionals(schema);
  const posUsage = formatPositionals(schema);
  const usage = [prog, optUsage, posUsage].filter((s) => s !== '').join(' ');
  if (PREFIX.length + usage.length <= width) return `${PREFIX}${usage}\n`;

  const optParts = splitParts(optUsage);
  const posParts = splitParts(posUsage);
  let lines: string[];
  if (PREFIX.length + prog.length <= 0.75 * width) {
    const indent = ' '.repeat(PREFIX.length + prog.length + 1);
    if (optParts.length > 0) {
      lines = wrapParts([prog, ...optParts], indent, width, PREFIX);
      lines.push(...wrapParts(posParts, indent, width));
    } else if (posParts.length > 0) {
      lines = wrapParts([prog, ...posParts], indent, width, PREFIX);
    } else {
      lines = [prog];
    }
  } else {
    const indent = ' '.repeat(PREFIX.length);
    lines = wrapParts([...optParts, ...posParts], indent, width);
    if (lines.length > 1) {
      lines = [...wrapParts(optParts, indent, width), ...wrapParts(posParts, indent, width)];
    }
    lines = [prog, ...lines];
  }
  return `${PREFIX}${lines.join('\n')}\n`;
};

// What argparse writes to stderr when it rejects argv (then it exits 2): the usage block and the error line.
export const formatArgparseError = (schema: FlagSchema, message: string, options: UsageOptions): string =>
  `${formatUsage(schema, options)}${options.prog}: error: ${message}\n`;
