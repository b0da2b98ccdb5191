// Malformed safetensors files, one per rule of the reference reader (huggingface/safetensors tensor.rs tests
// and Metadata::validate), with the problem vigil must name.
import type { CheckpointProblem } from '../../src/ckpt/errors.ts';

// 8-byte little-endian length + header text (as given, no padding) + data.
export const raw = (header: string | Buffer, data: Buffer = Buffer.alloc(0), length?: bigint): Buffer => {
  const body = typeof header === 'string' ? Buffer.from(header, 'utf8') : header;
  const n = Buffer.alloc(8);
  n.writeBigUInt64LE(length ?? BigInt(body.length));
  return Buffer.concat([n, body, data]);
};

const t = (dtype: string, shape: (number | string)[], offsets: [number, number]): string =>
  `{"dtype":"${dtype}","shape":[${shape.join(',')}],"data_offsets":[${offsets.join(',')}]}`;

export interface MalformedCase {
  name: string;
  bytes: Buffer;
  problem: CheckpointProblem;
  /** Part of the message the user sees. */
  says: string;
}

export const MALFORMED: MalformedCase[] = [
  { name: 'empty file', bytes: Buffer.alloc(0), problem: 'HeaderTooSmall', says: 'header too small' },
  {
    name: 'seven bytes',
    bytes: Buffer.from('\x07\0\0\0\0\0\0', 'latin1'),
    problem: 'HeaderTooSmall',
    says: 'at least the 8-byte',
  },
  {
    name: 'header longer than the file',
    bytes: Buffer.from('<\0\0\0\0\0\0\0', 'latin1'),
    problem: 'InvalidHeaderLength',
    says: 'invalid header length',
  },
  {
    name: 'header over 100 MB',
    bytes: Buffer.from('<\0\0\0\0\xff\xff\xff', 'latin1'),
    problem: 'HeaderTooLarge',
    says: 'the limit is 100000000',
  },
  {
    name: 'header just over the limit',
    bytes: raw('{}', Buffer.alloc(0), 100_000_001n),
    problem: 'HeaderTooLarge',
    says: 'header too large',
  },
  {
    name: 'non-UTF-8 header',
    bytes: raw(Buffer.from([0xff])),
    problem: 'InvalidHeader',
    says: 'invalid UTF-8',
  },
  { name: 'truncated JSON', bytes: raw('{'), problem: 'InvalidHeaderDeserialization', says: 'invalid JSON' },
  {
    name: 'JSON array',
    bytes: raw('[]      '),
    problem: 'InvalidHeaderDeserialization',
    says: 'expected an object',
  },
  {
    name: 'unknown dtype',
    bytes: raw(`{"a":${t('F17', [1], [0, 4])}}`, Buffer.alloc(4)),
    problem: 'InvalidHeaderDeserialization',
    says: 'unknown dtype "F17"',
  },
  {
    name: 'negative dimension',
    bytes: raw(`{"a":${t('F32', [-1], [0, 4])}}`, Buffer.alloc(4)),
    problem: 'InvalidHeaderDeserialization',
    says: 'non-negative integers',
  },
  {
    name: 'three offsets',
    bytes: raw(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}}`, Buffer.alloc(4)),
    problem: 'InvalidHeaderDeserialization',
    says: 'data_offsets must be [begin, end]',
  },
  {
    name: 'tensor entry not an object',
    bytes: raw('{"a":3}'),
    problem: 'InvalidHeaderDeserialization',
    says: 'expected an object {dtype',
  },
  {
    name: 'metadata with a number value',
    bytes: raw('{"__metadata__":{"format":1}}'),
    problem: 'InvalidHeaderDeserialization',
    says: '__metadata__ must map strings to strings',
  },
  {
    name: 'metadata that is a list',
    bytes: raw('{"__metadata__":["pt"]}'),
    problem: 'InvalidHeaderDeserialization',
    says: '__metadata__ must map strings to strings',
  },
  {
    name: 'size does not match shape × dtype',
    bytes: raw(`{"a":${t('I32', [2, 2], [0, 4])}}`, Buffer.alloc(4)),
    problem: 'TensorInvalidInfo',
    says: 'needs 16 bytes',
  },
  {
    name: 'shape overflows u64',
    bytes: raw(`{"a":${t('I32', [2, '18446744073709551614'], [0, 16])}}`, Buffer.alloc(16)),
    problem: 'ValidationOverflow',
    says: 'overflow',
  },
  {
    name: 'shape product overflows u64',
    bytes: raw(`{"a":${t('F64', [4294967296, 4294967296], [0, 0])}}`),
    problem: 'ValidationOverflow',
    says: 'overflow',
  },
  {
    name: 'overlapping data (ten tensors at [0,16])',
    bytes: raw(
      `{${Array.from({ length: 10 }, (_, i) => `"w${i}":${t('F32', [4], [0, 16])}`).join(',')}}`,
      Buffer.alloc(16),
    ),
    problem: 'InvalidOffset',
    says: 'overlapping data',
  },
  {
    name: 'a gap between tensors',
    bytes: raw(`{"a":${t('F32', [1], [0, 4])},"b":${t('F32', [1], [8, 12])}}`, Buffer.alloc(12)),
    problem: 'InvalidOffset',
    says: 'a gap in the data',
  },
  {
    name: 'data not starting at 0',
    bytes: raw(`{"a":${t('F32', [1], [4, 8])}}`, Buffer.alloc(8)),
    problem: 'InvalidOffset',
    says: 'a gap in the data',
  },
  {
    name: 'end before begin',
    bytes: raw(`{"a":${t('F32', [0], [0, 0])},"b":${t('F32', [1], [4, 0])}}`, Buffer.alloc(4)),
    problem: 'InvalidOffset',
    says: 'before it begins',
  },
  {
    name: 'sub-byte tensor',
    bytes: raw(`{"a":${t('F4', [3], [0, 2])}}`, Buffer.alloc(2)),
    problem: 'MisalignedSlice',
    says: 'byte boundary',
  },
  {
    name: 'trailing bytes',
    bytes: raw(`{"a":${t('F32', [1], [0, 4])}}`, Buffer.alloc(6)),
    problem: 'MetadataIncompleteBuffer',
    says: 'trailing bytes',
  },
  {
    name: 'truncated data',
    bytes: raw(`{"a":${t('F32', [4], [0, 16])}}`, Buffer.alloc(14)),
    problem: 'MetadataIncompleteBuffer',
    says: 'truncated data',
  },
  {
    name: 'duplicate tensor name',
    bytes: raw(`{"a":${t('F32', [1], [0, 4])},"a":${t('F32', [1], [4, 8])}}`, Buffer.alloc(8)),
    problem: 'DuplicateName',
    says: 'names "a" twice',
  },
];

// Files the reference reader accepts.
export const VALID: { name: string; bytes: Buffer; tensors: number }[] = [
  { name: 'empty header padded with spaces', bytes: raw('{}      '), tensors: 0 },
  { name: 'leading whitespace', bytes: raw(`  {"a":${t('F32', [1], [0, 4])}}`, Buffer.alloc(4)), tensors: 1 },
  { name: 'empty tensor', bytes: raw(`{"a":${t('F32', [2, 0], [0, 0])}}`), tensors: 1 },
  { name: 'scalar (rank 0)', bytes: raw(`{"a":${t('F32', [], [0, 4])}}`, Buffer.alloc(4)), tensors: 1 },
  {
    name: 'tensors listed out of data order',
    bytes: raw(`{"b":${t('U8', [2], [2, 4])},"a":${t('U8', [2], [0, 2])}}`, Buffer.alloc(4)),
    tensors: 2,
  },
  {
    name: 'null metadata',
    bytes: raw(`{"__metadata__":null,"a":${t('F32', [1], [0, 4])}}`, Buffer.alloc(4)),
    tensors: 1,
  },
];
