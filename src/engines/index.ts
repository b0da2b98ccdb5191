// The engine registry: adding an engine touches only its own folder and this list.
import type { EngineId, EngineSpec } from './types.ts';
import { sglang } from './sglang/index.ts';
import { vllm } from './vllm/index.ts';
import { tgi } from './tgi/index.ts';
import { generic } from './generic/index.ts';

export const ENGINES: Readonly<Record<EngineId, EngineSpec>> = { sglang, vllm, tgi, generic };

export const getEngine = (id: EngineId): EngineSpec => ENGINES[id];
