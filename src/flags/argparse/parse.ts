// Reads a server's argv the way the engine's own argparse would (Python 3.11 rules), so vigil can say before
// launch exactly what the engine would say after importing torch. Hand-written: no JS library mirrors
// argparse's consumption algorithm (option/argument patterns, prefixes, nargs regexes, error order).
import type { FlagOption, FlagSchema, Positional } from '../schema/schema.ts';
import { pyRepr } from './py-values.ts';
import { inClapWords } from './clap-wording.ts';
import {
  actionName,
  indexOf,
  matchCount,
  nargsError,
  parseOptional,
  positionalName,
  nargsPattern,
  type OptionTuple,
  type SchemaIndex,
} from './match.ts';
import { choiceReprs, convert, typeOf } from './values.ts';

export { optionLookup } from './match.ts';
import { getEngine } from '../../engines/index.ts';
import type { NormalizedToken } from '../../engines/types.ts';

/** One option occurrence as argparse would consume it. */
export interface ParsedOption {
  option: FlagOption;
  /** The option string as typed (before `=`), e.g. `--port`, `--po`, `--max_model_len`. */
  typed: string;
  /** The canonical option string it resolved to, e.g. `--port`. */
  resolved: string;
  /** Index in the argv given to parseArgv (plus `offset`). */
  index: number;
  values: string[];
  /** Indexes of the values (same index as the option for `--x=v`). */
  valueIndexes: number[];
  matchedBy: 'exact' | 'prefix' | 'normalized';
}

export type ArgparseIssueKind =
  | 'unrecognized'
  | 'ambiguous'
  | 'expected-value'
  | 'unexpected-value'
  | 'invalid-choice'
  | 'invalid-value'
  | 'required-missing';

export interface ArgparseIssue {
  kind: ArgparseIssueKind;
  /** Index in argv (plus `offset`), or null for required-missing. */
  index: number | null;
  arg: string | null;
  option: FlagOption | null;
  /** For `ambiguous`: the option strings it could match. */
  candidates: string[];
  /** argparse's own message text after `error: `, e.g. `unrecognized arguments: --x 16`. */
  message: string;
  /** For `unrecognized`: the arguments argparse gathered with this one (the option and the values after it). */
  args?: string[];
  /** For `invalid-choice` and `invalid-value`: the offending value and its index. */
  value?: string;
  valueIndex?: number;
}

export interface ArgparseResult {
  options: ParsedOption[];
  positionals: { index: number; value: string }[];
  issues: ArgparseIssue[];
  /** The single line argparse would print after `<prog>: error: ` for the first failure, or null when argparse accepts argv. */
  argparseError: string | null;
  /** Index of a `-h/--help` that argparse would act on (print help, exit 0) before any error, else null. */
  helpIndex: number | null;
}

export interface ParseArgvOptions {
  /** Added to every index, so indexes refer to the whole server command. */
  offset?: number;
}

interface Work {
  schema: FlagSchema;
  index: SchemaIndex;
  tokens: NormalizedToken[];
  argv: readonly string[];
  offset: number;
  pattern: string;
  optionAt: Map<number, OptionTuple>;
  seen: Set<FlagOption | Positional>;
  extras: number[];
  ambiguousAt: Set<number>;
  result: ArgparseResult;
  /** Errors in the order argparse would raise them; only the first one reaches the user. */
  consumeErrors: string[];
}

const at = (work: Work, token: number): number => (work.tokens[token]?.origin ?? token) + work.offset;
const textAt = (work: Work, token: number): string => work.tokens[token]?.text ?? '';

const optionIssue = (
  work: Work,
  kind: ArgparseIssueKind,
  option: FlagOption,
  token: number,
  message: string,
  extra: Partial<ArgparseIssue> = {},
): void => {
  const full = `argument ${actionName(option)}: ${message}`;
  work.result.issues.push({
    kind,
    index: at(work, token),
    arg: work.argv[work.tokens[token]?.origin ?? token] ?? null,
    option,
    candidates: [],
    message: full,
    ...extra,
  });
  if (work.result.helpIndex === null) work.consumeErrors.push(full);
};

