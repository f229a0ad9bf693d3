// Tensor encoding for the test-utility ONNX writer: data type names, and numbers ->
// TensorProto (little-endian raw_data or the typed repeated fields). Test utility.

import type { onnx as Onnx } from 'onnx-proto';
import { DT, dataTypeName, isKnownDataType, tensorBytes } from '../dtype';

/** A data type by name ('float32', 'int64', 'float16', 'int4', ... as in dtype.ts) or by ONNX code. */
export type DTypeSpec = string | number;

const CODES: ReadonlyMap<string, number> = new Map(
  Array.from({ length: 64 }, (_, code) => code)
    .filter((code) => isKnownDataType(code))
    .map((code) => [dataTypeName(code), code]),
);

/** The ONNX code of a data type given by name or code; throws for unknown names. */
export function dtypeCode(dtype: DTypeSpec): number {
  if (typeof dtype === 'number') return dtype;
  const code = CODES.get(dtype) ?? (dtype === 'float' ? DT.FLOAT : dtype === 'double' ? DT.DOUBLE : undefined);
  if (code === undefined) throw new Error(`onnx-writer: unknown data type '${dtype}' (known: ${[...CODES.keys()].join(', ')})`);
  return code;
}

/**
 * A tensor's data: numbers (or bigints for int64/uint64), raw little-endian bytes
 * as they go into raw_data, or strings for a string tensor. Left out, the tensor
 * is filled with zeros (empty strings for a string tensor).
 */
export type TensorData = readonly (number | bigint)[] | Uint8Array | readonly string[];

/** How a tensor stores its data in the file. */
export interface TensorStorage {
  /** 'raw' (default): raw_data bytes; 'fields': the typed repeated fields (float_data, int64_data...). */
  readonly storage?: 'raw' | 'fields';
  /** Mark the tensor as external data: its bytes live in `location`, not in the model file. */
  readonly external?: { readonly location: string; readonly offset?: number; readonly length?: number };
}

/** Builds a TensorProto. */
export function tensorProto(
  name: string,
  dtype: DTypeSpec,
  dims: readonly number[],
  data: TensorData | undefined,
  storage: TensorStorage = {},
): Onnx.ITensorProto {
  const code = dtypeCode(dtype);
  const proto: Onnx.ITensorProto = { name, dataType: code, dims: [...dims] };
  const count = dims.reduce((a, b) => a * b, 1);
  if (storage.external !== undefined) {
    const { location, offset, length } = storage.external;
    const entries: [string, number | string | undefined][] = [['location', location], ['offset', offset], ['length', length]];
    proto.dataLocation = 1;
    proto.externalData = entries.filter(([, v]) => v !== undefined).map(([key, value]) => ({ key, value: String(value) }));
    return proto;
  }
  if (code === DT.STRING) {
    const strings = (data as readonly string[] | undefined) ?? Array.from({ length: count }, () => '');
    proto.stringData = strings.map((s) => new TextEncoder().encode(s));
    return proto;
  }
  if (data instanceof Uint8Array) {
    proto.rawData = data;
    return proto;
  }
  if (data !== undefined && data.some((v) => typeof v === 'string')) {
    throw new Error(`onnx-writer: tensor '${name}' of type ${dataTypeName(code)} was given strings`);
  }
  const values = (data as readonly (number | bigint)[] | undefined) ?? new Array<number>(count).fill(0);
  if (storage.storage === 'fields') Object.assign(proto, typedFields(code, values));
  else proto.rawData = rawBytes(code, values, count);
  return proto;
}

/** Little-endian raw bytes of `values`. */
export function rawBytes(code: number, values: readonly (number | bigint)[], count = values.length): Uint8Array {
  const byteLength = tensorBytes(code, count);
  if (byteLength === undefined) throw new Error(`onnx-writer: data type ${dataTypeName(code)} has no fixed size`);
  const bytes = new Uint8Array(byteLength);
  const view = new DataView(bytes.buffer);
  const write = RAW_WRITERS[code];
  if (write === undefined) {
    if (values.every((v) => Number(v) === 0)) return bytes;
    throw new Error(`onnx-writer: pass ${dataTypeName(code)} data as raw bytes (a Uint8Array)`);
  }
  values.forEach((v, i) => write(view, i, v));
  return bytes;
}

type RawWriter = (view: DataView, index: number, value: number | bigint) => void;

