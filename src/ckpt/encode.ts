// Writes safetensors headers and small files the way the reference writer does: `__metadata__` first, tensors
// in data order, the JSON padded with spaces to a multiple of 8 bytes so the data section starts aligned.
import { writeFileAtomic } from '../state/atomic-write.ts';
import { DTYPE_BITS, dtypeRank, type Dtype } from './dtypes.ts';
import { CheckpointError } from './errors.ts';
import { MAX_HEADER_SIZE, type TensorInfo } from './header.ts';

// The header's JSON text (unpadded).
export const headerJson = (
  tensors: readonly TensorInfo[],
  metadata: Readonly<Record<string, string>> | null,
): string => {
  const body: Record<string, unknown> = {};
  if (metadata !== null) body['__metadata__'] = metadata;
  const ordered = [...tensors].sort(
    (a, b) => a.dataOffsets[0] - b.dataOffsets[0] || a.dataOffsets[1] - b.dataOffsets[1],
  );
  const parts = ordered.map(
    (t) =>
      `${JSON.stringify(t.name)}:${JSON.stringify({ dtype: t.dtype, shape: t.shape, data_offsets: t.dataOffsets })}`,
  );
  const meta = metadata === null ? [] : [`"__metadata__":${JSON.stringify(metadata)}`];
  return `{${[...meta, ...parts].join(',')}}`;
};

// The 8-byte length plus the space-padded JSON; `length` forces N exactly (the in-place rename), else N is
// the JSON's length rounded up to a multiple of 8. Returns null when the JSON does not fit in `length`.
export const encodeHeader = (
  tensors: readonly TensorInfo[],
  metadata: Readonly<Record<string, string>> | null,
  length?: number,
): Buffer | null => {
  const json = Buffer.from(headerJson(tensors, metadata), 'utf8');
  const n = length ?? Math.ceil(json.length / 8) * 8;
  if (json.length > n) return null;
  if (n > MAX_HEADER_SIZE) {
    throw new CheckpointError(
      'HeaderTooLarge',
      `header too large: ${n} bytes, the safetensors limit is ${MAX_HEADER_SIZE}`,
      'shorten the tensor names or split the checkpoint into shards',
    );
  }
  const out = Buffer.alloc(8 + n, 0x20);
  out.writeBigUInt64LE(BigInt(n), 0);
  json.copy(out, 8);
  return out;
};

export interface TensorData {
  name: string;
  dtype: Dtype;
  shape: number[];
  data: Uint8Array;
}

// A whole safetensors file in memory (for small files: tests, fixtures); tensors are laid out in the
// reference order, largest dtype first, then by name.
export const serializeSafetensors = (
  tensors: readonly TensorData[],
  metadata: Readonly<Record<string, string>> | null = null,
): Buffer => {
  const ordered = [...tensors].sort(
    (a, b) => dtypeRank(b.dtype) - dtypeRank(a.dtype) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  let offset = 0;
  const infos: TensorInfo[] = ordered.map((t) => {
    const bytes = (t.shape.reduce((p, d) => p * d, 1) * DTYPE_BITS[t.dtype]) / 8;
    if (bytes !== t.data.length) {
      throw new CheckpointError(
        'TensorInvalidInfo',
        `tensor ${JSON.stringify(t.name)}: ${t.dtype} ${JSON.stringify(t.shape)} needs ${bytes} bytes, got ${t.data.length}`,
        'pass data whose length matches shape × dtype',
      );
    }
    const info: TensorInfo = {
      name: t.name,
      dtype: t.dtype,
      shape: t.shape,
      dataOffsets: [offset, offset + bytes],
    };
    offset += bytes;
    return info;
  });
  const header = encodeHeader(infos, metadata);
  if (header === null) throw new Error('unreachable: unforced header length always fits');
  return Buffer.concat([header, ...ordered.map((t) => t.data)]);
};

// Writes a small safetensors file atomically (temp file, fsync, rename).
export const writeSafetensors = async (
  path: string,
  tensors: readonly TensorData[],
  metadata: Readonly<Record<string, string>> | null = null,
): Promise<void> => {
  await writeFileAtomic(path, serializeSafetensors(tensors, metadata), { mode: 0o644 });
};