// argparse's take_action: converts and checks the values, records the occurrence.
const takeOption = (work: Work, tuple: OptionTuple, token: number, valueTokens: number[]): void => {
  const option = tuple.option;
  if (option === null) return;
  work.seen.add(option);
  const originText = work.argv[work.tokens[token]?.origin ?? token] ?? '';
  const eq = originText.indexOf('=');
  const typed = eq === -1 ? originText : originText.slice(0, eq);
  const explicit = tuple.explicit !== null && valueTokens.length === 0;
  const values = explicit ? [tuple.explicit ?? ''] : valueTokens.map((t) => textAt(work, t));
  const valueIndexes = explicit ? [at(work, token)] : valueTokens.map((t) => at(work, t));
  // argparse drops the first `--` from any action's values (it can arrive as `--opt=--`).
  const dash = values.indexOf('--');
  if (dash !== -1) {
    values.splice(dash, 1);
    valueIndexes.splice(dash, 1);
  }
  const rewritten = work.tokens[token]?.text !== originText;
  work.result.options.push({
    option,
    typed,
    resolved: tuple.optionString,
    index: at(work, token),
    values,
    valueIndexes,
    matchedBy: tuple.matchedBy === 'exact' && rewritten ? 'normalized' : tuple.matchedBy,
  });
  if (option.action === 'help' && work.result.helpIndex === null && work.consumeErrors.length === 0) {
    work.result.helpIndex = at(work, token);
  }
  checkValues(work, option, values, valueIndexes, token);
};

const checkValues = (
  work: Work,
  option: FlagOption,
  values: string[],
  valueIndexes: number[],
  token: number,
): void => {
  if (option.nargs === 0 || (values.length === 0 && option.nargs === '?')) return;
  for (const [i, value] of values.entries()) {
    const converted = convert(typeOf(option), value);
    const where = { value, valueIndex: valueIndexes[i] ?? at(work, token) };
    if (!converted.ok) {
      optionIssue(work, 'invalid-value', option, token, converted.message, where);
      return;
    }
    const choices = option.choices === null ? null : choiceReprs(option);
    if (choices !== null && !choices.includes(converted.repr)) {
      const message = `invalid choice: ${converted.repr} (choose from ${choices.join(', ')})`;
      optionIssue(work, 'invalid-choice', option, token, message, where);
      return;
    }
  }
};

// argparse's consume_optional, including `-xyz` = `-x -y -z` for single-dash flags.
const consumeOptional = (work: Work, start: number): number => {
  let tuple = work.optionAt.get(start);
  const taken: OptionTuple[] = [];
  const finish = (stop: number, last: OptionTuple | null, values: number[]): number => {
    for (const t of taken) takeOption(work, t, start, []);
    if (last !== null) takeOption(work, last, start, values);
    return stop;
  };
  while (tuple !== undefined) {
    const option = tuple.option;
    if (option === null) {
      work.extras.push(start);
      return start + 1;
    }
    if (tuple.explicit === null) {
      const count = matchCount(option.nargs, true, work.pattern.slice(start + 1));
      if (count === null) {
        optionIssue(work, 'expected-value', option, start, nargsError(option.nargs));
        return finish(start + 1, { ...tuple, explicit: null }, []);
      }
      const values = Array.from({ length: count }, (_, i) => start + 1 + i);
      return finish(start + 1 + count, tuple, values);
    }
    const count = matchCount(option.nargs, true, 'A');
    if (count === null) {
      optionIssue(work, 'expected-value', option, start, nargsError(option.nargs));
      return finish(start + 1, null, []);
    }
    if (count === 1) return finish(start + 1, tuple, []);
    const explicit = tuple.explicit;
    const bare: OptionTuple = { ...tuple, explicit: null };
    if (count === 0 && tuple.optionString[1] !== '-' && explicit !== '') {
      taken.push(bare);
      const optionString = `${tuple.optionString[0] ?? '-'}${explicit[0] ?? ''}`;
      const next = work.index.byString.get(optionString);
      if (next !== undefined) {
        tuple = {
          option: next,
          optionString,
          explicit: explicit.slice(1) || null,
          matchedBy: 'exact',
          ambiguous: false,
        };
        continue;
      }
    } else {
      taken.push(bare);
    }
    optionIssue(work, 'unexpected-value', option, start, `ignored explicit argument ${pyRepr(explicit)}`, {
      value: explicit,
      valueIndex: at(work, start),
    });
    return finish(start + 1, null, []);
  }
  return start + 1;
};

