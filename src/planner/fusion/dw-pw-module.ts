// Depthwise modules of METHODS.md M5: a depthwise Conv with the element-wise
// ops after it that read only its result (BatchNorm, Mul then Add, Relu, Clip,
// HardSwish exported as several nodes that fork and rejoin), and the one
// pointwise Conv the module feeds. Depends only on the model's IR types and
// the planner's fusion layer view.
//
// - Quantized forms count as their float ops (ConvInteger, QLinearConv are
//   Convs; QLinearAdd an Add...); quantize, dequantize and cast are
//   element-wise.
// - Grow: an op joins the module when it is element-wise, every run-time
//   input it reads is a module tensor or a scalar (a scale or zero point),
//   and its output has the depthwise result's shape; repeat until nothing
//   joins.
// - Accept: exactly one module tensor is read outside the module, by exactly
//   one node, a pointwise Conv reading it as its data input; no module tensor
//   is a graph output. Scalars the members write besides (the scale and zero
//   point of a DynamicQuantizeLinear) are not module tensors and may be read
//   anywhere.
// - QDQ edges: a QDQ Conv is DequantizeLinear -> Conv -> QuantizeLinear, so
//   the DequantizeLinear only the depthwise Conv reads and the
//   QuantizeLinear that alone reads the pointwise result belong to the pair.

import type { InferredValue } from '../../model/inferred';
import { isDepthwise, isPointwise, isScalarValue, type Layer } from './layer-geometry';

/** Element-wise ops a depthwise module may include (by the op they act as). */
const ELEMENTWISE = new Set([
  'Relu', 'Clip', 'Sigmoid', 'HardSigmoid', 'HardSwish', 'LeakyRelu', 'PRelu', 'Tanh', 'Elu', 'Selu', 'Softplus', 'Mish', 'Gelu',
  'BatchNormalization', 'Add', 'Sub', 'Mul', 'Div', 'Max', 'Min', 'Identity', 'QuantizeLinear', 'DequantizeLinear',
  'DynamicQuantizeLinear', 'Cast',
]);

/** A depthwise module and the pointwise Conv it feeds. */
export interface DepthwiseModule {
  readonly members: readonly number[]; // node indices, the depthwise Conv first
  readonly tensors: readonly InferredValue[]; // module tensors, the depthwise output first
  readonly result: InferredValue; // the tensor the pointwise Conv reads
  readonly pointwise: number; // node index of the pointwise Conv
}

/** A module, or why the depthwise Conv at hand has none. */
export type ModuleFinding = { readonly module: DepthwiseModule } | { readonly reason: string };

/** What the search reads of the graph. */
export interface ModuleGraph {
  readonly layers: readonly Layer[]; // by node index
  readonly values: ReadonlyMap<string, InferredValue>;
  readonly outputs: ReadonlySet<string>; // graph outputs
}

/** True when `layer` may join a module whose tensors are `tensors` (by name) of shape `shape`. */
export function joinsModule(layer: Layer, tensors: ReadonlySet<string>, shape: readonly number[]): boolean {
  if (layer.base === undefined || !ELEMENTWISE.has(layer.base) || layer.output === undefined || layer.inputs.length === 0) return false;
  if (!layer.inputs.every((v) => tensors.has(v.name) || isScalarValue(v)) || !layer.inputs.some((v) => tensors.has(v.name))) return false;
  const out = layer.output.shape;
  return out !== undefined && out.length === shape.length && out.every((d, i) => d === shape[i]);
}

/** The depthwise module of the Conv at node index `dw`, or why there is none. */
export function depthwiseModule(g: ModuleGraph, dw: number): ModuleFinding {
  const conv = g.layers[dw]!;
  if (!isDepthwise(conv)) return { reason: `${conv.opType} '${conv.name}' is not a depthwise Conv` };
  if (conv.tileable !== undefined) return { reason: `the depthwise Conv cannot be fused: ${conv.tileable}` };
  const first = conv.output!;
  const members = [dw];
  const tensors = [first];
  const names = new Set([first.name]);
  for (let i = 0; i < tensors.length; i++) {
    for (const c of g.values.get(tensors[i]!.name)?.consumers ?? []) {
      const layer = g.layers[c]!;
      if (members.includes(c) || !joinsModule(layer, names, first.shape!)) continue;
      members.push(c);
      tensors.push(layer.output!);
      names.add(layer.output!.name);
      i = -1; // a new tensor may let an earlier tensor's readers join
      break;
    }
  }
  return moduleReader(g, members, tensors);
}

/** Checks who reads the module from outside; see the module header. */
function moduleReader(g: ModuleGraph, members: readonly number[], tensors: readonly InferredValue[]): ModuleFinding {
  const outside: { tensor: InferredValue; reader: number }[] = [];
  for (const t of tensors) {
    if (g.outputs.has(t.name)) return { reason: `the depthwise module's tensor '${t.name}' is a graph output` };
    for (const c of new Set(g.values.get(t.name)?.consumers ?? [])) if (!members.includes(c)) outside.push({ tensor: t, reader: c });
  }
  const readers = [...new Set(outside.map((o) => o.reader))];
  const describe = (n: number): string => `${g.layers[n]!.opType} '${g.layers[n]!.name}'`;
  if (readers.length === 0) return { reason: 'nothing reads the depthwise result' };
  if (readers.length > 1) return { reason: `the depthwise result is read outside its module by ${readers.map(describe).join(' and ')}` };
  const reader = g.layers[readers[0]!]!;
  const read = [...new Set(outside.map((o) => o.tensor.name))];
  if (!isPointwise(reader)) return { reason: `the depthwise result feeds ${describe(readers[0]!)}, not a pointwise (1×1) Conv` };
  if (read.length > 1) return { reason: `the pointwise Conv reads ${read.length} tensors of the depthwise module` };
  if (reader.inputs[0]?.name !== read[0] || reader.tileable !== undefined) {
    return { reason: `the pointwise Conv '${reader.name}' ${reader.tileable ?? 'does not read the module as its data input'}` };
  }
  const result = tensors.find((t) => t.name === read[0])!;
  return { module: { members, tensors, result, pointwise: readers[0]! } };
}

/** The QDQ edges of a depthwise + pointwise pair (node indices), when the graph has them. */
export interface QdqEdges {
  readonly entry?: number; // DequantizeLinear whose output only the depthwise Conv reads
  readonly exit?: number; // QuantizeLinear that alone reads the pointwise result
}

/** The QDQ edges of `module`, whose depthwise Conv is node `dw`; see the module header. */
export function qdqEdges(g: ModuleGraph, module: DepthwiseModule, dw: number): QdqEdges {
  const input = g.layers[dw]!.inputs[0];
  const producer = input?.producer === undefined ? undefined : g.layers[input.producer];
  const entry = producer?.base === 'DequantizeLinear' && producer.tileable === undefined && only(g, input!, dw) ? producer.node : undefined;
  const result = g.layers[module.pointwise]!.output;
  const reader = result?.consumers.length === 1 ? g.layers[result.consumers[0]!] : undefined;
  const exit = reader?.base === 'QuantizeLinear' && reader.tileable === undefined && only(g, result!, reader.node) ? reader.node : undefined;
  return { ...(entry !== undefined && { entry }), ...(exit !== undefined && { exit }) };
}

/** True when node `reader` is the only reader of `v` and `v` is no graph output. */
function only(g: ModuleGraph, v: InferredValue, reader: number): boolean {
  return !g.outputs.has(v.name) && v.consumers.length > 0 && v.consumers.every((c) => c === reader);
}
