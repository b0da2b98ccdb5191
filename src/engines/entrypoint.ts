// Finds a recognised engine entrypoint anywhere in a server command (docs/cli.md, check): a `python -m`
// module, a console script (`vllm serve`), a container image whose entrypoint is the server, or `vigil sim`.
// Which names start which engine is each engine's own knowledge (src/engines/<engine>/flags.ts).
import { basename } from 'node:path';
import type { EngineName } from '../flags/schema/schema.ts';
import { FLAG_ENGINES, isEngineId } from './index.ts';

export interface Entrypoint {
  engine: EngineName;
  kind: 'python-module' | 'cli' | 'sim' | 'image';
  /** Index in argv of the entrypoint's first token (the interpreter, the script, the image or `vigil`). */
  start: number;
  /** Index of the first argument that belongs to the engine's own parser. */
  argsStart: number;
  /** The Python interpreter for `-m` entrypoints; the engine's executable for scripts; null otherwise. */
  interpreter: string | null;
  /** The module for `-m` entrypoints, e.g. `sglang.launch_server`. */
  module: string | null;
}

const PYTHON = /^python(\d+(\.\d+)*)?$/;
// Python's own options that take a value (the rest are single letters that take none).
const PYTHON_VALUE_OPTIONS = new Set(['-W', '-X', '-c', '-Q']);

const isVigil = (token: string): boolean => {
  const name = basename(token);
  return name === 'vigil' || name === 'vigil.js';
};

// Returns the first entrypoint in argv, or null when the command is not one vigil recognises.
export const findEntrypoint = (argv: readonly string[]): Entrypoint | null => {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    const name = basename(token);
    if (PYTHON.test(name)) {
      const found = pythonModule(argv, i);
      if (found !== null) return found;
      continue;
    }
    for (const spec of FLAG_ENGINES) {
      const script = spec.flags?.script;
      if (script !== null && script !== undefined && name === script.name) {
        if (script.subcommand === null)
          return {
            engine: spec.id,
            kind: 'cli',
            start: i,
            argsStart: i + 1,
            interpreter: token,
            module: null,
          };
        if (argv[i + 1] === script.subcommand)
          return {
            engine: spec.id,
            kind: 'cli',
            start: i,
            argsStart: i + 2,
            interpreter: token,
            module: null,
          };
      }
      if (spec.flags?.images?.some((image) => image.test(token)) === true)
        return {
          engine: spec.id,
          kind: 'image',
          start: i,
          argsStart: i + 1,
          interpreter: null,
          module: null,
        };
    }
    if (isVigil(token) && argv[i + 1] === 'sim') {
      const engine = argv[i + 2] ?? '';
      if (!isEngineId(engine) || !SIMULATED.has(engine)) return null;
      let argsStart = i + 3;
      if (argv[argsStart] === '--') argsStart++;
      const subcommand = FLAG_ENGINES.find((spec) => spec.id === engine)?.flags?.script?.subcommand;
      if (subcommand !== null && subcommand !== undefined && argv[argsStart] === subcommand) argsStart++;
      return { engine, kind: 'sim', start: i, argsStart, interpreter: null, module: null };
    }
  }
  return null;
};

// Engines `vigil sim` can stand in for.
const SIMULATED: ReadonlySet<string> = new Set(['sglang', 'vllm']);

const pythonModule = (argv: readonly string[], i: number): Entrypoint | null => {
  let j = i + 1;
  while (j < argv.length) {
    const arg = argv[j] ?? '';
    if (arg === '-m') {
      const module = argv[j + 1] ?? '';
      const interpreter = argv[i] ?? null;
      const spec = FLAG_ENGINES.find((engine) => engine.flags?.modules.includes(module) === true);
      return spec === undefined
        ? null
        : { engine: spec.id, kind: 'python-module', start: i, argsStart: j + 2, interpreter, module };
    }
    if (!arg.startsWith('-')) return null;
    j += PYTHON_VALUE_OPTIONS.has(arg) ? 2 : 1;
  }
  return null;
};
