// The simulated engine's command line, checked against the newest bundled flag table with argparse's rules.
// A rejected command gets what the real parser prints (usage block and `<prog>: error: ...`, exit 2).
import { parseArgv, type ArgparseResult } from '../flags/argparse/parse.ts';
import { loadBundledSchema } from '../flags/schema/bundled.ts';
import { mergeConfigFile } from '../flags/checks/config-file.ts';
import type { FlagSchema } from '../flags/schema/schema.ts';
import { localHost } from '../hosts/local.ts';
import type { SimEngine } from './types.ts';
import { simEngineOf } from '../engines/sim.ts';

export type ArgvCheck =
  | { ok: true; result: ArgparseResult; schema: FlagSchema }
  /** The process prints `text` to `stream` and exits with `code` (2 for a rejection, 0 for --help). */
  | { ok: false; stream: 'stdout' | 'stderr'; text: string; code: number };

// The text the engine's parser writes when it rejects a command.
export const formatRejection = (
  engine: SimEngine,
  schema: FlagSchema,
  message: string,
  unrecognized: boolean,
  width: number,
): string => simEngineOf(engine).formatRejection(schema, message, unrecognized, width);

// Parses the engine's own arguments (after a subcommand such as `serve`) the way the engine would, with the
// flags of a `--config` YAML file merged in first. A file it cannot use stops it with a Python ValueError (exit 1).
export const checkSimArgv = async (
  engine: SimEngine,
  argv: readonly string[],
  width: number,
): Promise<ArgvCheck> => {
  const schema = loadBundledSchema(engine);
  const args = simEngineOf(engine).ownArgs(argv);
  const merged = await mergeConfigFile(schema, args, 0, localHost);
  if (merged.problem !== null) {
    return { ok: false, stream: 'stderr', text: `ValueError: ${merged.problem.message}\n`, code: 1 };
  }
  const result = parseArgv(schema, merged.args);
  if (result.argparseError !== null) {
    const unrecognized = result.issues[0]?.kind === 'unrecognized';
    return {
      ok: false,
      stream: 'stderr',
      text: formatRejection(engine, schema, result.argparseError, unrecognized, width),
      code: 2,
    };
  }
  if (result.options.some((parsed) => parsed.option.action === 'help')) {
    return { ok: false, stream: 'stdout', text: simEngineOf(engine).usage(schema, width), code: 0 };
  }
  return { ok: true, result, schema };
};
