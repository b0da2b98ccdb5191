// Reads and validates a safetensors header exactly as the reference reader does (huggingface/safetensors,
// `SafeTensors::read_metadata` + `Metadata::validate`), from nothing but the first 8 + N bytes and the file's size.
import { DTYPE_BITS, isDtype, type Dtype } from './dtypes.ts';
import { CheckpointError, NOT_SAFETENSORS_HINT, type CheckpointProblem } from './errors.ts';
import type { ByteSource } from './source.ts';
import { topLevelKeys } from './json-keys.ts';

/** The reference reader refuses headers larger than this (MAX_HEADER_SIZE). */
export const MAX_HEADER_SIZE = 100_000_000;
const U64_MAX = (1n << 64n) - 1n;

export interface TensorInfo {
  name: string;
  dtype: Dtype;
  shape: number[];
  /** [begin, end) relative to the start of the data section. */
  dataOffsets: [number, number];
}

export interface SafetensorsHeader {
  /** N: the JSON header's length in bytes, padding included. */
  headerLength: number;
  /** 8 + N: where the data section starts in the file. */
  dataStart: number;
  /** The file's length in bytes. */
  fileSize: number;
  /** The tensors in the header's own order. */
  tensors: TensorInfo[];
  /** `__metadata__`, or null when the header has none. */
  metadata: Record<string, string> | null;
}

const fail = (problem: CheckpointProblem, name: string, message: string): CheckpointError =>
  new CheckpointError(problem, message, NOT_SAFETENSORS_HINT, name);

// Reads the 8-byte length, then the header, from a source; validates everything the reference reader does.
export const readHeader = async (source: ByteSource): Promise<SafetensorsHeader> => {
  const fileSize = await source.size();
  if (fileSize < 8) {
    throw fail(
      'HeaderTooSmall',
      source.name,
      `header too small: the file has ${fileSize} bytes, expected at least the 8-byte header length`,
    );
  }
  const lengthBytes = await source.read(0, 8);
  const headerLength = headerLengthOf(source.name, lengthBytes, fileSize);
  const json = await source.read(8, headerLength);
  return parseHeader(source.name, json, fileSize);
};

// Decodes and checks the u64 little-endian header length N against the limit and the file's size.
export const headerLengthOf = (name: string, lengthBytes: Uint8Array, fileSize: number): number => {
  const n = Buffer.from(lengthBytes.buffer, lengthBytes.byteOffset, 8).readBigUInt64LE(0);
  if (n > BigInt(MAX_HEADER_SIZE)) {
    throw fail(
      'HeaderTooLarge',
      name,
      `header too large: the first 8 bytes say the header has ${n} bytes, the limit is ${MAX_HEADER_SIZE}`,
    );
  }
  const length = Number(n);
  if (8 + length > fileSize) {
    throw fail(
      'InvalidHeaderLength',
      name,
      `invalid header length: the header claims ${length} bytes but the file has only ${fileSize - 8} after the length field`,
    );
  }
  return length;
};

