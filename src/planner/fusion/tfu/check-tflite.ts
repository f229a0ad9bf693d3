// The independent checker's own reading of TensorFlow Lite ops (METHODS.md
// M2, M5): which builtins play which part, where C, H and W sit in a node's
// maps (NHWC for TFLite, NCHW otherwise), and a TFLite window from the
// builtin options, with the SAME pad worked out from the output's size.
// Shares no code with the builder. Depends only on the model's IR types.

import type { InferredNode, InferredValue } from '../../../model/inferred';

/** A window along one axis: kernel, stride, leading pad, dilation. */
export interface Window { readonly k: number; readonly s: number; readonly p: number; readonly d: number }

/** TFLite convolutions and the index of their filter ([out, kh, kw, in]; depthwise [1, kh, kw, out]). */
export const TFLITE_FILTER: Readonly<Record<string, number>> = { CONV_2D: 1, DEPTHWISE_CONV_2D: 1 };
/** TFLite pools (a window of filter_height × filter_width). */
export const TFLITE_POOLS = ['AVERAGE_POOL_2D', 'MAX_POOL_2D'];
/** TFLite main layers. */
export const TFLITE_MAIN = [...Object.keys(TFLITE_FILTER), ...TFLITE_POOLS, 'FULLY_CONNECTED'];
/** TFLite element-wise arithmetic. */
export const TFLITE_SCALAR = ['ADD', 'SUB', 'MUL', 'DIV', 'MAXIMUM', 'MINIMUM'];
/** TFLite activations. */
export const TFLITE_VECTOR = ['RELU', 'RELU6', 'RELU_N1_TO_1', 'RELU_0_TO_1', 'LOGISTIC', 'TANH', 'HARD_SWISH', 'LEAKY_RELU', 'PRELU', 'ELU', 'GELU'];
/** TFLite type conversions. */
export const TFLITE_CONVERT = ['QUANTIZE', 'DEQUANTIZE', 'CAST'];

/** Positions of N, C, H and W in a node's 4-D maps. */
export interface MapDims { readonly n: number; readonly c: number; readonly h: number; readonly w: number }

const isTflite = (node: InferredNode): boolean => node.domain === 'tflite' || node.domain === 'tflite.custom';

/** Where a node keeps N, C, H and W: NHWC for a TFLite op, NCHW otherwise. */
export function mapDims(node: InferredNode): MapDims {
  return isTflite(node) ? { n: 0, c: 3, h: 1, w: 2 } : { n: 0, c: 1, h: 2, w: 3 };
}

/** The dim of a weight of `node` holding its output channels: the last of a TFLite depthwise filter, else the first. */
export function weightChannelDim(node: InferredNode, weight: InferredValue): number {
  return isTflite(node) && node.opType === 'DEPTHWISE_CONV_2D' && weight.shape?.length === 4 ? 3 : 0;
}

/** True for a TFLite convolution or pool: its window is read by tfliteWindowOf. */
export function hasTfliteWindow(node: InferredNode): boolean {
  return isTflite(node) && (TFLITE_FILTER[node.opType] !== undefined || TFLITE_POOLS.includes(node.opType));
}

function numberOption(node: InferredNode, key: string): number | undefined {
  const value = node.attributes?.[key];
  return typeof value === 'number' ? value : undefined;
}

/**
 * The window of a TFLite convolution or pool along axis 2 (H) or 3 (W): the
 * kernel from the filter's dims 1 and 2 or filter_height / filter_width,
 * stride and dilation from the options (1 when absent); VALID (padding 1)
 * pads nothing, SAME pads what makes (out - 1) · s + extent cover the input,
 * the odd row at the end.
 */
export function tfliteWindowOf(values: ReadonlyMap<string, InferredValue>, node: InferredNode, axis: 2 | 3): Window {
  const at = axis - 1; // H and W are dims 1 and 2 of NHWC maps and of filters alike
  const suffix = axis === 2 ? 'h' : 'w';
  const pool = TFLITE_POOLS.includes(node.opType);
  const k = pool
    ? numberOption(node, axis === 2 ? 'filter_height' : 'filter_width') ?? 1
    : values.get(node.inputs[TFLITE_FILTER[node.opType] ?? 1] ?? '')?.shape?.[at] ?? 1;
  const s = Math.max(1, numberOption(node, `stride_${suffix}`) ?? 1);
  const d = pool ? 1 : Math.max(1, numberOption(node, `dilation_${suffix}_factor`) ?? 1);
  if (numberOption(node, 'padding') === 1) return { k, s, p: 0, d };
  const out = values.get(node.outputs[0] ?? '')?.shape?.[at] ?? 1;
  const size = values.get(node.inputs[0] ?? '')?.shape?.[at] ?? 1;
  const total = Math.max(0, (out - 1) * s + (k - 1) * d + 1 - size);
  return { k, s, p: Math.floor(total / 2), d };
}
