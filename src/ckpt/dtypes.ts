// The safetensors element types and their sizes in bits, in the reference implementation's enum order
// (the writer sorts tensors by this order, largest first).
export const DTYPE_BITS = {
  BOOL: 8,
  F4: 4,
  F6_E2M3: 6,
  F6_E3M2: 6,
  U8: 8,
  I8: 8,
  F8_E5M2: 8,
  F8_E4M3: 8,
  F8_E8M0: 8,
  F8_E4M3FNUZ: 8,
  F8_E5M2FNUZ: 8,
  I16: 16,
  U16: 16,
  F16: 16,
  BF16: 16,
  I32: 32,
  U32: 32,
  F32: 32,
  C64: 64,
  F64: 64,
  I64: 64,
  U64: 64,
} as const;

export type Dtype = keyof typeof DTYPE_BITS;

export const DTYPES = Object.keys(DTYPE_BITS) as Dtype[];

export const isDtype = (value: unknown): value is Dtype =>
  typeof value === 'string' && Object.hasOwn(DTYPE_BITS, value);

// The position of a dtype in the reference enum: the writer puts higher positions first.
export const dtypeRank = (dtype: Dtype): number => DTYPES.indexOf(dtype);
