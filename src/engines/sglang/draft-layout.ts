// What SGLang's EAGLE-3 draft loader (python/sglang/srt/models/llama_eagle3.py, class LlamaForCausalLMEagle3)
// reads (docs/engines/facts.md, "EAGLE-3 checkpoint layouts"). Releases up to 0.5.11 name the decoder layer
// `midlayer` only; from 0.5.12 (upstream PR #24663) it is `layers.{i}`, and the loader rewrites `midlayer` to
// `layers.0` first. Both skip any unknown name silently.
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
import { compareVersions } from '../../flags/schema/versions.ts';

import { SGLANG_LAYERS_SINCE } from './eagle3-release.ts';

export { SGLANG_LAYERS_SINCE };
const ARCH = 'LlamaForCausalLMEagle3';
const LEGACY: [string, string][] = [
  ['midlayer', 'layers.0'],
  ['aux_norm_low', 'fc_norm.0'],
  ['aux_norm_mid', 'fc_norm.1'],
  ['aux_norm_high', 'fc_norm.2'],
];
const PRESET_HINT = 'vigil ckpt rename DIR --preset eagle3-speculators-to-sglang';

const auxCount = (config: DraftConfig): number => {
  const n = configField(config, 'num_aux_hidden_states');
  return typeof n === 'number' && n > 0 ? n : 3;
};

const paramsOf = (config: DraftConfig, layersGen: boolean): Set<string> => {
  const n = layerCount(config);
  const params = ['fc.weight', 'norm.weight', 'lm_head.weight', 'embed_tokens.weight'];
  if (configField(config, 'bias') === true) params.push('fc.bias');
  if (layersGen) {
    for (let i = 0; i < n; i++) params.push(...layerParams(`layers.${i}`, i === 0));
    if (configField(config, 'fc_norm') === true || configField(config, 'use_aux_norm') === true) {
      for (let i = 0; i < auxCount(config); i++) params.push(`fc_norm.${i}.weight`);
    }
  } else {
    params.push(...layerParams('midlayer', true));
    for (let i = 1; i < n; i++) params.push(...layerParams(`additional_layers.${i - 1}`, false));
  }
  return new Set(params);
};

/** The release assumed when the installed one is unknown: the midlayer-only loader, which every release reads. */
export const SGLANG_UNKNOWN_VERSION = {
  version: '0.5.11',
  note: 'release unknown: checked against the midlayer-only loader that every SGLang release reads',
};

export const sglangLayout: LayoutSignature = {
  id: 'sglang-eagle3',
  label: 'SGLang EAGLE-3 (midlayer.*, LlamaForCausalLMEagle3)',
  match: (names, config) => {
    const arch = architecturesOf(config);
    if (names.some((n) => n.startsWith('midlayer.'))) {
      return [
        'decoder layer named midlayer.*',
        ...(arch.length > 0 ? [`architectures ${JSON.stringify(arch)}`] : []),
      ];
    }
    return arch.includes(ARCH)
      ? [
          'decoder layer named layers.N.*',
          `architectures ${JSON.stringify(arch)} (releases that read layers.N natively)`,
        ]
      : null;
  },
};

// The EAGLE-3 draft folder of an SGLang command: --speculative-draft-model-path with --speculative-algorithm EAGLE3.
export const sglangDraftFolder = (
  parsed: ArgparseResult,
): { path: string; index: number; arg: string } | null => {
  const last = (dest: string): ArgparseResult['options'][number] | undefined =>
    parsed.options.filter((u) => u.option.dest === dest).at(-1);
  if (last('speculative_algorithm')?.values[0]?.toUpperCase() !== 'EAGLE3') return null;
  const use = last('speculative_draft_model_path');
  const value = use?.values[0];
  if (use === undefined || value === undefined || !isLocalPath(value)) return null;
  return { path: value, index: use.valueIndexes[0] ?? use.index, arg: value };
};

export const sglangDraftLoader = (version: string): DraftLoader => {
  const layersGen = compareVersions(version, SGLANG_LAYERS_SINCE) >= 0;
  const resolve = (raw: string, config: DraftConfig): TensorResolution => {
    let name = raw.replace(/^model\./, '');
    if (layersGen)
      for (const [legacy, next] of LEGACY) if (name.includes(legacy)) name = name.replace(legacy, next);
    if (name.includes('d2t')) return { fate: 'loaded', param: 'hot_token_id' };
    if (name.includes('t2d')) return { fate: 'unused', param: null, why: 'the loader drops t2d on purpose' };
    if (paramsOf(config, layersGen).has(name)) return { fate: 'loaded', param: name };
    return { fate: 'skipped', param: null, why: `no parameter ${name} in ${ARCH}` };
  };
  return {
    engine: 'sglang',
    label: 'SGLang',
    version,
    generation: layersGen
      ? `layers.{i} with midlayer.* renamed onto layers.0 (SGLang ≥ ${SGLANG_LAYERS_SINCE})`
      : 'midlayer only (SGLang ≤ 0.5.11)',
    resolve,
    required: (config) => {
      const first = layerParams(layersGen ? 'layers.0' : 'midlayer', true);
      const lmHead = configField(config, 'draft_vocab_size') === null ? [] : ['lm_head.weight'];
      return [...first, 'fc.weight', 'norm.weight', ...lmHead];
    },
    configIssues: (config) => configIssues(config, layersGen),
    skipAdvice: layersGen
      ? []
      : [PRESET_HINT, `or run SGLang ≥ ${SGLANG_LAYERS_SINCE}, which reads layers.0.* itself`],
  };
};

const configIssues = (config: DraftConfig, layersGen: boolean): DraftIssue[] => {
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
  const arch = architecturesOf(config);
  if (!arch.includes(ARCH)) {
    // Loud at load time (SGLang fails to build the model), not silent: a warning here.
    issues.push({
      severity: 'warning',
      code: 'draft-architecture',
      message: `config.json architectures is ${JSON.stringify(arch)}; SGLang builds the drafter from architectures and needs ["${ARCH}"]${typeof config['speculators_model_type'] === 'string' ? ' (this is a speculators config: its layer fields are nested in transformer_layer_config)' : ''}`,
      suggestions: [PRESET_HINT],
    });
  }
  for (const key of ['model_type', 'hidden_size', 'num_attention_heads']) {
    if (config[key] === undefined && arch.includes(ARCH)) {
      issues.push({
        severity: 'warning',
        code: 'draft-config-field',
        message: `config.json has no top-level ${key}, which SGLang reads`,
        suggestions: [PRESET_HINT],
      });
    }
  }
  for (const flag of ['norm_before_residual', 'norm_before_fc']) {
    if (config[flag] === true) {
      issues.push({
        severity: 'warning',
        code: 'draft-math',
        message: `${flag}: true in config.json, but SGLang's EAGLE-3 layer ignores it: the drafter runs different math than it was trained with (low acceptance)`,
        suggestions: [],
      });
    }
  }
  if (!layersGen && layerCount(config) > 1) {
    issues.push({
      severity: 'warning',
      code: 'draft-layers',
      message: `num_hidden_layers is ${layerCount(config)}; the midlayer-generation loader was built for one layer (the oldest builds refuse more)`,
      suggestions: [],
    });
  }
  if (
    !layersGen &&
    (configField(config, 'fc_norm') === true || configField(config, 'norm_output') === true)
  ) {
    issues.push({
      severity: 'warning',
      code: 'draft-math',
      message: `fc_norm / norm_output are set, which only SGLang ≥ ${SGLANG_LAYERS_SINCE} honours`,
      suggestions: [],
    });
  }
  return issues;
};
