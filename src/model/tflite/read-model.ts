// Reads a TFLite flatbuffer's tables into checked plain records: operator codes,
// buffers (views into the file), subgraphs with their tensors and operators,
// and metadata. Every index is checked against what it indexes. No DOM.

import { InputError } from '../../shared/errors';
import { formatCount } from '../../shared/format';
import { FlatReader, type FlatTable } from './flat-reader';
import { builtinName, FIELD, OP, TENSOR_TYPES } from './schema';

/** A buffer: its data as a view into the file (undefined when it holds none). */
export interface WireBuffer {
  readonly data: Uint8Array | undefined;
}

/** A tensor as the file has it. */
export interface WireTensor {
  readonly name: string;
  readonly type: number;
  readonly shape: readonly number[];
  readonly signature: readonly number[] | undefined;
  readonly buffer: number;
  readonly variable: boolean;
  readonly scale: readonly number[];
  readonly zeroPoint: readonly number[];
  readonly axis: number;
}

/** An operator as the file has it, its code resolved to a name. */
export interface WireOperator {
  readonly op: string;
  readonly code: number; // builtin code (32 for custom ops)
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly intermediates: readonly number[];
  readonly options: FlatTable | undefined;
  readonly optionsType: number;
  readonly customOptions: Uint8Array | undefined; // a custom operator's FlexBuffer (a view into the file)
}