const RAW_WRITERS: Readonly<Record<number, RawWriter>> = {
  [DT.FLOAT]: (v, i, x) => v.setFloat32(i * 4, Number(x), true),
  [DT.UINT8]: (v, i, x) => v.setUint8(i, Number(x)),
  [DT.INT8]: (v, i, x) => v.setInt8(i, Number(x)),
  [DT.UINT16]: (v, i, x) => v.setUint16(i * 2, Number(x), true),
  [DT.INT16]: (v, i, x) => v.setInt16(i * 2, Number(x), true),
  [DT.INT32]: (v, i, x) => v.setInt32(i * 4, Number(x), true),
  [DT.INT64]: (v, i, x) => v.setBigInt64(i * 8, toInt64(x), true),
  [DT.BOOL]: (v, i, x) => v.setUint8(i, Number(x) !== 0 ? 1 : 0),
  [DT.FLOAT16]: (v, i, x) => v.setUint16(i * 2, numberToHalf(Number(x)), true),
  [DT.DOUBLE]: (v, i, x) => v.setFloat64(i * 8, Number(x), true),
  [DT.UINT32]: (v, i, x) => v.setUint32(i * 4, Number(x), true),
  [DT.UINT64]: (v, i, x) => v.setBigUint64(i * 8, toUint64(x), true),
  [DT.BFLOAT16]: (v, i, x) => v.setUint16(i * 2, numberToBfloat16(Number(x)), true),
  [DT.UINT4]: (v, i, x) => setNibble(v, i, Number(x)),
  [DT.INT4]: (v, i, x) => setNibble(v, i, Number(x)),
};

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** A number or bigint as an int64, numbers past the int64 range clamped (INT64_MAX for Slice ends). */
function toInt64(x: number | bigint): bigint {
  if (typeof x === 'bigint') return x;
  if (x >= 2 ** 63) return INT64_MAX;
  if (x < -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(x));
}

function toUint64(x: number | bigint): bigint {
  if (typeof x === 'bigint') return BigInt.asUintN(64, x);
  return x >= 2 ** 64 ? 2n ** 64n - 1n : BigInt(Math.max(0, Math.trunc(x)));
}

function setNibble(view: DataView, index: number, value: number): void {
  const byte = view.getUint8(index >> 1);
  const bits = value & 0x0f;
  view.setUint8(index >> 1, index % 2 === 0 ? (byte & 0xf0) | bits : (byte & 0x0f) | (bits << 4));
}

const scratch = new DataView(new ArrayBuffer(4));

/** number -> IEEE half-precision bits, rounding to nearest even. */
export function numberToHalf(x: number): number {
  scratch.setFloat32(0, x, true);
  const f = scratch.getUint32(0, true);
  const sign = (f >>> 16) & 0x8000;
  const exponent = (f >>> 23) & 0xff;
  const mantissa = f & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    const half = m >> shift;
    const rest = m & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mantissa >> 13);
  const rest = mantissa & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/** number -> bfloat16 bits (the upper half of the float32), rounding to nearest even. */
export function numberToBfloat16(x: number): number {
  scratch.setFloat32(0, x, true);
  const f = scratch.getUint32(0, true);
  if (Number.isNaN(x)) return 0x7fc0;
  const rounded = f + 0x7fff + ((f >>> 16) & 1);
  return (rounded >>> 16) & 0xffff;
}

/** The typed repeated fields holding `values`, as ONNX stores each data type. */
function typedFields(code: number, values: readonly (number | bigint)[]): Partial<Onnx.ITensorProto> {
  const numbers = values.map(Number);
  switch (code) {
    case DT.FLOAT:
      return { floatData: numbers };
    case DT.DOUBLE:
      return { doubleData: numbers };
    case DT.INT64:
      return { int64Data: values.map((v) => int64Field(v)) };
    case DT.UINT32:
    case DT.UINT64:
      return { uint64Data: values.map((v) => int64Field(BigInt.asIntN(64, toUint64(v)))) };
    case DT.FLOAT16:
      return { int32Data: numbers.map(numberToHalf) };
    case DT.BFLOAT16:
      return { int32Data: numbers.map(numberToBfloat16) };
    case DT.INT4:
    case DT.UINT4:
      return { int32Data: Array.from({ length: Math.ceil(numbers.length / 2) }, (_, i) => packPair(numbers, i)) };
    default:
      return { int32Data: numbers };
  }
}

function packPair(numbers: readonly number[], pair: number): number {
  return ((numbers[2 * pair] ?? 0) & 0x0f) | (((numbers[2 * pair + 1] ?? 0) & 0x0f) << 4);
}

/**
 * An integer for an int64 protobuf field: safe integers as they are, anything
 * larger (INT64_MAX for Slice ends...) as the exact bits, clamped to the int64 range.
 */
export function int64Field(value: number | bigint): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return longBits(toInt64(value)) as unknown as number;
}

/** A 64-bit integer as the {low, high} pair protobufjs writes for int64/uint64 fields. */
function longBits(value: bigint): { low: number; high: number } {
  const bits = BigInt.asUintN(64, value);
  return { low: Number(bits & 0xffffffffn) | 0, high: Number(bits >> 32n) | 0 };
}
