// What vLLM's EAGLE-3 draft loader (vllm/model_executor/models/llama_eagle3.py) reads (docs/engines/facts.md,
// "EAGLE-3 checkpoint layouts"): `layers.{i}.*`, with
// `midlayer.` mapped onto `layers.0.`, `d2t` loaded as draft_id_to_target_id and `t2d` dropped. Unlike SGLang,
// an unknown name stops the load with a KeyError, so a bad name is loud, not silent.
import {
  architecturesOf,
  configField,
  layerCount,
  layerParams,
  type DraftConfig,
  type DraftIssue,
  type DraftLoader,
  type TensorResolution,
} from '../../ckpt/draft-loader.ts';
import type { LayoutSignature } from '../../ckpt/layout.ts';
import type { ArgparseResult } from '../../flags/argparse/parse.ts';
import { isLocalPath } from '../../flags/checks/value-checks.ts';

const ARCHES = ['Eagle3LlamaForCausalLM', 'Eagle3Qwen3ForCausalLM', 'LlamaForCausalLMEagle3'];

const paramsOf = (config: DraftConfig): Set<string> => {
  const params = ['fc.weight', 'norm.weight', 'lm_head.weight', 'embed_tokens.weight'];
  const n = layerCount(config);
  const qwen3 = configField(config, 'model_type') === 'qwen3';
  const bias = configField(config, 'attention_bias') === true;
  for (let i = 0; i < n; i++) {
    params.push(...layerParams(`layers.${i}`, i === 0));
    if (qwen3) params.push(`layers.${i}.self_attn.q_norm.weight`, `layers.${i}.self_attn.k_norm.weight`);
    if (bias) params.push(...['q', 'k', 'v'].map((p) => `layers.${i}.self_attn.${p}_proj.bias`));
  }
  if (configField(config, 'norm_before_fc') === true) params.push('input_norm.weight');
  if (configField(config, 'fc_norm') === true) for (let i = 0; i < 3; i++) params.push(`fc_norm.${i}.weight`);
  return new Set(params);
};

export const vllmLayout: LayoutSignature = {
  id: 'vllm-eagle3',
  label: 'vLLM EAGLE-3 (layers.N.*, Eagle3LlamaForCausalLM)',
  match: (names, config) => {
    const arch = architecturesOf(config).filter((a) => /^Eagle3.*ForCausalLM$/.test(a));
    return arch.length > 0 && !names.some((n) => n.startsWith('midlayer.'))
      ? ['decoder layer named layers.N.*', `architectures ${JSON.stringify(arch)}`]
      : null;
  },
};

// The EAGLE-3 draft folder of a vLLM command: "model" in --speculative-config when "method" is "eagle3".
export const vllmDraftFolder = (
  parsed: ArgparseResult,
): { path: string; index: number; arg: string } | null => {
  const use = parsed.options.filter((u) => u.option.strings.includes('--speculative-config')).at(-1);
  const text = use?.values[0];
  if (use === undefined || text === undefined) return null;
  try {
    const config = JSON.parse(text) as Record<string, unknown> | null;
    const model = config?.['model'];
    if (config?.['method'] !== 'eagle3' || typeof model !== 'string' || !isLocalPath(model)) return null;
    return { path: model, index: use.valueIndexes[0] ?? use.index, arg: text };
  } catch {
    return null;
  }
};

export const vllmDraftLoader = (version: string): DraftLoader => ({
  engine: 'vllm',
  label: 'vLLM',
  version,
  generation: 'layers.{i}, midlayer.* mapped onto layers.0, unknown names stop the load',
  resolve: (raw: string, config: DraftConfig): TensorResolution => {
    const name = raw.replace(/^model\./, '').replace('midlayer.', 'layers.0.');
    if (name === 't2d') return { fate: 'unused', param: null, why: 'the loader drops t2d on purpose' };
    if (name === 'd2t') return { fate: 'loaded', param: 'draft_id_to_target_id' };
    if (paramsOf(config).has(name)) return { fate: 'loaded', param: name };
    return { fate: 'fails', param: null, why: `vLLM has no parameter ${name} and stops with a KeyError` };
  },
  required: () => [...layerParams('layers.0', true), 'fc.weight', 'norm.weight', 'lm_head.weight'],
  configIssues: (config) => configIssues(config),
  skipAdvice: [],
});

const configIssues = (config: DraftConfig): DraftIssue[] => {
  if (config === null) {
    return [
      {
        severity: 'error',
        code: 'draft-config-missing',
        message: 'the drafter folder has no config.json',
        suggestions: [],
      },
    ];
  }
  const issues: DraftIssue[] = [];
  if (typeof config['speculators_model_type'] === 'string') {
    const spec = config['speculators_config'] as Record<string, unknown> | undefined;
    const methods = spec?.['proposal_methods'];
    const first = Array.isArray(methods) ? (methods[0] as Record<string, unknown> | undefined) : undefined;
    const verifier = spec?.['verifier'] as Record<string, unknown> | undefined;
    const missing = [
      typeof first?.['speculative_tokens'] === 'number'
        ? null
        : 'speculators_config.proposal_methods[0].speculative_tokens',
      typeof verifier?.['name_or_path'] === 'string' ? null : 'speculators_config.verifier.name_or_path',
      config['transformer_layer_config'] !== null && typeof config['transformer_layer_config'] === 'object'
        ? null
        : 'transformer_layer_config',
    ].filter((m): m is string => m !== null);
    for (const field of missing) {
      issues.push({
        severity: 'error',
        code: 'draft-config-field',
        message: `speculators config.json lacks ${field}, which vLLM requires`,
        suggestions: [],
      });
    }
    return issues;
  }
  const arch = architecturesOf(config);
  if (!arch.some((a) => ARCHES.includes(a))) {
    issues.push({
      severity: 'error',
      code: 'draft-architecture',
      message: `config.json architectures is ${JSON.stringify(arch)}; vLLM needs a speculators config or one of ${ARCHES.join(', ')}`,
      suggestions: [],
    });
  }
  return issues;
};
