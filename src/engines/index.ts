// The engine registry: adding an engine touches only its own folder and this list.
import type { EngineDraftSupport, EngineId, EngineSpec } from './types.ts';
import type { DraftLoader } from '../ckpt/draft-loader.ts';
import type { LayoutSignature } from '../ckpt/layout.ts';
import type { PresetConfig } from '../ckpt/presets.ts';
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

/** The engine whose package a traceback frame's path is in, e.g. `sglang/srt/models/qwen3.py` → sglang. */
export const engineOfFrame = (frame: string | undefined): EngineId | null => {
  if (frame === undefined) return null;
  return (
    NAMED_ENGINES.find((engine) => engine.framePackages.some((pkg) => frame.startsWith(pkg)))?.id ?? null
  );
};

/** Engines vigil has a flag table for. */
export const FLAG_ENGINES: readonly EngineSpec[] = NAMED_ENGINES.filter((spec) => spec.flags !== undefined);

// Whether a name is an engine id (`--engine` values, JSON records).
export const isEngineId = (name: string): name is EngineId => Object.hasOwn(ENGINES, name);

/** Engines whose EAGLE-3 drafter loader vigil describes (src/engines/<engine>/draft.ts). */
export const DRAFT_ENGINES: readonly EngineSpec[] = NAMED_ENGINES.filter((spec) => spec.draft !== undefined);

/** An engine's drafter support, or null when vigil has none for it. */
export const draftSupportOf = (id: EngineId): EngineDraftSupport | null => ENGINES[id].draft ?? null;

/** Checkpoint layouts the engines define, in registry order. */
export const ENGINE_DRAFT_LAYOUTS: readonly LayoutSignature[] = DRAFT_ENGINES.flatMap((spec) =>
  spec.draft === undefined ? [] : [spec.draft.layout],
);

/** The rename presets the engines define, in registry order. */
export const DRAFT_PRESET_NAMES: readonly string[] = DRAFT_ENGINES.flatMap(
  (spec) => spec.draft?.presets?.names ?? [],
);

// One engine release's drafter loader; throws for an engine without drafter support (callers check first).
export const draftLoaderFor = (engine: EngineId, version: string): DraftLoader => {
  const support = draftSupportOf(engine);
  if (support === null) throw new Error(`vigil has no EAGLE-3 drafter loader for ${engine}`);
  return support.loader(version);
};

// The config.json rewrite of a rename preset, by the engine that owns the preset's kind.
export const rewriteDraftConfig = (
  source: Record<string, unknown>,
  preset: PresetConfig,
): { config: Record<string, unknown>; notes: string[] } => {
  const owner = DRAFT_ENGINES.find((spec) => spec.draft?.presets?.configKinds.includes(preset.kind));
  const presets = owner?.draft?.presets;
  if (presets === undefined) throw new Error(`no engine owns the preset config kind ${preset.kind}`);
  return presets.rewriteConfig(source, preset);
};