// Validates the JSON header bytes (N of them) of a file of fileSize bytes.
export const parseHeader = (name: string, json: Uint8Array, fileSize: number): SafetensorsHeader => {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(json);
  } catch {
    throw fail('InvalidHeader', name, 'invalid UTF-8 in header: the JSON header must be UTF-8 text');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fail('InvalidHeaderDeserialization', name, `invalid JSON in header: ${reason}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw fail(
      'InvalidHeaderDeserialization',
      name,
      'invalid JSON in header: expected an object mapping tensor names to {dtype, shape, data_offsets}',
    );
  }
  const seen = new Set<string>();
  for (const key of topLevelKeys(text)) {
    if (seen.has(key)) {
      throw fail(
        'DuplicateName',
        name,
        `the header names ${JSON.stringify(key)} twice; every tensor name must be unique`,
      );
    }
    seen.add(key);
  }
  const record = raw as Record<string, unknown>;
  const metadata = metadataOf(name, record['__metadata__']);
  const tensors = Object.entries(record)
    .filter(([key]) => key !== '__metadata__')
    .map(([key, value]) => tensorOf(name, key, value));
  const dataEnd = validateLayout(name, tensors);
  const expected = 8 + json.length + dataEnd;
  if (expected !== fileSize) {
    throw fail(
      'MetadataIncompleteBuffer',
      name,
      `incomplete metadata, file not fully covered: the header describes ${expected} bytes but the file has ${fileSize} (${fileSize > expected ? 'trailing bytes' : 'truncated data'})`,
    );
  }
  return { headerLength: json.length, dataStart: 8 + json.length, fileSize, tensors, metadata };
};

const metadataOf = (name: string, value: unknown): Record<string, string> | null => {
  if (value === undefined || value === null) return null;
  const ok =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value as Record<string, unknown>).every((v) => typeof v === 'string');
  if (!ok) {
    throw fail(
      'InvalidHeaderDeserialization',
      name,
      `invalid JSON in header: __metadata__ must map strings to strings, got ${JSON.stringify(value).slice(0, 120)}`,
    );
  }
  return { ...(value as Record<string, string>) };
};

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

const tensorOf = (file: string, name: string, value: unknown): TensorInfo => {
  const bad = (what: string): CheckpointError =>
    fail(
      'InvalidHeaderDeserialization',
      file,
      `invalid JSON in header: tensor ${JSON.stringify(name)}: ${what}`,
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw bad('expected an object {dtype, shape, data_offsets}');
  }
  const entry = value as Record<string, unknown>;
  const { dtype, shape, data_offsets: offsets } = entry;
  if (!isDtype(dtype))
    throw bad(
      `unknown dtype ${JSON.stringify(dtype)}; expected one of ${Object.keys(DTYPE_BITS).join(', ')}`,
    );
  if (!Array.isArray(shape) || !shape.every(isCount)) {
    throw bad(`shape must be a list of non-negative integers, got ${JSON.stringify(shape)}`);
  }
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) {
    throw bad(`data_offsets must be [begin, end] with non-negative integers, got ${JSON.stringify(offsets)}`);
  }
  const numbers = [...shape, ...offsets];
  if (!numbers.every((n) => Number.isSafeInteger(n))) {
    throw fail(
      'ValidationOverflow',
      file,
      `overflow computing buffer size from shape and/or element type: tensor ${JSON.stringify(name)} has a dimension or offset above 2^53-1`,
    );
  }
  return {
    name,
    dtype,
    shape: [...shape],
    dataOffsets: [offsets[0] as number, offsets[1] as number],
  };
};

// Sorted by offsets, the tensors must tile [0, end) with no gap or overlap and each span its shape × dtype.
const validateLayout = (file: string, tensors: readonly TensorInfo[]): number => {
  const sorted = [...tensors].sort(
    (a, b) => a.dataOffsets[0] - b.dataOffsets[0] || a.dataOffsets[1] - b.dataOffsets[1],
  );
  let end = 0;
  for (const tensor of sorted) {
    const [begin, stop] = tensor.dataOffsets;
    if (begin !== end || stop < begin) {
      const what =
        stop < begin
          ? `ends (${stop}) before it begins (${begin})`
          : begin < end
            ? `begins at ${begin}, inside the previous tensor's data (which ends at ${end}): overlapping data`
            : `begins at ${begin} but the previous tensor ends at ${end}: a gap in the data`;
      throw fail(
        'InvalidOffset',
        file,
        `invalid offset for tensor ${JSON.stringify(tensor.name)}: it ${what}`,
      );
    }
    const elements = tensor.shape.reduce((product, dim) => product * BigInt(dim), 1n);
    const bits = elements * BigInt(DTYPE_BITS[tensor.dtype]);
    if (elements > U64_MAX || bits > U64_MAX) {
      throw fail(
        'ValidationOverflow',
        file,
        `overflow computing buffer size from shape and/or element type: tensor ${JSON.stringify(tensor.name)}`,
      );
    }
    if (bits % 8n !== 0n) {
      throw fail(
        'MisalignedSlice',
        file,
        `tensor ${JSON.stringify(tensor.name)} (${tensor.dtype} ${JSON.stringify(tensor.shape)}) does not end on a byte boundary`,
      );
    }
    const bytes = bits / 8n;
    if (BigInt(stop - begin) !== bytes) {
      throw fail(
        'TensorInvalidInfo',
        file,
        `invalid shape, data type, or offset for tensor ${JSON.stringify(tensor.name)}: ${tensor.dtype} ${JSON.stringify(tensor.shape)} needs ${bytes} bytes, data_offsets [${begin}, ${stop}] give ${stop - begin}`,
      );
    }
    end = stop;
  }
  return end;
};

// The bytes one tensor occupies.
export const tensorBytes = (tensor: TensorInfo): number => tensor.dataOffsets[1] - tensor.dataOffsets[0];