export interface WireSubgraph {
  readonly name: string;
  readonly tensors: readonly WireTensor[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly operators: readonly WireOperator[];
}

export interface WireModel {
  readonly version: number;
  readonly description: string;
  readonly buffers: readonly WireBuffer[];
  readonly subgraphs: readonly WireSubgraph[];
  readonly metadata: readonly { readonly name: string; readonly buffer: number }[];
}

interface OperatorCode {
  readonly name: string;
  readonly code: number;
}

/** Reads the model's tables; `reader` is over the whole file. */
export function readModel(reader: FlatReader): WireModel {
  const root = reader.table(reader.indirect(0, 'the root table offset'), 'the model table');
  const F = FIELD.model;
  const codes = reader.tables(root, F.operatorCodes, 'the operator codes').map((t, i) => operatorCode(reader, t, i));
  const buffers = reader.tables(root, F.buffers, 'the buffers').map((t, i) => buffer(reader, t, i));
  const subgraphs = reader.tables(root, F.subgraphs, 'the subgraphs').map((t, i) => subgraph(reader, t, i, codes, buffers.length));
  if (subgraphs.length === 0) throw new InputError('not-a-model', 'the model has no subgraph: there is nothing to run');
  const metadata = reader.tables(root, F.metadata, 'the metadata').map((t, i) => {
    const name = reader.string(t, FIELD.metadata.name, `the name of metadata entry ${i}`);
    const index = reader.uint(t, FIELD.metadata.buffer, `the buffer of metadata entry ${i}`);
    if (index >= buffers.length) throw badIndex(`metadata entry ${i} (${JSON.stringify(name.slice(0, 60))})`, 'buffer', index, buffers.length);
    return { name, buffer: index };
  });
  return {
    version: reader.uint(root, F.version, 'the schema version'),
    description: reader.string(root, F.description, 'the description'),
    buffers,
    subgraphs,
    metadata,
  };
}

function operatorCode(reader: FlatReader, t: FlatTable, i: number): OperatorCode {
  const F = FIELD.operatorCode;
  const what = `operator code ${i}`;
  // Files written before the int32 field keep the code in the byte; readers take the larger.
  const code = Math.max(reader.signedByte(t, F.deprecatedBuiltinCode, what), reader.int(t, F.builtinCode, what));
  if (code === OP.CUSTOM) {
    const custom = reader.string(t, F.customCode, `the custom code of ${what}`);
    return { name: custom === '' ? 'CUSTOM' : custom, code };
  }
  return { name: builtinName(code), code };
}

function buffer(reader: FlatReader, t: FlatTable, i: number): WireBuffer {
  const F = FIELD.buffer;
  const data = reader.byteView(t, F.data, `the data of buffer ${i}`);
  if (data !== undefined && data.byteLength > 0) return { data };
  // Files over 2 GiB keep data after the flatbuffer: offset from the file's start (1 marks "none").
  const offset = reader.long(t, F.offset, `the data offset of buffer ${i}`);
  const size = reader.long(t, F.size, `the data size of buffer ${i}`);
  if (offset > 1) {
    reader.check(offset, size, `the data of buffer ${i}`);
    return { data: reader.bytes.subarray(offset, offset + size) };
  }
  return { data: undefined };
}

function subgraph(reader: FlatReader, t: FlatTable, s: number, codes: readonly OperatorCode[], buffers: number): WireSubgraph {
  const F = FIELD.subgraph;
  const where = `subgraph ${s}`;
  const tensors = reader.tables(t, F.tensors, `the tensors of ${where}`).map((tt, i) => tensor(reader, tt, `tensor ${i} of ${where}`, buffers));
  const count = tensors.length;
  const inputs = checkedIndices(reader.ints(t, F.inputs, `the inputs of ${where}`), count, `the inputs of ${where}`, false, where);
  const outputs = checkedIndices(reader.ints(t, F.outputs, `the outputs of ${where}`), count, `the outputs of ${where}`, false, where);
  const operators = reader.tables(t, F.operators, `the operators of ${where}`).map((ot, i) => operator(reader, ot, `operator ${i} of ${where}`, codes, count, where));
  return { name: reader.string(t, F.name, `the name of ${where}`), tensors, inputs, outputs, operators };
}

function tensor(reader: FlatReader, t: FlatTable, what: string, buffers: number): WireTensor {
  const F = FIELD.tensor;
  const shape = reader.ints(t, F.shape, `the shape of ${what}`);
  const signatureView = reader.field(t, F.shapeSignature, 4, `the shape signature of ${what}`);
  const signature = signatureView === undefined ? undefined : reader.ints(t, F.shapeSignature, `the shape signature of ${what}`);
  const type = reader.signedByte(t, F.type, `the type of ${what}`);
  const name = reader.string(t, F.name, `the name of ${what}`);
  if (shape.some((d) => d < 0)) throw new InputError('not-a-model', `${what} (${JSON.stringify(name.slice(0, 60))}) has a negative dim in its shape [${shape.join(', ')}]`);
  if (type < 0 || type >= TENSOR_TYPES.length) throw new InputError('not-a-model', `${what} (${JSON.stringify(name.slice(0, 60))}) has tensor type ${type}, which TensorFlow Lite does not define`);
  const index = reader.uint(t, F.buffer, `the buffer of ${what}`);
  if (index >= buffers && buffers > 0) throw badIndex(what, 'buffer', index, buffers);
  const q = reader.child(t, F.quantization, `the quantization of ${what}`);
  const Q = FIELD.quantization;
  return {
    name,
    type,
    shape,
    signature,
    buffer: index,
    variable: reader.byte(t, F.isVariable, `the variable flag of ${what}`) !== 0,
    scale: q === undefined ? [] : reader.floats(q, Q.scale, `the scales of ${what}`),
    zeroPoint: q === undefined ? [] : reader.longs(q, Q.zeroPoint, `the zero points of ${what}`),
    axis: q === undefined ? 0 : reader.int(q, Q.quantizedDimension, `the quantized dimension of ${what}`),
  };
}

function operator(reader: FlatReader, t: FlatTable, what: string, codes: readonly OperatorCode[], tensors: number, where: string): WireOperator {
  const F = FIELD.operator;
  const index = reader.uint(t, F.opcodeIndex, `the operator code of ${what}`);
  const code = codes[index];
  if (code === undefined) throw badIndex(what, 'operator code', index, codes.length);
  const optionsType = reader.byte(t, F.builtinOptionsType, `the options type of ${what}`);
  return {
    op: code.name,
    code: code.code,
    inputs: checkedIndices(reader.ints(t, F.inputs, `the inputs of ${what}`), tensors, `the inputs of ${what} (${code.name})`, true, where),
    outputs: checkedIndices(reader.ints(t, F.outputs, `the outputs of ${what}`), tensors, `the outputs of ${what} (${code.name})`, true, where),
    intermediates: checkedIndices(reader.ints(t, F.intermediates, `the intermediates of ${what}`), tensors, `the intermediates of ${what} (${code.name})`, true, where),
    options: optionsType === 0 ? undefined : reader.child(t, F.builtinOptions, `the options of ${what}`),
    optionsType,
    customOptions: code.code === OP.CUSTOM ? reader.byteView(t, F.customOptions, `the custom options of ${what}`) : undefined,
  };
}

/** Tensor indices into subgraph `where`, each in range (-1 allowed where an optional tensor may be omitted). */
function checkedIndices(indices: number[], count: number, what: string, optional: boolean, where: string): number[] {
  for (const i of indices) {
    if ((i === -1 && optional) || (i >= 0 && i < count)) continue;
    throw badIndex(what, 'tensor', i, count, where);
  }
  return indices;
}

/** `owner` is what holds the indexed list: the model, or the subgraph for tensors. */
function badIndex(what: string, kind: string, index: number, count: number, owner = 'the model'): InputError {
  return new InputError('bad-graph', `${what} names ${kind} ${formatCount(index)}, but ${owner} has ${formatCount(count)} ${kind}${count === 1 ? '' : 's'}`);
}
