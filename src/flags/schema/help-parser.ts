// Turns an argparse `--help` text into a FlagSchema, whatever width, program name or Python version printed it.
// Hand-written: no library reads argparse help back. It relies only on what every argparse layout since
// Python 3.8 shares: a `usage:` block, section headings at column 0, and entries at one fixed indent.
import type { SchemaSource } from '../../events.ts';
import { escapeRegExp } from '../../regexp.ts';
import { FLAG_ENGINES, getEngine } from '../../engines/index.ts';
import {
  dialectOf,
  type EngineName,
  type FlagOption,
  type FlagSchema,
  type Nargs,
  type Positional,
} from './schema.ts';

export interface HelpParseMeta {
  engine: EngineName;
  version: string | null;
  source: SchemaSource;
}

// CSI and OSC escape sequences (Python 3.14 colours its help).
// eslint-disable-next-line no-control-regex -- escape sequences are control characters by definition
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const HEADING = /^([^\s,][^,]{0,60}):\s*$/;
const WORD = String.raw`(\{[^}]*\}|[^\s[\]]+)`;
const STAR = new RegExp(String.raw`^\[${WORD} (?:\.\.\.|\[\1 \.\.\.\])\]$`);
const PLUS = new RegExp(String.raw`^${WORD} \[\1 \.\.\.\]$`);
const PARSER = new RegExp(String.raw`^${WORD} \.\.\.$`);
const OPTIONAL = new RegExp(String.raw`^\[${WORD}\]$`);
const REPEATED = new RegExp(String.raw`^${WORD}(?: \1)+$`);

// Removes terminal colour codes from text.
export const stripAnsi = (text: string): string => text.replace(ANSI, '');

interface Entry {
  invocation: string;
  help: string[];
  positional: boolean;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

// argparse's metavar formats: `M`, `[M]`, `[M ...]` (3.8: `[M [M ...]]`), `M [M ...]`, `M M` (nargs=N).
const readArgs = (args: string): { nargs: Nargs; metavar: string | null } => {
  if (args === '') return { nargs: 0, metavar: null };
  let match = STAR.exec(args);
  if (match !== null) return { nargs: '*', metavar: match[1] ?? null };
  match = PLUS.exec(args) ?? PARSER.exec(args);
  if (match !== null) return { nargs: '+', metavar: match[1] ?? null };
  match = OPTIONAL.exec(args);
  if (match !== null) return { nargs: '?', metavar: match[1] ?? null };
  match = REPEATED.exec(args);
  if (match !== null) return { nargs: args.split(' ').length, metavar: match[1] ?? null };
  return { nargs: null, metavar: args };
};

const choicesOf = (metavar: string | null): string[] | null => {
  const match = metavar === null ? null : /^\{([^}]*)\}$/.exec(metavar);
  return match === null ? null : (match[1] ?? '').split(',');
};

const destOf = (strings: readonly string[]): string => {
  const long = strings.find((s) => s.startsWith('--')) ?? strings[0] ?? '';
  return long.replace(/^-+/, '').replace(/-/g, '_');
};

