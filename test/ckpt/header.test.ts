// The safetensors reader and writer: round trips, the reference reader's rejections, and reads that stay
// inside the header.
import { describe, expect, it } from 'vitest';
import { DTYPES, DTYPE_BITS } from '../../src/ckpt/dtypes.ts';
import { encodeHeader, serializeSafetensors, type TensorData } from '../../src/ckpt/encode.ts';
import { CheckpointError } from '../../src/ckpt/errors.ts';
import { readHeader } from '../../src/ckpt/header.ts';
import { bytesSource, type ByteSource } from '../../src/ckpt/source.ts';
import { bytesFor, drafterTensors } from './drafter.ts';
import { MALFORMED, VALID } from './malformed.ts';

const problemOf = async (bytes: Buffer): Promise<CheckpointError> => {
  try {
    await readHeader(bytesSource('f.safetensors', bytes));
  } catch (error) {
    if (error instanceof CheckpointError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
};

describe('safetensors round trip', () => {
  it('reads back every name, dtype, shape, offset and the metadata; data is where the offsets say', async () => {
    const tensors = drafterTensors();
    const file = serializeSafetensors(tensors, { format: 'pt' });
    const header = await readHeader(bytesSource('f', file));
    expect(header.metadata).toEqual({ format: 'pt' });
    expect(header.headerLength % 8).toBe(0);
    expect(header.tensors.map((t) => t.name).sort()).toEqual(tensors.map((t) => t.name).sort());
    for (const t of tensors) {
      const info = header.tensors.find((h) => h.name === t.name)!;
      expect(info.dtype).toBe(t.dtype);
      expect(info.shape).toEqual(t.shape);
      const [begin, end] = info.dataOffsets;
      expect(
        file.subarray(header.dataStart + begin, header.dataStart + end).equals(Buffer.from(t.data)),
      ).toBe(true);
    }
  });

  it('lays tensors out like the reference writer: larger dtypes first, then by name', async () => {
    const tensors: TensorData[] = [
      { name: 'b', dtype: 'U8', shape: [1], data: Buffer.alloc(1) },
      { name: 'a', dtype: 'U8', shape: [1], data: Buffer.alloc(1) },
      { name: 'z', dtype: 'F64', shape: [1], data: Buffer.alloc(8) },
    ];
    const header = await readHeader(bytesSource('f', serializeSafetensors(tensors)));
    const byOffset = [...header.tensors]
      .sort((x, y) => x.dataOffsets[0] - y.dataOffsets[0])
      .map((t) => t.name);
    expect(byOffset).toEqual(['z', 'a', 'b']);
  });

  it('round-trips every dtype', async () => {
    const tensors = DTYPES.map((dtype) => ({
      name: `t_${dtype}`,
      dtype,
      shape: [8],
      data: bytesFor(dtype, DTYPE_BITS[dtype]),
    }));
    const header = await readHeader(bytesSource('f', serializeSafetensors(tensors)));
    expect(header.tensors.map((t) => t.dtype).sort()).toEqual([...DTYPES].sort());
  });

  it('pads a forced header length with spaces and refuses one that is too short', () => {
    const tensors = [
      { name: 'a', dtype: 'F32' as const, shape: [1], dataOffsets: [0, 4] as [number, number] },
    ];
    const padded = encodeHeader(tensors, null, 64)!;
    expect(padded.length).toBe(72);
    expect(padded.readBigUInt64LE(0)).toBe(64n);
    expect(padded.toString('utf8', 8).trimEnd()).toBe(
      '{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}',
    );
    expect(encodeHeader(tensors, null, 16)).toBeNull();
  });
});

describe('malformed files are refused with the reference reader’s reason', () => {
  for (const c of MALFORMED) {
    it(c.name, async () => {
      const error = await problemOf(c.bytes);
      expect(error.problem).toBe(c.problem);
      expect(error.code).toBe('E_CKPT');
      expect(error.message).toContain(c.says);
      expect(error.message).toContain('f.safetensors');
      expect(error.hint).toMatch(/left it untouched/);
    });
  }
});

describe('files the reference reader accepts', () => {
  for (const c of VALID) {
    it(c.name, async () => {
      const header = await readHeader(bytesSource('f', c.bytes));
      expect(header.tensors).toHaveLength(c.tensors);
    });
  }
});

describe('header reads stay inside the first 8 + N bytes', () => {
  it('never asks the source for tensor data', async () => {
    const file = serializeSafetensors([
      { name: 'big', dtype: 'U8', shape: [1 << 20], data: Buffer.alloc(1 << 20) },
    ]);
    const reads: [number, number][] = [];
    const inner = bytesSource('f', file);
    const counting: ByteSource = {
      name: 'f',
      size: () => inner.size(),
      read: (offset, length) => {
        reads.push([offset, length]);
        return inner.read(offset, length);
      },
    };
    const header = await readHeader(counting);
    const furthest = Math.max(...reads.map(([o, l]) => o + l));
    expect(furthest).toBe(header.dataStart);
  });
});
