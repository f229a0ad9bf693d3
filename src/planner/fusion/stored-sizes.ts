// Element sizes of tensors as a fusion unit holds them on chip (METHODS.md M2,
// M5, with the type rules of M3 step 2): a quantized graph's float tensors
// that only exist between a quantizer and the op it folds into take the
// quantized type. Depends only on the model's IR types and the planner.
//
// - Fake quantization: a float tensor every reader of which quantizes it
//   (QuantizeLinear, DynamicQuantizeLinear) is held in the quantizer's
//   output type: the op that writes it requantizes on the fly.
// - QDQ: a DequantizeLinear output whose input is an integer tensor is held
//   in that integer type: the op reading it folds the pair and reads the
//   integer data (int8 activations; int8 weights; int32 biases).
// - Every other tensor keeps the file's type (ConvInteger and MatMulInteger
//   write int32 accumulators, QLinear ops uint8 or int8, Cast its target).
// - These rules apply to the tensors that stay on chip; the tensors a unit
//   reads from or writes to DRAM are as large as the DRAM plan has them.

import type { InferredGraph, InferredValue } from '../../model/inferred';
import { isDequantizer, isQuantizer } from '../problem/quantized-ops';

const INTEGER = /^u?int(4|8|16|32)$/;

/** Bytes per element of a value in the file's type (from its size and shape). */
export function fileElementBytes(value: InferredValue): number {
  const count = (value.shape ?? []).reduce((a, b) => a * b, 1);
  return count === 0 || value.bytes === undefined ? 0 : value.bytes / count;
}

/** Bytes per element of every value the rules above re-type, by name; values not listed keep the file's. */
export function onChipElementBytes(graph: InferredGraph): Map<string, number> {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const out = new Map<string, number>();
  for (const v of graph.values) {
    const elem = foldedElementBytes(graph, values, v);
    if (elem !== undefined && elem !== fileElementBytes(v)) out.set(v.name, elem);
  }
  return out;
}

function foldedElementBytes(graph: InferredGraph, values: ReadonlyMap<string, InferredValue>, v: InferredValue): number | undefined {
  if (v.bytes === undefined || v.shape === undefined) return undefined;
  const producer = v.producer === undefined ? undefined : graph.nodes[v.producer]!;
  if (producer !== undefined && isDequantizer(producer)) {
    const source = values.get(producer.inputs[0] ?? '');
    if (source !== undefined && INTEGER.test(source.dtypeName)) return fileElementBytes(source);
  }
  const readers = v.consumers.map((c) => graph.nodes[c]!);
  if (v.dtypeName.startsWith('float') && readers.length > 0 && readers.every(isQuantizer)) {
    const quantized = readers.map((r) => values.get(r.outputs[0] ?? '')).filter((q): q is InferredValue => q !== undefined);
    if (quantized.length === readers.length) return Math.max(...quantized.map(fileElementBytes));
  }
  return undefined;
}

/** A weight with the bytes it is stored in: an integer weight's, when the file dequantizes it at load time. */
export function storedWeight(graph: InferredGraph, values: ReadonlyMap<string, InferredValue>, weight: InferredValue): InferredValue {
  const producer = weight.producer === undefined ? undefined : graph.nodes[weight.producer]!;
  if (producer === undefined || !isDequantizer(producer) || weight.shape === undefined) return weight;
  const source = values.get(producer.inputs[0] ?? '');
  if (source === undefined || !INTEGER.test(source.dtypeName) || source.bytes === undefined) return weight;
  return { ...weight, dtypeName: source.dtypeName, bytes: source.bytes };
}
