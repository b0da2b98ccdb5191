// The engine registry: adding an engine touches only its own folder and this list.
import type { EngineId, EngineSpec } from './types.ts';
import { sglang } from './sglang/index.ts';
import { vllm } from './vllm/index.ts';
import { tgi } from './tgi/index.ts';
import { generic } from './generic/index.ts';

export const ENGINES: Readonly<Record<EngineId, EngineSpec>> = { sglang, vllm, tgi, generic };

export const getEngine = (id: EngineId): EngineSpec => ENGINES[id];

/** Every named engine (all but the generic fallback), in registry order. */
export const NAMED_ENGINES: readonly EngineSpec[] = Object.values(ENGINES).filter(
  (spec) => spec.id !== 'generic',
);

/** Engines vigil has a flag table for. */
export const FLAG_ENGINES: readonly EngineSpec[] = NAMED_ENGINES.filter((spec) => spec.flags !== undefined);

// Whether a name is an engine id (`--engine` values, JSON records).
export const isEngineId = (name: string): name is EngineId => Object.hasOwn(ENGINES, name);
