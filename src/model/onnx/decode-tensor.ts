// ONNX TensorProto -> IrTensor for the decoder: dims checked, raw_data kept as a view
// of the file's bytes, external-data references and string tensors noted. No DOM.

import type { onnx as Onnx } from 'onnx-proto';
import { InputError } from '../../shared/errors';
import { formatBytes, formatCount } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { shownDims } from '../message-parts';
import { DT, dataTypeName, tensorBytes } from '../dtype';
import type { IrDiagnostic, IrExternalData, IrTensor } from '../ir';
import { int64ToNumber, list } from './decode-scalars';
import { utf8 } from '../utf8';

/** TensorProto.DataLocation.EXTERNAL */
const EXTERNAL = 1;

/** What the decoder collects while it converts: notes and the external files referenced. */
export interface DecodeContext {
  readonly diagnostics: IrDiagnostic[];
  readonly externalFiles: Map<string, { tensors: number; bytes: number }>;
}

/** A fresh, empty decode context. */
export function newDecodeContext(): DecodeContext {
  return { diagnostics: [], externalFiles: new Map() };
}

/**
 * Converts one TensorProto. `what` names it in messages ("initializer 'w'",
 * "attribute 'value' of node 'Constant_3'"); `node` ties its notes to a node.
 * Throws InputError('bad-graph') for dims or raw data that cannot be right.
 */
export function tensorFromProto(proto: Onnx.ITensorProto, ctx: DecodeContext, what: string, node?: string): IrTensor {
  const name = proto.name ?? '';
  const dtype = proto.dataType ?? 0;
  const dims = tensorDims(list(proto.dims), what);
  const elements = dims.reduce((a, b) => a * b, 1);
  const external = proto.dataLocation === EXTERNAL ? externalData(proto, what) : undefined;
  if (external !== undefined) noteExternal(ctx, external, dtype, elements);
  const raw = external === undefined ? rawView(proto.rawData) : undefined;
  if (raw !== undefined) checkRawLength(raw, dtype, dims, what);
  const strings = dtype === DT.STRING ? list(proto.stringData).map((s) => utf8(s)) : undefined;
  if (strings !== undefined) {
    ctx.diagnostics.push({
      code: 'string-tensor',
      message: `${what} holds strings, so its size in memory is unknown`,
      ...(node === undefined ? {} : { node }),
    });
  }
  return { name, dtype, dims, raw, values: fieldValues(proto), strings, external };
}

function tensorDims(dims: readonly unknown[], what: string): number[] {
  const result = dims.map(int64ToNumber);
  let elements = 1;
  for (const dim of result) {
    if (!Number.isSafeInteger(dim) || dim < 0) {
      throw new InputError('bad-graph', `${what} has an invalid dimension ${dim} (dims ${shownDims(result)})`);
    }
    elements *= dim;
  }
  if (!Number.isSafeInteger(elements)) {
    throw new InputError('bad-graph', `${what} has dims ${shownDims(result)}, more elements than any file can describe`);
  }
  return result;
}

/** The raw bytes as a plain Uint8Array view (Node Buffers included), never a copy. */
function rawView(raw: Uint8Array | null | undefined): Uint8Array | undefined {
  if (raw === null || raw === undefined || raw.byteLength === 0) return undefined;
  return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
}

function checkRawLength(raw: Uint8Array, dtype: number, dims: readonly number[], what: string): void {
  const expected = tensorBytes(dtype, dims.reduce((a, b) => a * b, 1));
  if (expected === undefined || expected === raw.byteLength) return;
  throw new InputError(
    'bad-graph',
    `${what} holds ${formatCount(raw.byteLength)} bytes of data, but ${shownDims(dims) || 'a scalar'} ` +
      `${dataTypeName(dtype)} elements need ${formatCount(expected)} bytes`,
  );
}

/** Values stored in the typed repeated fields, as numbers. */
function fieldValues(proto: Onnx.ITensorProto): number[] | undefined {
  const lists: readonly (readonly unknown[] | null | undefined)[] = [
    proto.floatData,
    proto.int32Data,
    proto.int64Data,
    proto.doubleData,
    proto.uint64Data,
  ];
  const stored = lists.find((values) => values !== null && values !== undefined && values.length > 0);
  return stored?.map(int64ToNumber);
}

function externalData(proto: Onnx.ITensorProto, what: string): IrExternalData {
  const entries = new Map(list(proto.externalData).map((e) => [e.key ?? '', e.value ?? '']));
  const location = entries.get('location');
  if (location === undefined || location === '') {
    throw new InputError('bad-graph', `${what} keeps its data in an external file but does not say which`);
  }
  const offset = externalNumber(entries.get('offset'), what, 'offset') ?? 0;
  const length = externalNumber(entries.get('length'), what, 'length');
  return { location, offset, length };
}

function externalNumber(text: string | undefined, what: string, key: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InputError('bad-graph', `${what} has an invalid external-data ${key} '${shortName(text)}'`);
  }
  return value;
}

function noteExternal(ctx: DecodeContext, external: IrExternalData, dtype: number, elements: number): void {
  const file = ctx.externalFiles.get(external.location) ?? { tensors: 0, bytes: 0 };
  file.tensors += 1;
  file.bytes += external.length ?? tensorBytes(dtype, elements) ?? 0;
  ctx.externalFiles.set(external.location, file);
}

/** The one diagnostic that names the external weight files, or undefined when there are none. */
export function externalDataDiagnostic(ctx: DecodeContext): IrDiagnostic | undefined {
  if (ctx.externalFiles.size === 0) return undefined;
  const files = [...ctx.externalFiles].map(
    ([location, f]) => `'${location}' (${formatCount(f.tensors)} tensor${f.tensors === 1 ? '' : 's'}, ${formatBytes(f.bytes)})`,
  );
  return {
    code: 'external-data',
    message:
      `weights are stored outside the model file, in ${files.join(', ')}; ` +
      'planning needs only their dims, so the weight file is not read',
  };
}
