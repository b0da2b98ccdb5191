// Which EAGLE-3 drafter layout a checkpoint is in, from its tensor names and config.json alone.
export type DraftLayout = 'speculators-eagle3' | 'sglang-eagle3' | 'vllm-eagle3' | 'unknown';

export const LAYOUT_LABEL: Record<DraftLayout, string> = {
  'speculators-eagle3': 'speculators EAGLE-3 (layers.0.*)',
  'sglang-eagle3': 'SGLang EAGLE-3 (midlayer.*, LlamaForCausalLMEagle3)',
  'vllm-eagle3': 'vLLM EAGLE-3 (layers.N.*, Eagle3LlamaForCausalLM)',
  unknown: 'unknown (not an EAGLE-3 drafter vigil recognises)',
};

export interface LayoutGuess {
  layout: DraftLayout;
  /** The evidence, for `inspect`. */
  reasons: string[];
}

const architecturesOf = (config: Record<string, unknown> | null): string[] => {
  const value = config?.['architectures'];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

export const detectLayout = (
  names: readonly string[],
  config: Record<string, unknown> | null,
): LayoutGuess => {
  const arch = architecturesOf(config);
  const midlayer = names.some((n) => n.startsWith('midlayer.'));
  const layers = names.some((n) => /^layers\.\d+\./.test(n));
  const eagle = names.includes('fc.weight') && (midlayer || layers);
  const reasons: string[] = [];
  if (!eagle) {
    reasons.push('no fc.weight next to a midlayer.* or layers.N.* decoder layer');
    return { layout: 'unknown', reasons };
  }
  if (midlayer) {
    reasons.push('decoder layer named midlayer.*');
    if (arch.length > 0) reasons.push(`architectures ${JSON.stringify(arch)}`);
    return { layout: 'sglang-eagle3', reasons };
  }
  reasons.push('decoder layer named layers.N.*');
  if (typeof config?.['speculators_model_type'] === 'string') {
    reasons.push(
      `config.json has speculators_model_type ${JSON.stringify(config['speculators_model_type'])}`,
    );
    return { layout: 'speculators-eagle3', reasons };
  }
  if (arch.some((a) => /^Eagle3.*ForCausalLM$/.test(a))) {
    reasons.push(`architectures ${JSON.stringify(arch)}`);
    return { layout: 'vllm-eagle3', reasons };
  }
  if (arch.includes('LlamaForCausalLMEagle3')) {
    reasons.push(`architectures ${JSON.stringify(arch)} (loaders that read layers.N natively)`);
    return { layout: 'sglang-eagle3', reasons };
  }
  reasons.push(
    config === null
      ? 'no config.json: assuming the speculators trainer wrote it'
      : 'config.json names no EAGLE-3 architecture',
  );
  return { layout: config === null ? 'speculators-eagle3' : 'unknown', reasons };
};