// argparse's consume_positionals with _match_arguments_partial.
const consumePositionals = (work: Work, start: number, pending: Positional[]): number => {
  const slice = work.pattern.slice(start);
  for (let n = pending.length; n > 0; n--) {
    const group = pending.slice(0, n);
    const match = new RegExp(`^${group.map((p) => nargsPattern(p.nargs, false)).join('')}`).exec(slice);
    if (match === null) continue;
    let cursor = start;
    group.forEach((positional, i) => {
      const count = (match[i + 1] ?? '').length;
      const tokens = Array.from({ length: count }, (_, k) => cursor + k);
      cursor += count;
      work.seen.add(positional);
      const dash = tokens.findIndex((t) => textAt(work, t) === '--');
      if (dash !== -1) tokens.splice(dash, 1);
      for (const t of tokens) work.result.positionals.push({ index: at(work, t), value: textAt(work, t) });
    });
    pending.splice(0, n);
    return cursor;
  }
  return start;
};

const scan = (work: Work): void => {
  const parts: string[] = [];
  let afterDashDash = false;
  work.tokens.forEach((token, i) => {
    if (afterDashDash) {
      parts.push('A');
      return;
    }
    if (token.text === '--') {
      parts.push('-');
      afterDashDash = true;
      return;
    }
    const found = parseOptional(work.schema, work.index, token.text);
    if (found === null) {
      parts.push('A');
      return;
    }
    parts.push('O');
    if (Array.isArray(found)) {
      const candidates = found.map((t) => t.optionString);
      work.result.issues.push({
        kind: 'ambiguous',
        index: at(work, i),
        arg: work.argv[token.origin] ?? token.text,
        option: null,
        candidates,
        message: `ambiguous option: ${token.text} could match ${candidates.join(', ')}`,
      });
      work.ambiguousAt.add(i);
      work.optionAt.set(i, {
        option: null,
        optionString: token.text,
        explicit: null,
        matchedBy: 'exact',
        ambiguous: true,
      });
      return;
    }
    work.optionAt.set(i, found);
  });
  work.pattern = parts.join('');
};

// argparse's _parse_known_args main loop: positionals and optionals alternately, the rest are extras.
const consume = (work: Work): void => {
  const pending = [...work.schema.positionals];
  const optionIndexes = [...work.optionAt.keys()].sort((a, b) => a - b);
  const last = optionIndexes.at(-1) ?? -1;
  let start = 0;
  while (start <= last) {
    const next = optionIndexes.find((i) => i >= start) ?? last;
    if (start !== next) {
      const end = consumePositionals(work, start, pending);
      if (end > start) {
        start = end;
        continue;
      }
      start = end;
    }
    if (!work.optionAt.has(start)) {
      for (let i = start; i < next; i++) work.extras.push(i);
      start = next;
    }
    start = consumeOptional(work, start);
  }
  const stop = consumePositionals(work, start, pending);
  for (let i = stop; i < work.tokens.length; i++) work.extras.push(i);
};

