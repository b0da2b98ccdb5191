// Finds a recognised engine entrypoint anywhere in a server command (DESIGN.md "Preflight scope").
import { basename } from 'node:path';
import type { EngineName } from '../flags/schema/schema.ts';

export interface Entrypoint {
  engine: EngineName;
  kind: 'python-module' | 'cli' | 'sim';
  /** Index in argv of the entrypoint's first token (the interpreter, `vllm`, `sglang` or `vigil`). */
  start: number;
  /** Index of the first argument that belongs to the engine's own parser. */
  argsStart: number;
  /** The Python interpreter for `-m` entrypoints; the `vllm`/`sglang` executable for CLIs. */
  interpreter: string | null;
  /** The module for `-m` entrypoints, e.g. `sglang.launch_server`. */
  module: string | null;
}

const PYTHON = /^python(\d+(\.\d+)*)?$/;
const SGLANG_MODULES = new Set(['sglang.launch_server']);
const VLLM_MODULES = new Set(['vllm.entrypoints.openai.api_server']);
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
    if ((name === 'vllm' || name === 'sglang') && argv[i + 1] === 'serve') {
      return { engine: name, kind: 'cli', start: i, argsStart: i + 2, interpreter: token, module: null };
    }
    if (isVigil(token) && argv[i + 1] === 'sim') {
      const engine = argv[i + 2];
      if (engine !== 'sglang' && engine !== 'vllm') return null;
      let argsStart = i + 3;
      if (argv[argsStart] === '--') argsStart++;
      if (engine === 'vllm' && argv[argsStart] === 'serve') argsStart++;
      return { engine, kind: 'sim', start: i, argsStart, interpreter: null, module: null };
    }
  }
  return null;
};

const pythonModule = (argv: readonly string[], i: number): Entrypoint | null => {
  let j = i + 1;
  while (j < argv.length) {
    const arg = argv[j] ?? '';
    if (arg === '-m') {
      const module = argv[j + 1] ?? '';
      const interpreter = argv[i] ?? null;
      if (SGLANG_MODULES.has(module)) {
        return { engine: 'sglang', kind: 'python-module', start: i, argsStart: j + 2, interpreter, module };
      }
      if (VLLM_MODULES.has(module)) {
        return { engine: 'vllm', kind: 'python-module', start: i, argsStart: j + 2, interpreter, module };
      }
      return null;
    }
    if (!arg.startsWith('-')) return null;
    j += PYTHON_VALUE_OPTIONS.has(arg) ? 2 : 1;
  }
  return null;
};
