// ONNX GraphProto -> IrGraph for the decoder: nodes (with generated names where the
// file has none), value infos with their declared dims, initializers and subgraphs,
// decoded recursively. No DOM.

import type { onnx as Onnx } from 'onnx-proto';
import { InputError } from '../../shared/errors';
import { MAX_EXACT_POWER } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { DT } from '../dtype';
import type { DeclaredDim, IrAttribute, IrGraph, IrInvalidDim, IrNode, IrTensor, IrValueInfo } from '../ir';
import { attributeFromProto, constantValue } from './decode-attribute';
import { hasField, int64ToNumber, int64ToText, list } from './decode-scalars';
import { tensorFromProto, type DecodeContext } from './decode-tensor';
import { MAIN_GRAPH, nestedWhere, type GraphWhere } from '../graph-where';
import { shownDims } from '../message-parts';

/** Deepest nesting of subgraphs (If inside Loop inside ...) the decoder accepts. */
export const MAX_GRAPH_DEPTH = 64;

/** The default ONNX domain under its two spellings, normalised to ''. */
export function normaliseDomain(domain: string | null | undefined): string {
  return domain === 'ai.onnx' || domain === null || domain === undefined ? '' : domain;
}

/**
 * Converts a graph and, recursively, its subgraphs. `place` names the graph in
 * messages ('' for the main graph, " in subgraph 'body' (attribute …)" for a
 * subgraph, one line however deep).
 */
export function graphFromProto(proto: Onnx.IGraphProto, ctx: DecodeContext, place: GraphWhere = MAIN_GRAPH): IrGraph {
  const { depth, text: where } = place;
  if (depth > MAX_GRAPH_DEPTH) {
    throw new InputError('bad-graph', `subgraphs nest more than ${MAX_GRAPH_DEPTH} levels deep${where}`);
  }
  const initializers = [
    ...list(proto.initializer).map((t) => tensorFromProto(t, ctx, `initializer '${shortName(t.name ?? '')}'${where}`)),
    ...list(proto.sparseInitializer).map((s) => sparseInitializer(s, ctx, where)),
  ];
  const initializerNames = new Set(initializers.map((t) => t.name));
  const valueInfo = (v: Onnx.IValueInfoProto): IrValueInfo => valueInfoFromProto(v, ctx);
  return {
    name: proto.name ?? '',
    nodes: nodesFromProto(list(proto.node), ctx, place),
    // Before IR 4 every initializer was also listed as a graph input; those are weights, not inputs.
    inputs: list(proto.input)
      .filter((v) => !initializerNames.has(v.name ?? ''))
      .map(valueInfo),
    outputs: list(proto.output).map(valueInfo),
    valueInfo: list(proto.valueInfo).map(valueInfo),
    initializers,
  };
}

function nodesFromProto(protos: readonly Onnx.INodeProto[], ctx: DecodeContext, place: GraphWhere): IrNode[] {
  const where = place.text;
  const used = new Set(protos.map((n) => n.name ?? '').filter((name) => name !== ''));
  return protos.map((proto, index) => {
    const opType = proto.opType ?? '';
    const name = proto.name || uniqueName(`${opType}_${index}`, used);
    if (opType === '') throw new InputError('bad-graph', `node '${shortName(name)}' (number ${index + 1})${where} has no op_type`);
    const domain = normaliseDomain(proto.domain);
    const decodeGraph = (g: Onnx.IGraphProto, what: string): IrGraph =>
      graphFromProto(g, ctx, nestedWhere(place, ` in subgraph '${shortName(g.name ?? '')}' (${what})`));
    // fromEntries defines own properties, so an attribute named '__proto__' stays a plain key.
    const attributes: Record<string, IrAttribute> = Object.fromEntries(
      list(proto.attribute).map((attr) => [attr.name ?? '', attributeFromProto(attr, { ctx, node: name, decodeGraph })]),
    );
    const outputs = [...list(proto.output)];
    return {
      name,
      opType,
      domain,
      inputs: [...list(proto.input)],
      outputs,
      attributes: opType === 'Constant' && domain === '' ? constantAttributes(attributes, outputs[0] ?? name, name, ctx) : attributes,
    };
  });
}

function uniqueName(candidate: string, used: Set<string>): string {
  let name = candidate;
  for (let k = 2; used.has(name); k++) name = `${candidate}_${k}`;
  used.add(name);
  return name;
}

/** A Constant's attributes with its value, however stored, as the single tensor attribute `value`. */
function constantAttributes(
  attributes: Record<string, IrAttribute>,
  output: string,
  node: string,
  ctx: DecodeContext,
): Record<string, IrAttribute> {
  const value = constantValue(attributes, output);
  if (value === undefined) return attributes;
  if (value.dtype === DT.STRING && attributes.value === undefined) {
    ctx.diagnostics.push({ code: 'string-tensor', message: `constant '${shortName(output)}' holds strings, so its size in memory is unknown`, node });
  }
  return { value: { kind: 'tensor', value } };
}

