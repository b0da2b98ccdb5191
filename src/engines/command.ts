// What vigil learns from a server command: the engine, port, bind host, API key, node rank and model.
// Reads argv, and the YAML file a `--config` names (the engines merge its flags in); the flag tables come from
// the bundled schemas.
import { basename } from 'node:path';
import { findEntrypoint, type Entrypoint } from './entrypoint.ts';
import { getEngine } from './index.ts';
import type { EngineId } from './types.ts';
import { loadBundledSchema } from '../flags/schema/bundled.ts';
import { parseArgv } from '../flags/argparse/parse.ts';
import { mergeLocalConfigFileSync } from '../flags/checks/config-file.ts';
import type { EngineName } from '../flags/schema/schema.ts';

// `--engine`: an engine, or `auto` to read it from the command.
export type EngineChoice = EngineId | 'auto';

// What a server command tells vigil.
export interface ServerCommand {
  /** The engine whose rules apply: health path, ready line, log rules. */
  engine: EngineId;
  /** The entrypoint found in the command, or null when vigil cannot read it. */
  entrypoint: Entrypoint | null;
  /** The port from the command (`--port`, `--port=N`, a prefix), or the engine's default; null when unknown. */
  port: number | null;
  portSource: 'command' | 'default' | null;
  /** A --port value in the command that is not a port from 1 to 65535 (the server would not listen there). */
  badPort: string | null;
  /** The address the server binds (`--host`, or the engine's default); null when unknown. */
  bindHost: string | null;
  apiKey: string | null;
  /** SGLang/vLLM `--node-rank`; 0 when absent. */
  nodeRank: number;
  model: string | null;
  /** Speculative decoding settings, when any are given. */
  speculative: { algorithm: string | null; draftModel: string | null; config: string | null } | null;
}

// Reads a server command. `auto` takes the engine from the entrypoint (generic when there is none); cwd is
// where the server runs, for a relative `--config` path.
export const readServerCommand = (
  argv: readonly string[],
  choice: EngineChoice = 'auto',
  cwd?: string,
): ServerCommand => {
  const entrypoint = findEntrypoint(argv);
  const engine: EngineId = choice === 'auto' ? (entrypoint?.engine ?? 'generic') : choice;
  const readable = entrypoint !== null && getEngine(engine).flags !== undefined;
  if (!readable) {
    return {
      engine,
      entrypoint,
      port: null,
      portSource: null,
      badPort: null,
      bindHost: null,
      apiKey: null,
      nodeRank: 0,
      model: null,
      speculative: null,
    };
  }
  const values = readValues(entrypoint, argv, cwd);
  const portText = values.get('port');
  const port = parsePort(portText);
  const spec = getEngine(entrypoint.engine);
  const algorithm = values.get('speculative_algorithm') ?? null;
  const draftModel = values.get('speculative_draft_model_path') ?? null;
  const config = values.get('speculative_config') ?? null;
  return {
    engine,
    entrypoint,
    port: port ?? spec.defaultPort,
    portSource: port === null ? 'default' : 'command',
    badPort: portText !== undefined && port === null ? portText : null,
    // Where the engine binds when the command names no host (its own default: SGLang 127.0.0.1, vLLM 0.0.0.0).
    bindHost: values.get('host') ?? values.get('hostname') ?? spec.flags?.defaultBind ?? null,
    apiKey: values.get('api_key') ?? null,
    nodeRank: Number(values.get('node_rank') ?? 0) || 0,
    model:
      values.get('model_path') ??
      values.get('model') ??
      values.get('model_id') ??
      values.get('model_tag') ??
      null,
    speculative:
      algorithm === null && draftModel === null && config === null ? null : { algorithm, draftModel, config },
  };
};

// The argv to spawn: a leading `vigil sim` runs as this Node binary plus vigil's own entry point.
export const resolveSpawnArgv = (argv: readonly string[], vigilCommand: () => string[]): string[] => {
  const [first, second] = argv;
  if (first !== undefined && second === 'sim' && /^vigil(\.js)?$/.test(basename(first))) {
    return [...vigilCommand(), ...argv.slice(1)];
  }
  return [...argv];
};

const WANTED = new Set([
  'port',
  'host',
  'hostname',
  'api_key',
  'node_rank',
  'model_path',
  'model',
  'model_tag',
  'model_id',
  'speculative_algorithm',
  'speculative_draft_model_path',
  'speculative_config',
]);

// dest → first value of its last occurrence, read the way the engine's argparse reads argv (with the flags of a
// --config file ahead of the typed ones; an unreadable file is preflight's to report).
const readValues = (entrypoint: Entrypoint, argv: readonly string[], cwd?: string): Map<string, string> => {
  const args = argv.slice(entrypoint.argsStart);
  try {
    const schema = loadBundledSchema(entrypoint.engine);
    const merged = mergeLocalConfigFileSync(schema, args, 0, cwd);
    const parsed = parseArgv(schema, merged.args);
    const values = new Map<string, string>();
    for (const option of parsed.options) {
      const value = option.values[0];
      if (WANTED.has(option.option.dest) && value !== undefined) values.set(option.option.dest, value);
    }
    // An engine whose parser takes the model positionally (`vllm serve <model>`).
    const tag = parsed.positionals[0];
    if (schema.positionals.length > 0 && tag !== undefined) values.set('model_tag', tag.value);
    return values;
  } catch {
    return readExact(entrypoint.engine, args);
  }
};

// Fallback when the argparse model is unavailable: exact `--x v` and `--x=v` only (no prefixes).
const readExact = (engine: EngineName, args: readonly string[]): Map<string, string> => {
  const flags = getEngine(engine).flags;
  const names: Record<string, string> = {
    '--port': 'port',
    '--host': 'host',
    '--api-key': 'api_key',
    '--node-rank': 'node_rank',
    '--model-path': 'model_path',
    '--model-id': 'model_id',
    '--hostname': 'hostname',
    '--model': flags?.modelOption === '--model-path' ? 'model_path' : 'model',
    '--speculative-algorithm': 'speculative_algorithm',
    '--speculative-draft-model-path': 'speculative_draft_model_path',
    '--speculative-config': 'speculative_config',
  };
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const eq = arg.indexOf('=');
    const typed = eq === -1 ? arg : arg.slice(0, eq);
    // Some engines' parsers also accept `_` for `-` in option names.
    const dest = names[flags?.underscoreDashes === true ? typed.replaceAll('_', '-') : typed];
    if (dest === undefined) {
      if (flags?.modelOption === undefined && i === 0 && !arg.startsWith('-')) values.set('model_tag', arg);
      continue;
    }
    const value = eq === -1 ? args[i + 1] : arg.slice(eq + 1);
    if (value !== undefined) values.set(dest, value);
  }
  return values;
};

const parsePort = (text: string | undefined): number | null => {
  if (text === undefined || !/^\d+$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
};
