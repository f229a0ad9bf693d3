// ONNX AttributeProto -> IrAttribute for the decoder, every attribute kind included;
// Constant nodes' value_* attributes become one `value` tensor. No DOM.

import type { onnx as Onnx } from 'onnx-proto';
import { shortName } from '../../shared/short-name';
import { DT } from '../dtype';
import type { IrAttribute, IrGraph, IrTensor } from '../ir';
import { hasField, int64ToNumber, list } from './decode-scalars';
import { utf8 } from '../utf8';
import { tensorFromProto, type DecodeContext } from './decode-tensor';

/** AttributeProto.AttributeType codes. */
const enum AttributeType {
  UNDEFINED = 0,
  FLOAT = 1,
  INT = 2,
  STRING = 3,
  TENSOR = 4,
  GRAPH = 5,
  FLOATS = 6,
  INTS = 7,
  STRINGS = 8,
  TENSORS = 9,
  GRAPHS = 10,
}

/** Converts a subgraph; supplied by the graph decoder so the two modules do not import each other. */
export type GraphDecoder = (graph: Onnx.IGraphProto, what: string) => IrGraph;

/** Everything an attribute conversion needs besides the attribute. */
export interface AttributeScope {
  readonly ctx: DecodeContext;
  readonly node: string; // the node's name, for messages
  readonly decodeGraph: GraphDecoder;
}

/** Converts one attribute. Sparse tensors, type protos and reference attributes become kind 'other'. */
export function attributeFromProto(proto: Onnx.IAttributeProto, scope: AttributeScope): IrAttribute {
  const what = `attribute '${shortName(proto.name ?? '')}' of node '${shortName(scope.node)}'`;
  if (proto.refAttrName) return { kind: 'other', value: undefined };
  switch (attributeType(proto)) {
    case AttributeType.FLOAT:
      return { kind: 'float', value: proto.f ?? 0 };
    case AttributeType.INT:
      return { kind: 'int', value: int64ToNumber(proto.i ?? 0) };
    case AttributeType.STRING:
      return { kind: 'string', value: utf8(proto.s) };
    case AttributeType.TENSOR:
      return proto.t ? { kind: 'tensor', value: tensorFromProto(proto.t, scope.ctx, what, scope.node) } : other;
    case AttributeType.GRAPH:
      return proto.g ? { kind: 'graph', value: scope.decodeGraph(proto.g, what) } : other;
    case AttributeType.FLOATS:
      return { kind: 'floats', value: [...list(proto.floats)] };
    case AttributeType.INTS:
      return { kind: 'ints', value: list(proto.ints).map(int64ToNumber) };
    case AttributeType.STRINGS:
      return { kind: 'strings', value: list(proto.strings).map((s) => utf8(s)) };
    case AttributeType.TENSORS:
      return { kind: 'tensors', value: list(proto.tensors).map((t) => tensorFromProto(t, scope.ctx, what, scope.node)) };
    case AttributeType.GRAPHS:
      return { kind: 'graphs', value: list(proto.graphs).map((g, i) => scope.decodeGraph(g, `${what} (graph ${i})`)) };
    default:
      return other;
  }
}

const other: IrAttribute = { kind: 'other', value: undefined };

/** The attribute's type; files from before IR 2 leave it out, so it is told from the field that is set. */
function attributeType(proto: Onnx.IAttributeProto): number {
  if (proto.type) return proto.type;
  if (list(proto.floats).length > 0) return AttributeType.FLOATS;
  if (list(proto.ints).length > 0) return AttributeType.INTS;
  if (list(proto.strings).length > 0) return AttributeType.STRINGS;
  if (list(proto.tensors).length > 0) return AttributeType.TENSORS;
  if (list(proto.graphs).length > 0) return AttributeType.GRAPHS;
  if (proto.t) return AttributeType.TENSOR;
  if (proto.g) return AttributeType.GRAPH;
  if (hasField(proto, 'f')) return AttributeType.FLOAT;
  if (hasField(proto, 'i')) return AttributeType.INT;
  if (hasField(proto, 's')) return AttributeType.STRING;
  return AttributeType.UNDEFINED;
}

/**
 * A Constant node's value as one tensor named after its output, whichever
 * attribute holds it (value, value_float(s), value_int(s), value_string(s));
 * undefined for sparse_value or when no value attribute is usable.
 */
export function constantValue(
  attributes: Readonly<Record<string, IrAttribute>>,
  output: string,
): IrTensor | undefined {
  const literal = (dtype: number, dims: number[], values?: readonly number[], strings?: readonly string[]): IrTensor => ({
    name: output,
    dtype,
    dims,
    raw: undefined,
    values,
    strings,
    external: undefined,
  });
  for (const [key, attr] of Object.entries(attributes)) {
    if (key === 'value' && attr.kind === 'tensor') return { ...attr.value, name: attr.value.name || output };
    if (key === 'value_float' && attr.kind === 'float') return literal(DT.FLOAT, [], [attr.value]);
    if (key === 'value_floats' && attr.kind === 'floats') return literal(DT.FLOAT, [attr.value.length], attr.value);
    if (key === 'value_int' && attr.kind === 'int') return literal(DT.INT64, [], [attr.value]);
    if (key === 'value_ints' && attr.kind === 'ints') return literal(DT.INT64, [attr.value.length], attr.value);
    if (key === 'value_string' && attr.kind === 'string') return literal(DT.STRING, [], undefined, [attr.value]);
    if (key === 'value_strings' && attr.kind === 'strings') {
      return literal(DT.STRING, [attr.value.length], undefined, attr.value);
    }
  }
  return undefined;
}
