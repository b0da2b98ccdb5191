// The model of an engine's command line: what an argparse parser accepts, independent of where it came from.
import type { SchemaSource } from '../../events.ts';
import { getEngine } from '../../engines/index.ts';
import type { EngineId, FlagDialect } from '../../engines/types.ts';
import { pyReprValue, pyStr } from '../argparse/py-values.ts';

export type Nargs = null | 0 | '?' | '*' | '+' | number;

export interface FlagOption {
  /** Every option string of the action, in the order argparse lists them, e.g. ['--model-path', '--model']. */
  strings: string[];
  dest: string;
  /** argparse nargs: null = exactly one value, 0 = a flag, '?', '*', '+', or a count. */
  nargs: Nargs;
  metavar: string | null;
  choices: string[] | null;
  required: boolean;
  /** Help text, or null when hidden. */
  help: string | null;
  /** help=SUPPRESS: the option works but is not listed by --help. */
  hidden: boolean;
  deprecated: boolean;
  deprecatedReason: string | null;
  /** Name of the value type when known: 'int', 'float', 'str', 'json', ... */
  type: string | null;
  /** argparse action name ('store', 'store_true', 'boolean_optional', 'append', 'help', or a custom class). */
  action: string;
  default: unknown;
  /** The type callable's name as the engine wrote it (`int`, `optional_type(int)`), when known. */
  pyType?: string | null;
  /** Python repr() of each choice (`'auto'`, `8`, `None`), in the order argparse lists them. */
  choiceReprs?: string[] | null;
}

export interface Positional {
  dest: string;
  nargs: Nargs;
  metavar: string | null;
  help: string | null;
}

/** An engine with a flag table (see src/engines/<engine>/flags.ts). */
export type EngineName = EngineId;

export interface FlagSchema {
  engine: EngineName;
  /** Engine version (`0.5.18`), or null when unknown. */
  version: string | null;
  options: FlagOption[];
  positionals: Positional[];
  /** How the engine's parser reads argv (a flexible parser also accepts `_` for `-`, `-O3` and dotted keys). */
  dialect: FlagDialect;
  /** Whether argparse allows unambiguous prefixes of long options (allow_abbrev). */
  allowAbbrev: boolean;
  source: SchemaSource;
}

// One entry of a `*.flags.json` table (the format of data/flags and test/fixtures/flags).
export interface FlagsJsonAction {
  flags: string[];
  dest: string;
  nargs: string | number | null;
  required: boolean;
  help: string | null;
  help_suppressed: boolean;
  type: string | null;
  choices: unknown[] | null;
  default: unknown;
  action: string;
  deprecated?: boolean;
  /** Why the table marks it deprecated: a reason text, or where the mark came from (`['help text']`). */
  deprecated_reason?: string | string[] | null;
  metavar?: string | string[] | null;
  const?: unknown;
  group?: string | null;
}

const FLAG_ACTIONS = /store_true|store_false|store_const|count|help|version|StoreTrue|StoreFalse|StoreConst/;

// argparse's nargs for an action from a flags.json table (flag actions have nargs 0).
const nargsOf = (action: FlagsJsonAction): Nargs => {
  if (action.nargs === null) return FLAG_ACTIONS.test(action.action) ? 0 : null;
  if (typeof action.nargs === 'number') return action.nargs;
  if (action.nargs === '?' || action.nargs === '*' || action.nargs === '+') return action.nargs;
  const n = Number(action.nargs);
  return Number.isInteger(n) ? n : null;
};

const typeName = (type: string | null): string | null => {
  if (type === null) return null;
  if (/json/i.test(type)) return 'json';
  if (/\bint\b/.test(type)) return 'int';
  if (/\bfloat\b/.test(type)) return 'float';
  return type;
};

// A tuple metavar names each of nargs=N values; any other list is printed whole, as Python's str() of it.
const metavarOf = (action: FlagsJsonAction): string | null => {
  const metavar = action.metavar ?? null;
  if (!Array.isArray(metavar)) return metavar;
  if (typeof action.nargs === 'number' && action.nargs === metavar.length) return metavar.join(' ');
  return `[${metavar.map(pyReprValue).join(', ')}]`;
};

// The words that explain a deprecation: the table's reason text, else the help that announces it.
const deprecatedReasonOf = (action: FlagsJsonAction): string | null => {
  if (typeof action.deprecated_reason === 'string') return action.deprecated_reason;
  return action.deprecated === true ? action.help : null;
};

// The dialect of an engine's parser, from its folder.
export const dialectOf = (engine: EngineName): FlagDialect => getEngine(engine).flags?.dialect ?? 'argparse';

// Builds a schema from a flags.json table.
export const schemaFromFlagsJson = (
  actions: readonly FlagsJsonAction[],
  meta: { engine: EngineName; version: string | null; source: SchemaSource },
): FlagSchema => {
  const options: FlagOption[] = [];
  const positionals: Positional[] = [];
  for (const action of actions) {
    const metavar = metavarOf(action);
    if (action.flags.length === 0) {
      positionals.push({ dest: action.dest, nargs: nargsOf(action), metavar, help: action.help });
      continue;
    }
    options.push({
      strings: [...action.flags],
      dest: action.dest,
      nargs: nargsOf(action),
      metavar,
      choices: action.choices === null ? null : action.choices.map(pyStr),
      choiceReprs: action.choices === null ? null : action.choices.map(pyReprValue),
      required: action.required,
      help: action.help,
      hidden: action.help_suppressed,
      deprecated: action.deprecated === true,
      deprecatedReason: deprecatedReasonOf(action),
      type: typeName(action.type),
      action: action.action,
      default: action.default,
      pyType: action.type,
    });
  }
  return {
    engine: meta.engine,
    version: meta.version,
    options,
    positionals,
    dialect: dialectOf(meta.engine),
    // clap accepts no abbreviated option names; argparse does (allow_abbrev).
    allowAbbrev: dialectOf(meta.engine) !== 'clap',
    source: meta.source,
  };
};