// Groups extras as argparse reports them: an unknown option with the values that follow it.
const reportExtras = (work: Work): string | null => {
  if (work.extras.length === 0) return null;
  let group: number[] = [];
  const flush = (): void => {
    const first = group[0];
    if (first === undefined || work.ambiguousAt.has(first)) return;
    const args = group.map((t) => textAt(work, t));
    work.result.issues.push({
      kind: 'unrecognized',
      index: at(work, first),
      arg: work.argv[work.tokens[first]?.origin ?? first] ?? null,
      option: null,
      candidates: [],
      message: `unrecognized arguments: ${args.join(' ')}`,
      args,
    });
  };
  let previous = -2;
  for (const t of work.extras) {
    const startsGroup = work.optionAt.has(t) || t !== previous + 1;
    if (startsGroup) {
      flush();
      group = [];
    }
    group.push(t);
    previous = t;
  }
  flush();
  return `unrecognized arguments: ${work.extras.map((t) => textAt(work, t)).join(' ')}`;
};

const reportRequired = (work: Work): string | null => {
  const missing: string[] = [];
  for (const positional of work.schema.positionals) {
    if (positional.nargs !== '?' && positional.nargs !== '*' && !work.seen.has(positional)) {
      missing.push(positionalName(positional));
    }
  }
  for (const option of work.schema.options) {
    if (option.required && !work.seen.has(option)) missing.push(actionName(option));
  }
  if (missing.length === 0) return null;
  const message = `the following arguments are required: ${missing.join(', ')}`;
  work.result.issues.push({
    kind: 'required-missing',
    index: null,
    arg: null,
    option: null,
    candidates: [],
    message,
  });
  return message;
};

// Parses argv against a schema following argparse's rules (prefixes, nargs, choices, `=`, required).
// Unlike argparse it does not stop at the first error: every issue is listed, and `argparseError`
// holds the one line argparse itself would have printed.
export const parseArgv = (
  schema: FlagSchema,
  argv: readonly string[],
  options: ParseArgvOptions = {},
): ArgparseResult => {
  const index = indexOf(schema);
  const result: ArgparseResult = {
    options: [],
    positionals: [],
    issues: [],
    argparseError: null,
    helpIndex: null,
  };
  let tokens: NormalizedToken[] = argv.map((text, origin) => ({ text, origin }));
  const preErrors: string[] = [];
  const normalizeArgv = getEngine(schema.engine).flags?.normalizeArgv;
  if (schema.dialect === 'flexible' && normalizeArgv !== undefined) {
    const normalized = normalizeArgv(schema, argv, new Set(index.byString.keys()));
    tokens = normalized.tokens;
    for (const token of normalized.missingValue) {
      const message = `argument ${token.text.split('=')[0] ?? token.text}: expected one argument`;
      const issue: ArgparseIssue = {
        kind: 'expected-value',
        index: token.origin + (options.offset ?? 0),
        arg: argv[token.origin] ?? token.text,
        option: null,
        candidates: [],
        message,
      };
      result.issues.push(issue);
      preErrors.push(message);
    }
  }
  const work: Work = {
    schema,
    index,
    tokens,
    argv,
    offset: options.offset ?? 0,
    pattern: '',
    optionAt: new Map(),
    seen: new Set(),
    extras: [],
    ambiguousAt: new Set(),
    result,
    consumeErrors: [],
  };
  scan(work);
  const ambiguous = result.issues.find((issue) => issue.kind === 'ambiguous')?.message ?? null;
  consume(work);
  const required = reportRequired(work);
  const unrecognized = reportExtras(work);
  const afterHelp = result.helpIndex === null ? [required, unrecognized] : [];
  const first = [preErrors[0], ambiguous, work.consumeErrors[0], ...afterHelp].find(
    (message) => message !== undefined && message !== null,
  );
  result.argparseError = first ?? null;
  if (preErrors.length > 0 || ambiguous !== null) result.helpIndex = null;
  if (schema.dialect === 'clap') inClapWords(result);
  return result;
};
