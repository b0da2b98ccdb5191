// What an engine's EAGLE-3 draft loader does with each checkpoint tensor name: the contract between the
// engine-specific loader descriptions (src/engines/<engine>/draft-layout.ts) and `vigil ckpt check-draft`.
import type { EngineId } from '../engines/ids.ts';

/** loaded: fills a parameter; unused: read and deliberately dropped; skipped: dropped without a word; fails: the load stops with an error. */
export type TensorFate = 'loaded' | 'unused' | 'skipped' | 'fails';

export interface TensorResolution {
  fate: TensorFate;
  /** The parameter it fills (checkpoint spelling, before q/k/v and gate/up fusion), when loaded. */
  param: string | null;
  why?: string;
}

export interface DraftIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  suggestions: string[];
}

export type DraftConfig = Record<string, unknown> | null;

export interface DraftLoader {
  engine: EngineId;
  /** The engine's name as users write it. */
  label: string;
  /** The release checked against. */
  version: string;
  /** The loader generation, as the user should read it (e.g. "midlayer only (SGLang ≤ 0.5.11)"). */
  generation: string;
  resolve(name: string, config: DraftConfig): TensorResolution;
  /** The parameters a complete drafter fills; a missing one keeps its initial values. */
  required(config: DraftConfig): string[];
  configIssues(config: DraftConfig, names: readonly string[]): DraftIssue[];
  /** What to do about names this loader would skip (a rename preset, an upgrade). */
  skipAdvice: string[];
}

// A field of a drafter config, top level first, then inside speculators' transformer_layer_config.
export const configField = (config: DraftConfig, key: string): unknown => {
  if (config === null) return undefined;
  if (config[key] !== undefined) return config[key];
  const layer = config['transformer_layer_config'];
  return layer !== null && typeof layer === 'object' && !Array.isArray(layer)
    ? (layer as Record<string, unknown>)[key]
    : undefined;
};

export const layerCount = (config: DraftConfig): number => {
  const n = configField(config, 'num_hidden_layers');
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
};

/** The parameters of one EAGLE-3 decoder layer under a prefix (layer 0 also has hidden_norm). */
export const layerParams = (prefix: string, first: boolean): string[] => [
  ...['q_proj', 'k_proj', 'v_proj', 'o_proj'].map((p) => `${prefix}.self_attn.${p}.weight`),
  ...['gate_proj', 'up_proj', 'down_proj'].map((p) => `${prefix}.mlp.${p}.weight`),
  `${prefix}.input_layernorm.weight`,
  `${prefix}.post_attention_layernorm.weight`,
  ...(first ? [`${prefix}.hidden_norm.weight`] : []),
];

export const architecturesOf = (config: DraftConfig): string[] => {
  const value = config?.['architectures'];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};