function sparseInitializer(proto: Onnx.ISparseTensorProto, ctx: DecodeContext, where: string): IrTensor {
  const values = proto.values;
  const name = values?.name ?? '';
  const dims = list(proto.dims).map(int64ToNumber);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new InputError('bad-graph', `sparse initializer '${shortName(name)}'${where} has invalid dims ${shownDims(dims)}`);
  }
  ctx.diagnostics.push({
    code: 'sparse-initializer',
    message: `initializer '${shortName(name)}'${where} is stored sparse; it is planned at its dense size and its values are not read`,
  });
  return { name, dtype: values?.dataType ?? 0, dims, raw: undefined, values: undefined, strings: undefined, external: undefined };
}

/** Converts a graph input, output or value_info entry. */
function valueInfoFromProto(proto: Onnx.IValueInfoProto, ctx: DecodeContext): IrValueInfo {
  const name = proto.name ?? '';
  const type = proto.type;
  if (!type) return { name, dtype: undefined, shape: undefined, kind: 'unknown' };
  if (type.tensorType) return { name, ...tensorType(type.tensorType, name, ctx), kind: 'tensor' };
  if (type.sparseTensorType) return { name, ...tensorType(type.sparseTensorType, name, ctx), kind: 'sparse' };
  if (type.mapType) return { name, dtype: undefined, shape: undefined, kind: 'map' };
  const kind = type.sequenceType ? 'sequence' : type.optionalType ? 'optional' : 'unknown';
  const element = innerTensor(type);
  return { name, ...(element ? tensorType(element, name, ctx) : { dtype: undefined, shape: undefined }), kind };
}

/** The tensor type inside sequence/optional wrappers, if any. */
function innerTensor(type: Onnx.ITypeProto): Onnx.TypeProto.ITensor | undefined {
  let current: Onnx.ITypeProto | null | undefined = type;
  for (let level = 0; current && level < MAX_GRAPH_DEPTH; level++) {
    if (current.tensorType) return current.tensorType;
    current = current.sequenceType?.elemType ?? current.optionalType?.elemType;
  }
  return undefined;
}

function tensorType(
  type: Onnx.TypeProto.ITensor | Onnx.TypeProto.ISparseTensor,
  name: string,
  ctx: DecodeContext,
): Pick<IrValueInfo, 'dtype' | 'shape' | 'invalidDims'> {
  const dtype = type.elemType ? type.elemType : undefined;
  if (!type.shape) return { dtype, shape: undefined };
  const invalidDims: IrInvalidDim[] = [];
  const open: number[] = [];
  const shape = list(type.shape.dim).map((dim, axis) => {
    const declared = declaredDim(dim);
    if (declared === OPEN_DIM) open.push(axis);
    else if (typeof declared === 'object') invalidDims.push({ axis, value: declared.invalid });
    else return declared;
    return undefined;
  });
  if (open.length > 0) {
    ctx.diagnostics.push({
      code: 'invalid-dim',
      message: `value '${shortName(name)}' declares ${axesText(open)} as -1, which is no size: read as ${open.length === 1 ? 'an unnamed dim' : 'unnamed dims'}, as exporters such as Paddle's write a dynamic dim`,
    });
  }
  if (invalidDims.length === 0) return { dtype, shape };
  const listed = invalidDims.map((d) => `axis ${d.axis} as ${d.value}`).join(', ');
  ctx.diagnostics.push({
    code: 'invalid-dim',
    message: `value '${shortName(name)}' declares ${listed}, which is no size (a dim is 0 to ${MAX_EXACT_POWER}): read as unknown, never as a default`,
  });
  return { dtype, shape, invalidDims };
}

/** A dim declared as -1: no size, but the way some exporters write a dynamic dim. */
const OPEN_DIM = -1;

function axesText(axes: readonly number[]): string {
  return axes.length === 1 ? `axis ${axes[0]}` : `axes ${axes.join(', ')}`;
}

/**
 * A declared dim: its value, its symbolic name, undefined when neither, -1
 * (OPEN_DIM) as written, or the number as written when it is no size (below
 * zero, or too large to be exact).
 */
function declaredDim(dim: Onnx.TensorShapeProto.IDimension): DeclaredDim | { readonly invalid: string } {
  if (dim.dimParam) return dim.dimParam;
  if (!hasField(dim, 'dimValue')) return undefined;
  const value = int64ToNumber(dim.dimValue);
  if (value === OPEN_DIM) return OPEN_DIM;
  return value >= 0 && Number.isSafeInteger(value) ? value : { invalid: int64ToText(dim.dimValue) };
}
