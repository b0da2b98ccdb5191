// The engines' ids, without their specs: option definitions and help texts list them without loading every
// engine's rules (`vigil up --help` stays light). src/engines/index.ts's registry is keyed by exactly these.
export const ENGINE_IDS = ['sglang', 'vllm', 'tgi', 'generic'] as const;

/** An engine of the registry. */
export type EngineId = (typeof ENGINE_IDS)[number];
