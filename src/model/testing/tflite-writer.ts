// A small TensorFlow Lite writer for tests: describe subgraphs (tensors,
// operators with their builtin options), metadata and a description in code,
// get the bytes of a TFL3 flatbuffer built with the `flatbuffers` runtime's
// Builder and the field indices of ../tflite/schema.ts. Test utility; no DOM.
//
// Example:
//
//   const bytes = writeTflite({ subgraphs: [{
//     tensors: [{ shape: [1, 4], type: 'INT8' }, { shape: [4, 4], type: 'INT8', data: new Uint8Array(16) }, { shape: [1, 4], type: 'INT8' }],
//     inputs: [0], outputs: [2],
//     operators: [{ op: 'FULLY_CONNECTED', inputs: [0, 1], outputs: [2] }],
//   }] });
//
// Buffer 0 is the empty buffer, as in every converted file; each tensor with
// `data` gets a buffer of its own (data 16-byte aligned, as the converter
// writes it), then each metadata entry. A tensor's data may instead follow the
// flatbuffer, named by the buffer's offset and size, as in files over 2 GiB.
// Fields that name indices (`buffer`, `opcodeIndex`) can be overridden to
// build damaged models.

import { Builder } from 'flatbuffers';
import { BUILTIN_OPERATORS, FIELD, OP, TENSOR_TYPES } from '../tflite/schema';

/** Per-tensor or per-axis quantization. */
export interface TfliteQuantizationSpec {
  readonly scale: readonly number[];
  readonly zeroPoint: readonly number[];
  readonly axis?: number; // quantized_dimension
}

/** One tensor of a subgraph. */
export interface TfliteTensorSpec {
  readonly shape: readonly number[];
  readonly type?: string | number; // TensorType name ('INT8') or code; default FLOAT32
  readonly name?: string; // default t<index>
  readonly data?: Uint8Array; // a constant: a buffer of its own holds these bytes
  readonly storage?: 'inline' | 'external' | 'both'; // where `data` is: in the buffer (default), after the flatbuffer, or both
  readonly buffer?: number; // the buffer index written instead (damaged models)
  readonly variable?: boolean;
  readonly signature?: readonly number[]; // shape_signature (-1: an open dim)
  readonly quantization?: TfliteQuantizationSpec;
}

/** A builtin options table: its union type byte and its scalar fields. */
export interface TfliteOptionsSpec {
  readonly type: number; // the BuiltinOptions union's type byte
  readonly fields: readonly (readonly [index: number, value: number, width?: 1 | 4])[];
}

/** One operator. */
export interface TfliteOperatorSpec {
  readonly op: string | number; // builtin name ('CONV_2D') or code; with `custom`, the custom code
  readonly custom?: boolean;
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly intermediates?: readonly number[];
  readonly options?: TfliteOptionsSpec;
  readonly customOptions?: Uint8Array; // a custom operator's options (a FlexBuffer, as the converter writes them)
  readonly opcodeIndex?: number; // written instead of its operator code's index (damaged models)
}

export interface TfliteSubgraphSpec {
  readonly name?: string;
  readonly tensors: readonly TfliteTensorSpec[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly operators: readonly TfliteOperatorSpec[];
}

export interface TfliteModelSpec {
  readonly subgraphs: readonly TfliteSubgraphSpec[];
  readonly metadata?: readonly { readonly name: string; readonly data: Uint8Array }[];
  readonly description?: string;
  readonly version?: number; // schema version; default 3
}

/** BuiltinOptions union type bytes of the options the decoder reads for calls. */
export const OPTIONS_TYPE = { SVDFOptions: 6, IfOptions: 92, WhileOptions: 93, CallOnceOptions: 103 } as const;

export const ifOptions = (then: number, otherwise: number): TfliteOptionsSpec => ({ type: OPTIONS_TYPE.IfOptions, fields: [[0, then], [1, otherwise]] });
export const whileOptions = (cond: number, body: number): TfliteOptionsSpec => ({ type: OPTIONS_TYPE.WhileOptions, fields: [[0, cond], [1, body]] });
export const callOnceOptions = (init: number): TfliteOptionsSpec => ({ type: OPTIONS_TYPE.CallOnceOptions, fields: [[0, init]] });
export const svdfOptions = (rank: number): TfliteOptionsSpec => ({ type: OPTIONS_TYPE.SVDFOptions, fields: [[0, rank], [1, 0, 1]] });

/** Little-endian bytes of float32 values, for a constant's `data`. */
export function float32Data(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(4 * values.length);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(4 * i, v, true));
  return out;
}

