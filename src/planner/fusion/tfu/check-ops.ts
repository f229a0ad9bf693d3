// The independent checker's own reading of ops (METHODS.md M2, M5): which op
// types play which part (quantized forms included), the input rows a Resize
// or Upsample reads for an output row (by evaluating its coordinate mapping,
// not by a halo), and the bytes a tensor or weight takes on chip in a
// quantized graph. TFLite's builtins join each list under their own names
// (check-tflite.ts). Shares no code with the builder. Depends only on the
// model's IR types.

import type { InferredGraph, InferredNode, InferredValue } from '../../../model/inferred';
import { hasTfliteWindow, tfliteWindowOf, TFLITE_CONVERT, TFLITE_FILTER, TFLITE_MAIN, TFLITE_POOLS, TFLITE_SCALAR, TFLITE_VECTOR, type Window } from './check-tflite';

/** Conv forms and the index of their weight input. */
export const CONV_WEIGHT: Readonly<Record<string, number>> = { Conv: 1, ConvInteger: 1, QLinearConv: 3 };
/** Convolutions of either format (TFLite's: check-tflite.ts). */
export const CONV_OPS = [...Object.keys(CONV_WEIGHT), ...Object.keys(TFLITE_FILTER)];
/** Pools, quantized ones and TFLite's included. */
export const POOL_OPS = ['MaxPool', 'AveragePool', 'GlobalAveragePool', 'GlobalMaxPool', 'QLinearAveragePool', 'QLinearGlobalAveragePool', ...TFLITE_POOLS];
/** Whole-map pools. */
export const GLOBAL_POOLS = ['GlobalAveragePool', 'GlobalMaxPool', 'QLinearGlobalAveragePool'];
/** Main layers. */
export const MAIN_OPS = [...Object.keys(CONV_WEIGHT), ...POOL_OPS, 'MatMul', 'Gemm', 'MatMulInteger', 'QLinearMatMul', ...TFLITE_MAIN];
/** Element-wise arithmetic. */
export const SCALAR_OPS = ['Add', 'Sub', 'Mul', 'Div', 'Sum', 'Max', 'Min', 'QLinearAdd', 'QLinearMul', ...TFLITE_SCALAR];
/** Activations and normalisations. */
export const VECTOR_OPS = [
  'Relu', 'Clip', 'Sigmoid', 'Tanh', 'HardSwish', 'HardSigmoid', 'LeakyRelu', 'PRelu', 'Elu', 'Selu', 'Softplus', 'BatchNormalization',
  'InstanceNormalization', 'LRN', 'Mish', 'Gelu', 'QLinearSigmoid', 'QLinearLeakyRelu', ...TFLITE_VECTOR,
];
/** Type conversions. */
export const CONVERT_OPS = ['QuantizeLinear', 'DequantizeLinear', 'DynamicQuantizeLinear', 'Cast', ...TFLITE_CONVERT];
/** Ops that pass a tile. */
export const TILING_OPS = [
  ...CONV_OPS, ...POOL_OPS, ...SCALAR_OPS, ...VECTOR_OPS, ...CONVERT_OPS, 'Concat', 'QLinearConcat', 'Resize', 'Upsample', 'CONCATENATION',
];

/** Ops that dequantize their input (ONNX's, TFLite's). */
const DEQUANTIZERS = ['DequantizeLinear', 'DEQUANTIZE'];
/** Ops that quantize their input (ONNX's, TFLite's). */
const QUANTIZERS = ['QuantizeLinear', 'DynamicQuantizeLinear', 'QUANTIZE'];

const isInteger = (v: InferredValue | undefined): boolean => v !== undefined && /^u?int(4|8|16|32)$/.test(v.dtypeName);
const count = (v: InferredValue): number => (v.shape ?? []).reduce((a, b) => a * b, 1);

/** Bytes per element of a value in its file type. */
export function fileElement(v: InferredValue): number {
  return count(v) === 0 ? 0 : (v.bytes ?? 0) / count(v);
}

/**
 * Bytes per element of a tensor held on chip: a DequantizeLinear's output of
 * integer data as that data; a float tensor only quantizers read as their
 * output; anything else as in the file.
 */
export function onChipElement(graph: InferredGraph, values: ReadonlyMap<string, InferredValue>, v: InferredValue): number {
  const producer = v.producer === undefined ? undefined : graph.nodes[v.producer];
  if (producer !== undefined && DEQUANTIZERS.includes(producer.opType)) {
    const data = values.get(producer.inputs[0]!);
    if (isInteger(data)) return fileElement(data!);
  }
  const readers = v.consumers.map((c) => graph.nodes[c]!);
  if (v.dtypeName.startsWith('float') && readers.length > 0 && readers.every((r) => QUANTIZERS.includes(r.opType))) {
    return Math.max(...readers.map((r) => fileElement(values.get(r.outputs[0]!)!)));
  }
  return fileElement(v);
}

