// `vigil ckpt inspect`: what a checkpoint holds, read from headers only.
import { basename } from 'node:path';
import { readCheckpoint, type CheckpointReader } from './folder.ts';
import { tensorBytes } from './header.ts';
import { detectLayout } from './layout.ts';

export interface InspectReport {
  target: string;
  kind: 'file' | 'dir';
  layout: string;
  layout_label: string;
  layout_reasons: string[];
  files: {
    file: string;
    bytes: number;
    header_bytes: number;
    metadata: Record<string, string> | null;
    tensors: { name: string; dtype: string; shape: number[]; bytes: number; offsets: [number, number] }[];
  }[];
  index: { file: string; total_size: number | null; shards: number } | null;
  config: Record<string, unknown> | null;
  totals: { tensors: number; bytes: number; by_dtype: Record<string, number> };
}

const SUMMARY_KEYS = [
  'architectures',
  'model_type',
  'speculators_model_type',
  'hidden_size',
  'intermediate_size',
  'num_hidden_layers',
  'num_attention_heads',
  'num_key_value_heads',
  'head_dim',
  'vocab_size',
  'draft_vocab_size',
  'target_hidden_size',
  'torch_dtype',
  'dtype',
  'eagle_aux_hidden_state_layer_ids',
  'eagle_config',
  'norm_before_residual',
  'norm_before_fc',
  'fc_norm',
  'norm_output',
];

// The config fields that matter for a drafter (the layer fields may be nested in transformer_layer_config).
export const summarizeConfig = (config: Record<string, unknown>): Record<string, unknown> => {
  const nested = config['transformer_layer_config'];
  const layer =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested)
      ? (nested as Record<string, unknown>)
      : {};
  const out: Record<string, unknown> = {};
  for (const key of SUMMARY_KEYS) {
    if (config[key] !== undefined) out[key] = config[key];
    else if (layer[key] !== undefined) out[`transformer_layer_config.${key}`] = layer[key];
  }
  return out;
};

export const inspectCheckpoint = async (
  target: string,
  reader?: CheckpointReader,
): Promise<InspectReport> => {
  const checkpoint = await readCheckpoint(target, reader);
  const names = checkpoint.shards.flatMap((s) => s.header.tensors.map((t) => t.name));
  const guess = detectLayout(names, checkpoint.config?.json ?? null);
  const byDtype: Record<string, number> = {};
  let bytes = 0;
  const files = checkpoint.shards.map((shard) => ({
    file: shard.path,
    bytes: shard.header.fileSize,
    header_bytes: shard.header.headerLength,
    metadata: shard.header.metadata,
    tensors: [...shard.header.tensors]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((t) => {
        const size = tensorBytes(t);
        byDtype[t.dtype] = (byDtype[t.dtype] ?? 0) + size;
        bytes += size;
        return { name: t.name, dtype: t.dtype, shape: t.shape, bytes: size, offsets: t.dataOffsets };
      }),
  }));
  const totalSize = checkpoint.index?.json['metadata'];
  const total =
    totalSize !== null &&
    typeof totalSize === 'object' &&
    typeof (totalSize as Record<string, unknown>)['total_size'] === 'number'
      ? ((totalSize as Record<string, unknown>)['total_size'] as number)
      : null;
  return {
    target,
    kind: checkpoint.kind,
    layout: guess.layout,
    layout_label: guess.label,
    layout_reasons: guess.reasons,
    files,
    index:
      checkpoint.index === null
        ? null
        : { file: basename(checkpoint.index.path), total_size: total, shards: files.length },
    config: checkpoint.config === null ? null : summarizeConfig(checkpoint.config.json),
    totals: { tensors: names.length, bytes, by_dtype: byDtype },
  };
};
