// How argparse matches argument strings to options: exact strings, `=` forms, prefixes (allow_abbrev),
// short-option clusters, and the nargs patterns it matches against the A/O/- shape of argv.
import type { FlagOption, FlagSchema, Nargs, Positional } from '../schema/schema.ts';

/** A schema's option strings as argparse's parser holds them. */
export interface SchemaIndex {
  byString: Map<string, FlagOption>;
  /** Whether some option string looks like a negative number (then `-1` is an option, not a value). */
  negativeLike: boolean;
}

const indexes = new WeakMap<FlagSchema, SchemaIndex>();
const NEGATIVE_NUMBER = /^-\d+$|^-\d*\.\d+$/;

// Every option string of a schema mapped to its option, in argparse's registration order (cached per schema).
export const optionLookup = (schema: FlagSchema): ReadonlyMap<string, FlagOption> => indexOf(schema).byString;

// The cached lookup tables of a schema.
export const indexOf = (schema: FlagSchema): SchemaIndex => {
  let index = indexes.get(schema);
  if (index === undefined) {
    const byString = new Map<string, FlagOption>();
    for (const option of schema.options) for (const s of option.strings) byString.set(s, option);
    index = { byString, negativeLike: [...byString.keys()].some((s) => NEGATIVE_NUMBER.test(s)) };
    indexes.set(schema, index);
  }
  return index;
};

/** What argparse's _parse_optional returns for one argument string. */
export interface OptionTuple {
  option: FlagOption | null;
  optionString: string;
  explicit: string | null;
  matchedBy: 'exact' | 'prefix' | 'normalized';
  ambiguous: boolean;
}

// argparse's _get_option_tuples: every option a prefix could mean.
export const optionTuples = (schema: FlagSchema, index: SchemaIndex, arg: string): OptionTuple[] => {
  const result: OptionTuple[] = [];
  if (arg[1] === '-') {
    if (!schema.allowAbbrev) return result;
    const eq = arg.indexOf('=');
    const prefix = eq === -1 ? arg : arg.slice(0, eq);
    const explicit = eq === -1 ? null : arg.slice(eq + 1);
    for (const [s, option] of index.byString) {
      if (s.startsWith(prefix))
        result.push({ option, optionString: s, explicit, matchedBy: 'prefix', ambiguous: false });
    }
    return result;
  }
  const short = arg.slice(0, 2);
  for (const [s, option] of index.byString) {
    if (s === short) {
      result.push({ option, optionString: s, explicit: arg.slice(2), matchedBy: 'exact', ambiguous: false });
    } else if (s.startsWith(arg)) {
      result.push({ option, optionString: s, explicit: null, matchedBy: 'prefix', ambiguous: false });
    }
  }
  return result;
};

// argparse's _parse_optional: null means "a positional value"; option null means "an unknown option".
export const parseOptional = (
  schema: FlagSchema,
  index: SchemaIndex,
  arg: string,
): OptionTuple | OptionTuple[] | null => {
  if (arg === '' || arg[0] !== '-') return null;
  const exact = index.byString.get(arg);
  if (exact !== undefined)
    return { option: exact, optionString: arg, explicit: null, matchedBy: 'exact', ambiguous: false };
  if (arg.length === 1) return null;
  const eq = arg.indexOf('=');
  if (eq !== -1) {
    const head = arg.slice(0, eq);
    const option = index.byString.get(head);
    if (option !== undefined) {
      return {
        option,
        optionString: head,
        explicit: arg.slice(eq + 1),
        matchedBy: 'exact',
        ambiguous: false,
      };
    }
  }
  const tuples = optionTuples(schema, index, arg);
  if (tuples.length > 1) return tuples;
  if (tuples.length === 1) return tuples[0] ?? null;
  if (NEGATIVE_NUMBER.test(arg) && !index.negativeLike) return null;
  if (arg.includes(' ')) return null;
  return { option: null, optionString: arg, explicit: null, matchedBy: 'exact', ambiguous: false };
};

// argparse's _get_nargs_pattern, as a regex over the A/O/- pattern string.
export const nargsPattern = (nargs: Nargs, isOption: boolean): string => {
  let pattern: string;
  if (nargs === null) pattern = '(-*A-*)';
  else if (nargs === '?') pattern = '(-*A?-*)';
  else if (nargs === '*') pattern = '(-*[A-]*)';
  else if (nargs === '+') pattern = '(-*A[A-]*)';
  else pattern = `(-*${Array.from({ length: nargs }, () => 'A').join('-*')}-*)`;
  return isOption ? pattern.replaceAll('-*', '').replaceAll('-', '') : pattern;
};

// argparse's message when an option's values do not fit its nargs.
export const nargsError = (nargs: Nargs): string => {
  if (nargs === null) return 'expected one argument';
  if (nargs === '?') return 'expected at most one argument';
  if (nargs === '+') return 'expected at least one argument';
  const n = typeof nargs === 'number' ? nargs : 0;
  return `expected ${String(n)} argument${n === 1 ? '' : 's'}`;
};

// How argparse names an option in its messages: every option string joined by `/`.
export const actionName = (option: FlagOption): string => option.strings.join('/');
// How argparse names a positional: its metavar, else its dest.
export const positionalName = (positional: Positional): string => positional.metavar ?? positional.dest;

// How many of the following arguments an action takes (argparse's _match_argument), or null when none fit.
export const matchCount = (nargs: Nargs, isOption: boolean, pattern: string): number | null => {
  const match = new RegExp(`^${nargsPattern(nargs, isOption)}`).exec(pattern);
  return match === null ? null : (match[1] ?? '').length;
};