/** Bytes of a weight as stored: the integer data a load-time DequantizeLinear reads, else its own. */
export function storedWeightBytes(graph: InferredGraph, values: ReadonlyMap<string, InferredValue>, w: InferredValue): number {
  const producer = w.producer === undefined ? undefined : graph.nodes[w.producer];
  const data = producer !== undefined && DEQUANTIZERS.includes(producer.opType) ? values.get(producer.inputs[0]!) : undefined;
  return isInteger(data) && data!.bytes !== undefined ? data!.bytes : w.bytes ?? 0;
}

function textAttribute(node: InferredNode, key: string, fallback: string): string {
  const a = node.attributes?.[key];
  return typeof a === 'string' ? a : fallback;
}

/** Input rows (along an axis of `inSize` rows) a Resize or Upsample reads for output row `r` of `outSize` rows. */
export function resampledRows(node: InferredNode, r: number, inSize: number, outSize: number): number[] {
  const scale = outSize / inSize;
  const mode = node.opType === 'Upsample' ? 'asymmetric' : textAttribute(node, 'coordinate_transformation_mode', 'half_pixel');
  let x: number;
  if (mode === 'asymmetric') x = r / scale;
  else if (mode === 'align_corners') x = outSize === 1 ? 0 : (r * (inSize - 1)) / (outSize - 1);
  else if (mode === 'pytorch_half_pixel') x = outSize > 1 ? (r + 0.5) / scale - 0.5 : 0;
  else x = (r + 0.5) / scale - 0.5; // half_pixel, half_pixel_symmetric for whole factors
  const clamp = (i: number): number => Math.max(0, Math.min(inSize - 1, i));
  const interpolation = textAttribute(node, 'mode', 'nearest');
  if (interpolation !== 'nearest') return [...new Set([clamp(Math.floor(x)), clamp(Math.floor(x) + 1)])];
  const rounding = node.opType === 'Upsample' ? 'floor' : textAttribute(node, 'nearest_mode', 'round_prefer_floor');
  const frac = x - Math.floor(x);
  let i: number;
  if (rounding === 'floor') i = Math.floor(x);
  else if (rounding === 'ceil') i = Math.ceil(x);
  else if (frac === 0.5) i = rounding === 'round_prefer_ceil' ? Math.ceil(x) : Math.floor(x);
  else i = Math.round(x);
  return [clamp(i)];
}

/** What the checker reads of the graph. */
export interface CheckGraph {
  readonly graph: InferredGraph;
  readonly values: ReadonlyMap<string, InferredValue>;
}

/** Window of a node along axis 2 (H) or 3 (W), read from its attributes and weights (a TFLite node's: check-tflite.ts). */
export function windowOf(g: CheckGraph, node: InferredNode, axis: 2 | 3): Window {
  if (hasTfliteWindow(node)) return tfliteWindowOf(g.values, node, axis);
  const i = axis - 2;
  const attr = (key: string): readonly number[] | undefined => {
    const a = node.attributes?.[key];
    return Array.isArray(a) ? (a as readonly number[]) : undefined;
  };
  const input = g.values.get(node.inputs[0] ?? '');
  if (GLOBAL_POOLS.includes(node.opType)) return { k: input?.shape?.[axis] ?? 1, s: 1, p: 0, d: 1 };
  if (CONV_WEIGHT[node.opType] === undefined && !node.opType.endsWith('Pool')) return { k: 1, s: 1, p: 0, d: 1 };
  const weight = CONV_WEIGHT[node.opType] === undefined ? undefined : g.values.get(node.inputs[CONV_WEIGHT[node.opType]!] ?? '')?.shape;
  const k = attr('kernel_shape')?.[i] ?? weight?.[axis] ?? 1;
  const s = attr('strides')?.[i] ?? 1;
  const d = attr('dilations')?.[i] ?? 1;
  const mode = node.attributes?.auto_pad;
  if (mode === 'SAME_UPPER' || mode === 'SAME_LOWER') {
    // the pads that give the output its size: (out - 1) * s + extent = in + pads
    const out = g.values.get(node.outputs[0] ?? '')?.shape?.[axis] ?? 1;
    const total = Math.max(0, (out - 1) * s + (k - 1) * d + 1 - (input?.shape?.[axis] ?? 1));
    return { k, s, p: mode === 'SAME_UPPER' ? total >> 1 : total - (total >> 1), d };
  }
  return { k, s, p: mode === 'VALID' ? 0 : attr('pads')?.[i] ?? 0, d };
}