const DEPRECATED =
  /^\s*\[?deprecated\b|\b(?:is|are|been|now) deprecated\b|\bdeprecated alias\b|\(deprecated\)/i;

const toOption = (entry: Entry): FlagOption => {
  const parts = entry.invocation.split(/, (?=-)/);
  const strings: string[] = [];
  let args = '';
  for (const part of parts) {
    const space = part.indexOf(' ');
    strings.push(space === -1 ? part : part.slice(0, space));
    if (space !== -1) args = part.slice(space + 1);
  }
  const { nargs, metavar } = readArgs(args);
  const choices = choicesOf(metavar);
  const help = entry.help.join(' ').replace(/\s+/g, ' ').trim();
  const isBoolean = strings.some((s) => s.startsWith('--no-') && strings.includes(`--${s.slice(5)}`));
  const isHelp = nargs === 0 && (strings.includes('--help') || strings.includes('-h'));
  return {
    strings,
    dest: isHelp ? 'help' : destOf(strings),
    nargs,
    metavar: choices === null ? metavar : null,
    choices,
    required: false,
    help,
    hidden: false,
    deprecated: DEPRECATED.test(help),
    deprecatedReason: DEPRECATED.test(help) ? help : null,
    // A choice list of integers comes from type=int in practice; argparse then prints the choices bare.
    type: choices !== null && choices.length > 0 && choices.every((c) => /^-?\d+$/.test(c)) ? 'int' : null,
    action: isHelp ? 'help' : isBoolean ? 'boolean_optional' : nargs === 0 ? 'store_true' : 'store',
    default: null,
  };
};

// Words of the usage block outside any [] or () group: options there are required.
const topLevelWords = (usage: string): Set<string> => {
  const words = new Set<string>();
  let depth = 0;
  let word = '';
  const flush = (): void => {
    if (word !== '') words.add(word.replace(/^<(.*)>$/, '$1'));
    word = '';
  };
  for (const char of usage) {
    if (char === '[' || char === '(') {
      flush();
      depth++;
    } else if (char === ']' || char === ')') {
      flush();
      depth = Math.max(0, depth - 1);
    } else if (/\s/.test(char)) flush();
    else if (depth === 0) word += char;
  }
  flush();
  return words;
};

const positionalNargs = (usage: string, name: string, required: boolean): Nargs => {
  const n = escapeRegExp(name);
  if (new RegExp(String.raw`\[${n} (?:\.\.\.|\[${n} \.\.\.\])\]`).test(usage)) return '*';
  if (new RegExp(String.raw`(?:^|\s)${n} \[${n} \.\.\.\]`).test(usage)) return '+';
  return required ? null : '?';
};

const splitEntries = (lines: readonly string[]): { entries: Entry[]; usage: string } => {
  const usageStart = lines.findIndex((line) => /^usage:/i.test(line));
  let usageEnd = usageStart;
  if (usageStart !== -1) while (usageEnd < lines.length && (lines[usageEnd] ?? '').trim() !== '') usageEnd++;
  const usage =
    usageStart === -1
      ? ''
      : lines
          .slice(usageStart, usageEnd)
          .join(' ')
          .replace(/^usage:/i, '');
  const entries: Entry[] = [];
  let section: string | null = null;
  let itemIndent: number | null = null;
  let current: Entry | null = null;
  for (let i = Math.max(usageEnd, 0); i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      current?.help.push('');
      continue;
    }
    const indent = indentOf(line);
    const heading = indent === 0 ? HEADING.exec(line) : null;
    if (heading !== null && (lines[i - 1] ?? '').trim() === '') {
      section = (heading[1] ?? '').trim().toLowerCase();
      current = null;
      continue;
    }
    if (section === null || indent === 0) {
      current = null;
      continue;
    }
    itemIndent ??= indent;
    if (indent > itemIndent) {
      current?.help.push(line.trim());
      continue;
    }
    const body = line.slice(indent);
    const positional = section === 'positional arguments';
    if (indent < itemIndent || (!positional && !body.startsWith('-'))) {
      current = null;
      continue;
    }
    const split = /^(.*?)(?: {2,}(.*))?$/.exec(body);
    current = { invocation: (split?.[1] ?? body).trim(), help: [split?.[2] ?? ''], positional };
    entries.push(current);
  }
  return { entries, usage };
};

// The version a help text names, when the engine's help names one (e.g. a link to its versioned docs).
export const versionFromHelp = (text: string, engine?: EngineName): string | null => {
  const engines = engine === undefined ? FLAG_ENGINES : [getEngine(engine)];
  for (const spec of engines) {
    const version = spec.flags?.versionFromHelp?.(text) ?? null;
    if (version !== null) return version;
  }
  return null;
};

// Parses argparse help output into a schema. A text that lists no options yields a schema without options.
export const parseHelpText = (text: string, meta: HelpParseMeta): FlagSchema => {
  const lines = stripAnsi(text).replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const { entries, usage } = splitEntries(lines);
  const required = topLevelWords(usage);
  const options: FlagOption[] = [];
  const positionals: Positional[] = [];
  for (const entry of entries) {
    if (entry.positional && !entry.invocation.startsWith('-')) {
      const name = entry.invocation.split(' ')[0] ?? entry.invocation;
      const help = entry.help.join(' ').replace(/\s+/g, ' ').trim();
      positionals.push({
        dest: name,
        nargs: positionalNargs(usage, name, required.has(name)),
        metavar: null,
        help,
      });
      continue;
    }
    const option = toOption(entry);
    option.required = option.strings.some((s) => required.has(s));
    options.push(option);
  }
  return {
    engine: meta.engine,
    version: meta.version,
    options,
    positionals,
    dialect: dialectOf(meta.engine),
    allowAbbrev: dialectOf(meta.engine) !== 'clap',
    source: meta.source,
  };
};
