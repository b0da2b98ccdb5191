// The simulated engine's command line, checked against the newest bundled flag table with argparse's rules.
// A rejected command gets what the real parser prints (usage block and `<prog>: error: ...`, exit 2).
import { parseArgv, type ArgparseResult } from '../flags/argparse/parse.ts';
import { loadBundledSchema } from '../flags/schema/bundled.ts';
import { mergeConfigFile } from '../flags/checks/config-file.ts';
import type { FlagSchema } from '../flags/schema/schema.ts';
import { formatArgparseError, formatUsage } from '../flags/argparse/usage.ts';
import { localHost } from '../hosts/local.ts';
import type { SimEngine } from './types.ts';

// What `python -m sglang.launch_server` names itself (argparse takes the basename of sys.argv[0]).
export const SGLANG_PROG = 'launch_server.py';
// vLLM's top-level parser reports unrecognized arguments (vllm-unknown-flag-01.log; the subcommand list is
// that of vLLM 0.15-0.19 as printed in vllm-project/vllm-omni#1364); `vllm serve`'s own parser reports the rest.
const VLLM_TOP_USAGE = 'usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\n';
const VLLM_SERVE_USAGE = 'usage: vllm serve [model_tag] [options]\n';

export type ArgvCheck =
  | { ok: true; result: ArgparseResult; schema: FlagSchema }
  /** The process prints `text` to `stream` and exits with `code` (2 for a rejection, 0 for --help). */
  | { ok: false; stream: 'stdout' | 'stderr'; text: string; code: number };

// The text argparse writes when it rejects a command; `unrecognized` errors come from vLLM's top parser.
export const formatRejection = (
  engine: SimEngine,
  schema: FlagSchema,
  message: string,
  unrecognized: boolean,
  width: number,
): string => {
  if (engine === 'sglang') return formatArgparseError(schema, message, { prog: SGLANG_PROG, width });
  return unrecognized
    ? `${VLLM_TOP_USAGE}vllm: error: ${message}\n`
    : `${VLLM_SERVE_USAGE}vllm serve: error: ${message}\n`;
};

// Parses the engine arguments (for vLLM, after an optional leading `serve`) the way the engine would, with the
// flags of a `--config` YAML file merged in first. A file it cannot use stops it with a Python ValueError (exit 1).
export const checkSimArgv = async (
  engine: SimEngine,
  argv: readonly string[],
  width: number,
): Promise<ArgvCheck> => {
  const schema = loadBundledSchema(engine);
  const args = engine === 'vllm' && argv[0] === 'serve' ? argv.slice(1) : argv;
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
    const usage = engine === 'sglang' ? formatUsage(schema, { prog: SGLANG_PROG, width }) : VLLM_SERVE_USAGE;
    return { ok: false, stream: 'stdout', text: usage, code: 0 };
  }
  return { ok: true, result, schema };
};
