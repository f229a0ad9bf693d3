// Data types of ONNX tensors: names and sizes in bits, including the types added
// after onnx-proto's ONNX 1.10 schema (float8 family, int4/uint4, float4). No DOM.

import type { DataTypeCode } from './ir';

interface DataTypeInfo {
  readonly name: string;
  readonly bits: number | undefined; // undefined: variable size (string)
}

/** TensorProto.DataType codes, by number, as of ONNX 1.18. */
const DATA_TYPES: Readonly<Record<number, DataTypeInfo>> = {
  1: { name: 'float32', bits: 32 },
  2: { name: 'uint8', bits: 8 },
  3: { name: 'int8', bits: 8 },
  4: { name: 'uint16', bits: 16 },
  5: { name: 'int16', bits: 16 },
  6: { name: 'int32', bits: 32 },
  7: { name: 'int64', bits: 64 },
  8: { name: 'string', bits: undefined },
  9: { name: 'bool', bits: 8 },
  10: { name: 'float16', bits: 16 },
  11: { name: 'float64', bits: 64 },
  12: { name: 'uint32', bits: 32 },
  13: { name: 'uint64', bits: 64 },
  14: { name: 'complex64', bits: 64 },
  15: { name: 'complex128', bits: 128 },
  16: { name: 'bfloat16', bits: 16 },
  17: { name: 'float8e4m3fn', bits: 8 },
  18: { name: 'float8e4m3fnuz', bits: 8 },
  19: { name: 'float8e5m2', bits: 8 },
  20: { name: 'float8e5m2fnuz', bits: 8 },
  21: { name: 'uint4', bits: 4 },
  22: { name: 'int4', bits: 4 },
  23: { name: 'float4e2m1', bits: 4 },
  24: { name: 'float8e8m0', bits: 8 },
  25: { name: 'uint2', bits: 2 },
  26: { name: 'int2', bits: 2 },
};

/** Well-known codes, for readability at call sites. */
export const DT = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  UINT16: 4,
  INT16: 5,
  INT32: 6,
  INT64: 7,
  STRING: 8,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
  UINT32: 12,
  UINT64: 13,
  BFLOAT16: 16,
  UINT4: 21,
  INT4: 22,
} as const;

/** The readable name of a data type code ('float32', 'int4', ...); 'dtype(N)' for unknown codes. */
export function dataTypeName(code: DataTypeCode | undefined): string {
  if (code === undefined) return '?';
  return DATA_TYPES[code]?.name ?? `dtype(${code})`;
}

/** Bits per element, or undefined for strings and unknown codes. */
export function dataTypeBits(code: DataTypeCode | undefined): number | undefined {
  if (code === undefined) return undefined;
  return DATA_TYPES[code]?.bits;
}

/** True when the code names a data type this version knows. */
export function isKnownDataType(code: DataTypeCode): boolean {
  return DATA_TYPES[code] !== undefined && code !== 0;
}

/**
 * Bytes of a tensor of `elements` elements: sub-byte types are packed and the
 * total rounded up per tensor (int4 × 3 = 2 bytes). Undefined for strings.
 */
export function tensorBytes(code: DataTypeCode | undefined, elements: number): number | undefined {
  const bits = dataTypeBits(code);
  if (bits === undefined) return undefined;
  return Math.ceil((elements * bits) / 8);
}
