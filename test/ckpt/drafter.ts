// A synthetic EAGLE-3 drafter in the speculators layout: the exact key set of a default speculators
// `Eagle3DraftModel` checkpoint (one llama decoder layer named layers.0.*, reduced draft vocabulary so d2t/t2d
// are saved), with small dimensions. Key set and shapes follow the speculators source at c05b95b3
// (models/eagle3/core.py, model.py); the config mirrors a converted speculators config.json.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSafetensors, type TensorData } from '../../src/ckpt/encode.ts';
import { DTYPE_BITS, type Dtype } from '../../src/ckpt/dtypes.ts';

export const DIMS = { H: 16, V: 64, Vd: 32, nh: 2, nkv: 1, hd: 8, I: 32, A: 3 } as const;

// name → [dtype, shape]
export const SPECULATORS_KEYS: Record<string, [Dtype, number[]]> = (() => {
  const { H, V, Vd, nh, nkv, hd, I, A } = DIMS;
  return {
    'embed_tokens.weight': ['BF16', [V, H]],
    'lm_head.weight': ['BF16', [Vd, H]],
    d2t: ['I64', [Vd]],
    t2d: ['BOOL', [V]],
    'fc.weight': ['BF16', [H, A * H]],
    'layers.0.hidden_norm.weight': ['BF16', [H]],
    'layers.0.input_layernorm.weight': ['BF16', [H]],
    'layers.0.post_attention_layernorm.weight': ['BF16', [H]],
    'layers.0.self_attn.q_proj.weight': ['BF16', [nh * hd, 2 * H]],
    'layers.0.self_attn.k_proj.weight': ['BF16', [nkv * hd, 2 * H]],
    'layers.0.self_attn.v_proj.weight': ['BF16', [nkv * hd, 2 * H]],
    'layers.0.self_attn.o_proj.weight': ['BF16', [H, nh * hd]],
    'layers.0.mlp.gate_proj.weight': ['BF16', [I, H]],
    'layers.0.mlp.up_proj.weight': ['BF16', [I, H]],
    'layers.0.mlp.down_proj.weight': ['BF16', [H, I]],
    'norm.weight': ['BF16', [H]],
  };
})();

// Deterministic bytes, different for every tensor name.
export const bytesFor = (name: string, length: number): Buffer => {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update(name).digest();
  for (let i = 0; i < length; i += block.length) {
    block.copy(out, i, 0, Math.min(block.length, length - i));
    block = createHash('sha256').update(block).digest();
  }
  return out;
};

export const drafterTensors = (keys: Record<string, [Dtype, number[]]> = SPECULATORS_KEYS): TensorData[] =>
  Object.entries(keys).map(([name, [dtype, shape]]) => ({
    name,
    dtype,
    shape,
    data: bytesFor(name, (shape.reduce((p, d) => p * d, 1) * DTYPE_BITS[dtype]) / 8),
  }));

export const speculatorsConfig = (): Record<string, unknown> => ({
  architectures: ['Eagle3DraftModel'],
  auto_map: { '': 'eagle3.Eagle3SpeculatorConfig' },
  draft_vocab_size: DIMS.Vd,
  eagle_aux_hidden_state_layer_ids: [2, 16, 29],
  norm_before_residual: false,
  speculators_config: {
    algorithm: 'eagle3',
    default_proposal_method: 'greedy',
    proposal_methods: [
      { accept_tolerance: 0.0, proposal_type: 'greedy', speculative_tokens: 3, verifier_accept_k: 1 },
    ],
    verifier: { architectures: ['LlamaForCausalLM'], name_or_path: 'meta-llama/Llama-3.1-8B-Instruct' },
  },
  speculators_model_type: 'eagle3',
  speculators_version: '0.7.0',
  target_hidden_size: null,
  torch_dtype: 'bfloat16',
  transformer_layer_config: {
    head_dim: DIMS.hd,
    hidden_act: 'silu',
    hidden_size: DIMS.H,
    intermediate_size: DIMS.I,
    max_position_embeddings: 2048,
    model_type: 'llama',
    num_attention_heads: DIMS.nh,
    num_hidden_layers: 1,
    num_key_value_heads: DIMS.nkv,
    rms_norm_eps: 1e-5,
    rope_theta: 10000.0,
    tie_word_embeddings: false,
    vocab_size: DIMS.V,
  },
});

// Writes model.safetensors + config.json into dir.
export const writeDrafter = async (dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true });
  await writeSafetensors(join(dir, 'model.safetensors'), drafterTensors(), { format: 'pt' });
  await writeFile(join(dir, 'config.json'), `${JSON.stringify(speculatorsConfig(), null, 2)}\n`);
};
