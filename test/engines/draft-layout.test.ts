// The engines' EAGLE-3 draft loaders: which checkpoint names each release loads, drops or skips.
import { describe, expect, it } from 'vitest';
import { sglangDraftLoader } from '../../src/engines/sglang/draft-layout.ts';
import { vllmDraftLoader } from '../../src/engines/vllm/draft-layout.ts';

const LLAMA = {
  architectures: ['LlamaForCausalLMEagle3'],
  model_type: 'llama',
  hidden_size: 16,
  num_attention_heads: 2,
  num_hidden_layers: 1,
  draft_vocab_size: 32,
};

describe('SGLang', () => {
  it('up to 0.5.11 loads midlayer.* and skips layers.0.* silently', () => {
    const loader = sglangDraftLoader('0.5.11');
    expect(loader.resolve('midlayer.self_attn.q_proj.weight', LLAMA)).toEqual({
      fate: 'loaded',
      param: 'midlayer.self_attn.q_proj.weight',
    });
    expect(loader.resolve('layers.0.self_attn.q_proj.weight', LLAMA).fate).toBe('skipped');
    expect(loader.generation).toContain('midlayer only');
  });

  it('from 0.5.12 loads layers.0.* and renames midlayer.* onto it', () => {
    const loader = sglangDraftLoader('0.5.12');
    expect(loader.resolve('layers.0.mlp.up_proj.weight', LLAMA)).toEqual({
      fate: 'loaded',
      param: 'layers.0.mlp.up_proj.weight',
    });
    expect(loader.resolve('midlayer.mlp.up_proj.weight', LLAMA)).toEqual({
      fate: 'loaded',
      param: 'layers.0.mlp.up_proj.weight',
    });
    expect(loader.resolve('layers.1.mlp.up_proj.weight', LLAMA).fate).toBe('skipped');
    expect(loader.resolve('layers.1.mlp.up_proj.weight', { ...LLAMA, num_hidden_layers: 2 }).fate).toBe(
      'loaded',
    );
  });

  it('loads d2t as the hot-token map, drops t2d on purpose, and has no place for input_norm or q_norm', () => {
    for (const version of ['0.5.9', '0.5.18']) {
      const loader = sglangDraftLoader(version);
      expect(loader.resolve('d2t', LLAMA)).toEqual({ fate: 'loaded', param: 'hot_token_id' });
      expect(loader.resolve('t2d', LLAMA).fate).toBe('unused');
      expect(loader.resolve('input_norm.weight', LLAMA).fate).toBe('skipped');
      expect(loader.resolve('layers.0.self_attn.q_norm.weight', LLAMA).fate).toBe('skipped');
    }
  });

  it('reports a speculators config.json and training options it ignores', () => {
    const issues = sglangDraftLoader('0.5.18').configIssues(
      { architectures: ['Eagle3DraftModel'], speculators_model_type: 'eagle3', norm_before_residual: true },
      [],
    );
    expect(issues.map((i) => i.code)).toEqual(['draft-architecture', 'draft-math']);
    expect(sglangDraftLoader('0.5.18').configIssues(LLAMA, [])).toEqual([]);
    expect(sglangDraftLoader('0.5.11').configIssues(null, [])[0]?.severity).toBe('error');
  });
});

describe('vLLM', () => {
  const SPEC = {
    speculators_model_type: 'eagle3',
    transformer_layer_config: { model_type: 'llama', num_hidden_layers: 1 },
    speculators_config: {
      proposal_methods: [{ speculative_tokens: 3 }],
      verifier: { name_or_path: 'org/target' },
    },
  };

  it('maps midlayer.* onto layers.0.*, loads d2t, and stops on an unknown name', () => {
    const loader = vllmDraftLoader('0.19.1');
    expect(loader.resolve('midlayer.input_layernorm.weight', SPEC)).toEqual({
      fate: 'loaded',
      param: 'layers.0.input_layernorm.weight',
    });
    expect(loader.resolve('d2t', SPEC)).toEqual({ fate: 'loaded', param: 'draft_id_to_target_id' });
    expect(loader.resolve('verifier_norm.weight', SPEC).fate).toBe('fails');
  });

  it('requires the speculators fields it reads', () => {
    const issues = vllmDraftLoader('0.19.1').configIssues({ ...SPEC, speculators_config: {} }, []);
    expect(issues.map((i) => i.message)).toEqual([
      'speculators config.json lacks speculators_config.proposal_methods[0].speculative_tokens, which vLLM requires',
      'speculators config.json lacks speculators_config.verifier.name_or_path, which vLLM requires',
    ]);
    expect(vllmDraftLoader('0.19.1').configIssues(SPEC, [])).toEqual([]);
  });
});
