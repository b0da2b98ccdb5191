// Rewrites a drafter's config.json between the speculators layout and SGLang's LlamaForCausalLMEagle3
// (docs/engines/facts.md, "EAGLE-3 checkpoint layouts"): flatten `transformer_layer_config` and set
// `architectures`, or nest the layer fields again. Returns the new config plus notes on what it could not carry
// over faithfully.
import type { PresetConfig } from '../../ckpt/presets.ts';

type Json = Record<string, unknown>;

export interface ConfigRewrite {
  config: Json;
  notes: string[];
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isIntList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((v) => Number.isInteger(v));

export const rewriteConfig = (source: Json, preset: PresetConfig): ConfigRewrite =>
  preset.kind === 'speculators-to-sglang' ? toSglang(source, preset) : toSpeculators(source, preset);

const toSglang = (source: Json, preset: PresetConfig): ConfigRewrite => {
  const notes: string[] = [];
  const layer = source[preset.flatten ?? 'transformer_layer_config'];
  if (!isObject(layer)) {
    const config = { ...source, architectures: preset.architectures };
    notes.push('config.json has no transformer_layer_config: only architectures was set');
    return { config, notes };
  }
  const config: Json = { architectures: preset.architectures, ...layer };
  for (const [key, value] of Object.entries(source)) {
    if (key === 'architectures' || preset.remove.includes(key)) continue;
    if (preset.keepIfNotNull.includes(key) && value === null) continue;
    config[key] = value;
  }
  config['architectures'] = preset.architectures;
  config['tie_word_embeddings'] ??= false;
  const rope = config['rope_parameters'];
  if (isObject(rope) && config['rope_theta'] === undefined && typeof rope['rope_theta'] === 'number') {
    config['rope_theta'] = rope['rope_theta'];
    if (rope['rope_type'] !== undefined && rope['rope_type'] !== 'default') config['rope_scaling'] ??= rope;
  }
  const ids = source['eagle_aux_hidden_state_layer_ids'];
  if (isIntList(ids)) {
    const n = (ids[2] ?? 0) + 3;
    if (ids.length === 3 && ids[0] === 2 && ids[1] === Math.floor(n / 2)) {
      notes.push(
        `aux layer ids ${JSON.stringify(ids)} are the engine default for a ${n}-layer target: eagle_config omitted`,
      );
    } else {
      config['eagle_config'] = { eagle_aux_hidden_state_layer_ids: ids.map((k) => k - 1) };
      notes.push(
        `aux layer ids ${JSON.stringify(ids)} written as eagle_config ${JSON.stringify(ids.map((k) => k - 1))} (the engine adds 1)`,
      );
    }
    if (ids.length !== 3)
      notes.push(`${ids.length} aux layer ids: midlayer-generation loaders expect exactly 3`);
  }
  if (config['model_type'] !== 'llama')
    notes.push(
      `model_type is ${JSON.stringify(config['model_type'])}: LlamaForCausalLMEagle3 runs it as a llama layer`,
    );
  for (const flag of ['norm_before_residual', 'norm_before_fc', 'fc_norm', 'norm_output']) {
    if (source[flag] === true)
      notes.push(`${flag}: true was trained but is not honoured by the midlayer-generation loader`);
  }
  const types = config['layer_types'];
  if (Array.isArray(types) && types.includes('sliding_attention')) {
    notes.push(
      'the drafter was trained with sliding-window attention; the engine runs it with full attention unless told otherwise',
    );
  }
  return { config, notes };
};

const toSpeculators = (source: Json, preset: PresetConfig): ConfigRewrite => {
  const notes: string[] = [];
  if (typeof source['speculators_model_type'] === 'string') {
    return { config: source, notes: ['config.json is already in the speculators layout: left unchanged'] };
  }
  const layer: Json = {};
  const top: Json = { architectures: preset.architectures, speculators_model_type: 'eagle3' };
  for (const [key, value] of Object.entries(source)) {
    if (preset.remove.includes(key)) continue;
    if (preset.keep.includes(key) || preset.keepIfNotNull.includes(key)) top[key] = value;
    else layer[key] = value;
  }
  top['target_hidden_size'] ??= null;
  top['norm_before_residual'] = false;
  top[preset.nest ?? 'transformer_layer_config'] = layer;
  const eagle = source['eagle_config'];
  const ids = isObject(eagle) ? eagle['eagle_aux_hidden_state_layer_ids'] : undefined;
  if (isIntList(ids)) top['eagle_aux_hidden_state_layer_ids'] = ids.map((k) => k + 1);
  top['speculators_config'] = {
    algorithm: 'eagle3',
    default_proposal_method: 'greedy',
    proposal_methods: [
      {
        proposal_type: 'greedy',
        speculative_tokens: preset.speculativeTokens ?? 3,
        verifier_accept_k: 1,
        accept_tolerance: 0.0,
      },
    ],
    verifier: { name_or_path: null, architectures: [] },
  };
  notes.push(
    'set speculators_config.verifier.name_or_path to the target model: the SGLang config does not name it',
  );
  return { config: top, notes };
};