/** The model's bytes (a fresh array the caller owns). */
export function writeTflite(spec: TfliteModelSpec): Uint8Array {
  // External data's offsets are known once the flatbuffer's length is: build it, then again with them (same length).
  const first = build(spec, () => 0);
  if (first.datas.every((d) => d.storage === 'inline')) return first.flatbuffer;
  let end = align16(first.flatbuffer.length);
  const at: number[] = [];
  for (const d of first.datas) {
    at.push(d.storage === 'inline' ? 0 : end);
    if (d.storage !== 'inline') end = align16(end + d.data.byteLength);
  }
  const { flatbuffer } = build(spec, (i) => at[i]!);
  const out = new Uint8Array(end);
  out.set(flatbuffer);
  first.datas.forEach((d, i) => d.storage !== 'inline' && out.set(d.data, at[i]!));
  return out;
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** One buffer's data and where it is kept. */
interface BufferData {
  readonly data: Uint8Array;
  readonly storage: 'inline' | 'external' | 'both';
}

/** The flatbuffer, with `offsetOf(i)` as the file offset of buffer i + 1's external data. */
function build(spec: TfliteModelSpec, offsetOf: (i: number) => number): { flatbuffer: Uint8Array; datas: BufferData[] } {
  const b = new Builder(1024);
  const codes = operatorCodes(spec.subgraphs);
  const datas: BufferData[] = [];
  const subgraphs = spec.subgraphs.map((sg) => writeSubgraph(b, sg, codes, datas));
  const metadata = (spec.metadata ?? []).map((m) => {
    const name = b.createString(m.name);
    datas.push({ data: m.data, storage: 'inline' });
    return table(b, 2, () => {
      b.addFieldOffset(FIELD.metadata.name, name, 0);
      b.addFieldInt32(FIELD.metadata.buffer, datas.length, null);
    });
  });
  const buffers = [table(b, 1, () => undefined), ...datas.map((d, i) => writeBuffer(b, d, offsetOf(i)))];
  const codeTables = codes.list.map((c) => writeOperatorCode(b, c));
  const description = b.createString(spec.description ?? 'heapscope tflite-writer');
  const M = FIELD.model;
  const vectors = {
    codes: offsets(b, codeTables),
    subgraphs: offsets(b, subgraphs),
    buffers: offsets(b, buffers),
    metadata: spec.metadata === undefined ? 0 : offsets(b, metadata),
  };
  const root = table(b, 8, () => {
    b.addFieldInt32(M.version, spec.version ?? 3, null);
    b.addFieldOffset(M.operatorCodes, vectors.codes, 0);
    b.addFieldOffset(M.subgraphs, vectors.subgraphs, 0);
    b.addFieldOffset(M.description, description, 0);
    b.addFieldOffset(M.buffers, vectors.buffers, 0);
    if (vectors.metadata !== 0) b.addFieldOffset(M.metadata, vectors.metadata, 0);
  });
  b.finish(root, 'TFL3');
  return { flatbuffer: b.asUint8Array().slice(), datas };
}

interface OperatorCodeSpec {
  readonly code: number;
  readonly custom: string | undefined;
}

/** The distinct operator codes of all subgraphs, in order of first use, and each operator's index into them. */
function operatorCodes(subgraphs: readonly TfliteSubgraphSpec[]): { list: OperatorCodeSpec[]; index: (op: TfliteOperatorSpec) => number } {
  const list: OperatorCodeSpec[] = [];
  const keys: string[] = [];
  const keyOf = (op: TfliteOperatorSpec): OperatorCodeSpec => {
    if (op.custom) return { code: OP.CUSTOM, custom: String(op.op) };
    const code = typeof op.op === 'number' ? op.op : BUILTIN_OPERATORS.indexOf(op.op);
    if (code < 0) throw new Error(`tflite-writer: unknown builtin operator ${op.op}`);
    return { code, custom: undefined };
  };
  const index = (op: TfliteOperatorSpec): number => {
    const c = keyOf(op);
    const key = `${c.code}:${c.custom ?? ''}`;
    let at = keys.indexOf(key);
    if (at < 0) {
      at = keys.push(key) - 1;
      list.push(c);
    }
    return at;
  };
  for (const sg of subgraphs) for (const op of sg.operators) index(op);
  return { list, index };
}

function writeOperatorCode(b: Builder, c: OperatorCodeSpec): number {
  const F = FIELD.operatorCode;
  const custom = c.custom === undefined ? 0 : b.createString(c.custom);
  return table(b, 4, () => {
    // Codes past 127 do not fit the deprecated byte: it holds the placeholder, as the converter writes it.
    b.addFieldInt8(F.deprecatedBuiltinCode, Math.min(c.code, OP.PLACEHOLDER_FOR_GREATER_OP_CODES), null);
    if (custom !== 0) b.addFieldOffset(F.customCode, custom, 0);
    b.addFieldInt32(F.version, 1, null);
    b.addFieldInt32(F.builtinCode, c.code, null);
  });
}

function writeSubgraph(b: Builder, sg: TfliteSubgraphSpec, codes: ReturnType<typeof operatorCodes>, datas: BufferData[]): number {
  const F = FIELD.subgraph;
  const tensors = offsets(b, sg.tensors.map((t, i) => writeTensor(b, t, i, datas)));
  const operators = offsets(b, sg.operators.map((op) => writeOperator(b, op, codes.index(op))));
  const inputs = ints(b, sg.inputs);
  const outputs = ints(b, sg.outputs);
  const name = b.createString(sg.name ?? '');
  return table(b, 5, () => {
    b.addFieldOffset(F.tensors, tensors, 0);
    b.addFieldOffset(F.inputs, inputs, 0);
    b.addFieldOffset(F.outputs, outputs, 0);
    b.addFieldOffset(F.operators, operators, 0);
    b.addFieldOffset(F.name, name, 0);
  });
}

function writeTensor(b: Builder, t: TfliteTensorSpec, i: number, datas: BufferData[]): number {
  const F = FIELD.tensor;
  let buffer = 0;
  if (t.data !== undefined) buffer = datas.push({ data: t.data, storage: t.storage ?? 'inline' });
  const shape = ints(b, t.shape);
  const signature = t.signature === undefined ? 0 : ints(b, t.signature);
  const name = b.createString(t.name ?? `t${i}`);
  const quantization = t.quantization === undefined ? 0 : writeQuantization(b, t.quantization);
  const type = typeof t.type === 'number' ? t.type : TENSOR_TYPES.findIndex((x) => x.name === (t.type ?? 'FLOAT32'));
  if (type < 0) throw new Error(`tflite-writer: unknown tensor type ${String(t.type)}`);
  return table(b, 9, () => {
    b.addFieldOffset(F.shape, shape, 0);
    b.addFieldInt8(F.type, type, null);
    b.addFieldInt32(F.buffer, t.buffer ?? buffer, null);
    b.addFieldOffset(F.name, name, 0);
    if (quantization !== 0) b.addFieldOffset(F.quantization, quantization, 0);
    if (t.variable) b.addFieldInt8(F.isVariable, 1, null);
    if (signature !== 0) b.addFieldOffset(F.shapeSignature, signature, 0);
  });
}

function writeQuantization(b: Builder, q: TfliteQuantizationSpec): number {
  const F = FIELD.quantization;
  b.startVector(4, q.scale.length, 4);
  for (let i = q.scale.length - 1; i >= 0; i--) b.addFloat32(q.scale[i]!);
  const scale = b.endVector();
  b.startVector(8, q.zeroPoint.length, 8);
  for (let i = q.zeroPoint.length - 1; i >= 0; i--) b.addInt64(BigInt(q.zeroPoint[i]!));
  const zeroPoint = b.endVector();
  return table(b, 7, () => {
    b.addFieldOffset(F.scale, scale, 0);
    b.addFieldOffset(F.zeroPoint, zeroPoint, 0);
    b.addFieldInt32(F.quantizedDimension, q.axis ?? 0, null);
  });
}

function writeOperator(b: Builder, op: TfliteOperatorSpec, opcodeIndex: number): number {
  const F = FIELD.operator;
  const inputs = ints(b, op.inputs);
  const outputs = ints(b, op.outputs);
  const intermediates = op.intermediates === undefined ? 0 : ints(b, op.intermediates);
  const options = op.options === undefined ? 0 : writeOptions(b, op.options);
  const custom = op.customOptions === undefined ? 0 : bytes(b, op.customOptions);
  return table(b, 9, () => {
    b.addFieldInt32(F.opcodeIndex, op.opcodeIndex ?? opcodeIndex, null);
    b.addFieldOffset(F.inputs, inputs, 0);
    b.addFieldOffset(F.outputs, outputs, 0);
    if (op.options !== undefined) {
      b.addFieldInt8(F.builtinOptionsType, op.options.type, null);
      b.addFieldOffset(F.builtinOptions, options, 0);
    }
    if (custom !== 0) b.addFieldOffset(F.customOptions, custom, 0);
    if (intermediates !== 0) b.addFieldOffset(F.intermediates, intermediates, 0);
  });
}

function bytes(b: Builder, data: Uint8Array): number {
  b.startVector(1, data.byteLength, 1);
  for (let i = data.byteLength - 1; i >= 0; i--) b.addInt8(data[i]!);
  return b.endVector();
}

function writeOptions(b: Builder, options: TfliteOptionsSpec): number {
  const count = Math.max(0, ...options.fields.map(([index]) => index + 1));
  return table(b, count, () => {
    for (const [index, value, width] of options.fields) {
      if (width === 1) b.addFieldInt8(index, value, null);
      else b.addFieldInt32(index, value, null);
    }
  });
}

function writeBuffer(b: Builder, { data, storage }: BufferData, offset: number): number {
  let vector = 0;
  if (storage !== 'external') {
    b.startVector(1, data.byteLength, 16);
    for (let i = data.byteLength - 1; i >= 0; i--) b.addInt8(data[i]!);
    vector = b.endVector();
  }
  return table(b, 3, () => {
    if (vector !== 0) b.addFieldOffset(FIELD.buffer.data, vector, 0);
    if (storage === 'inline') return;
    b.addFieldInt64(FIELD.buffer.offset, BigInt(offset), null);
    b.addFieldInt64(FIELD.buffer.size, BigInt(data.byteLength), null);
  });
}

function table(b: Builder, fields: number, add: () => void): number {
  b.startObject(fields);
  add();
  return b.endObject();
}

function offsets(b: Builder, list: readonly number[]): number {
  b.startVector(4, list.length, 4);
  for (let i = list.length - 1; i >= 0; i--) b.addOffset(list[i]!);
  return b.endVector();
}

function ints(b: Builder, list: readonly number[]): number {
  b.startVector(4, list.length, 4);
  for (let i = list.length - 1; i >= 0; i--) b.addInt32(list[i]!);
  return b.endVector();
}
