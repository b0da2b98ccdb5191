// Reads a server's argv the way the engine's own argparse would. (Implementation pending.)
import type { FlagOption, FlagSchema } from './schema.ts';

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
}

export interface ArgparseResult {
  options: ParsedOption[];
  positionals: { index: number; value: string }[];
  issues: ArgparseIssue[];
  /** The single line argparse would print after `<prog>: error: ` for the first failure, or null when argparse accepts argv. */
  argparseError: string | null;
}

export interface ParseArgvOptions {
  /** Added to every index, so indexes refer to the whole server command. */
  offset?: number;
}

// Parses argv against a schema following argparse's rules (prefixes, nargs, choices, `=`, required).
export const parseArgv = (
  _schema: FlagSchema,
  _argv: readonly string[],
  _options: ParseArgvOptions = {},
): ArgparseResult => {
  throw new Error('parseArgv: not implemented yet');
};
