// Element values of small numeric constant tensors, read from their little-endian raw
// bytes or their typed fields, for constant propagation in shape inference. No DOM.

import { DT, tensorBytes } from './dtype';
import type { IrTensor } from './ir';

/** Reads element `index` of little-endian bytes. */
type RawReader = (view: DataView, index: number) => number;

/** Element readers over raw bytes, by data type. */
const RAW_READERS: Readonly<Record<number, RawReader>> = {
  [DT.FLOAT]: (v, i) => v.getFloat32(i * 4, true),
  [DT.UINT8]: (v, i) => v.getUint8(i),
  [DT.INT8]: (v, i) => v.getInt8(i),
  [DT.UINT16]: (v, i) => v.getUint16(i * 2, true),
  [DT.INT16]: (v, i) => v.getInt16(i * 2, true),
  [DT.INT32]: (v, i) => v.getInt32(i * 4, true),
  [DT.INT64]: (v, i) => Number(v.getBigInt64(i * 8, true)),
  [DT.BOOL]: (v, i) => (v.getUint8(i) !== 0 ? 1 : 0),
  [DT.FLOAT16]: (v, i) => halfToNumber(v.getUint16(i * 2, true)),
  [DT.DOUBLE]: (v, i) => v.getFloat64(i * 8, true),
  [DT.UINT32]: (v, i) => v.getUint32(i * 4, true),
  [DT.UINT64]: (v, i) => Number(v.getBigUint64(i * 8, true)),
  [DT.BFLOAT16]: (v, i) => bfloat16ToNumber(v.getUint16(i * 2, true)),
  [DT.UINT4]: (v, i) => nibble(v.getUint8(i >> 1), i, false),
  [DT.INT4]: (v, i) => nibble(v.getUint8(i >> 1), i, true),
};

/**
 * The elements of a numeric tensor, row-major, as numbers (int64 values beyond
 * 2^53 lose precision). Undefined for strings, external data, types without a
 * reader here (float8, float4, complex), more than `limit` elements, or stored
 * data that does not match the dims.
 */
export function tensorValues(t: IrTensor, limit = 1 << 16): number[] | undefined {
  if (t.external !== undefined || t.strings !== undefined || t.dtype === DT.STRING) return undefined;
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (count > limit) return undefined;
  if (t.raw !== undefined && t.raw.byteLength > 0) return rawValues(t.raw, t.dtype, count);
  if (t.values !== undefined && t.values.length > 0) return fieldValues(t.values, t.dtype, count);
  return count === 0 ? [] : undefined;
}

function rawValues(raw: Uint8Array, dtype: number, count: number): number[] | undefined {
  const read = RAW_READERS[dtype];
  if (read === undefined || raw.byteLength !== tensorBytes(dtype, count)) return undefined;
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values = new Array<number>(count);
  for (let i = 0; i < count; i++) values[i] = read(view, i);
  return values;
}

/**
 * Values from the typed fields. float16 and bfloat16 arrive as bit patterns in
 * int32_data, and int4/uint4 packed two to an int32_data entry, as ONNX stores them.
 */
function fieldValues(stored: readonly number[] | readonly bigint[], dtype: number, count: number): number[] | undefined {
  const numbers = Array.from(stored as readonly (number | bigint)[], Number);
  switch (dtype) {
    case DT.FLOAT16:
      return numbers.length === count ? numbers.map(halfToNumber) : undefined;
    case DT.BFLOAT16:
      return numbers.length === count ? numbers.map(bfloat16ToNumber) : undefined;
    case DT.BOOL:
      return numbers.length === count ? numbers.map((x) => (x !== 0 ? 1 : 0)) : undefined;
    case DT.INT4:
    case DT.UINT4: {
      if (numbers.length !== Math.ceil(count / 2)) return undefined;
      return Array.from({ length: count }, (_, i) => nibble((numbers[i >> 1] ?? 0) & 0xff, i, dtype === DT.INT4));
    }
    default:
      return RAW_READERS[dtype] !== undefined && numbers.length === count ? numbers : undefined;
  }
}

/** Element `index` of a byte holding two 4-bit values, the first in the low nibble. */
function nibble(byte: number, index: number, signed: boolean): number {
  const value = index % 2 === 0 ? byte & 0x0f : byte >> 4;
  return signed && value >= 8 ? value - 16 : value;
}

/** IEEE 754 half-precision bits -> number. */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : Number.NaN;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

const bfloatScratch = new DataView(new ArrayBuffer(4));

/** bfloat16 bits (the upper half of a float32) -> number. */
export function bfloat16ToNumber(bits: number): number {
  bfloatScratch.setUint32(0, (bits & 0xffff) << 16, true);
  return bfloatScratch.getFloat32(0, true);
}
