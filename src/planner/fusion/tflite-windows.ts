// The windows of TensorFlow Lite convolutions and pools for the fusion
// planners (METHODS.md M2, M5): kernel, stride, dilation and leading pad of H
// and W, and the group count, read from the builtin options and the NHWC
// filter as the TFLite kernels read them. Depends only on the model's IR types
// and the planner's op tables.
//
// - CONV_2D: filter [out, kh, kw, in]; group = input channels / in (1 but for
//   a grouped convolution).
// - DEPTHWISE_CONV_2D: filter [1, kh, kw, out]; group = input channels.
// - AVERAGE_POOL_2D, MAX_POOL_2D: filter_height × filter_width, no dilation.
// - padding 1 (VALID) pads nothing. padding 0 (SAME) pads as TFLite's
//   ComputePaddingHeightWidth: out = ceil(in / stride), total =
//   max((out - 1)·stride + (k - 1)·dilation + 1 - in, 0), leading pad
//   floor(total / 2), the odd pixel at the end.
// - A stride or dilation missing from the options (or below 1) counts as 1.

import type { InferredNode, InferredValue } from '../../model/inferred';
import { tfliteFilterInput } from '../problem/tflite-ops';
import { nchw } from './layout';

/** The window of a layer's H and W axes, each as [H, W], and its group count. */
export interface WindowGeometry {
  readonly kernel: readonly [number, number];
  readonly strides: readonly [number, number];
  readonly dilations: readonly [number, number];
  readonly pads: readonly [number, number]; // leading pad of H and W
  readonly group: number;
}

/** The TFLite padding option's values (schema.fbs `enum Padding`). */
const SAME = 0;
const VALID = 1;

const POOLS = new Set(['AVERAGE_POOL_2D', 'MAX_POOL_2D']);

function option(node: InferredNode, key: string, fallback: number): number {
  const value = node.attributes?.[key];
  return typeof value === 'number' ? value : fallback;
}

/** A stride or dilation factor: missing or below 1 counts as 1. */
function factor(node: InferredNode, key: string): number {
  return Math.max(1, option(node, key, 1));
}

/**
 * The leading pad of one axis under SAME padding, as TFLite computes it:
 * the output has ceil(size / stride) rows, and the rows the window needs
 * beyond the input are split with the odd one at the end.
 */
export function samePadBegin(size: number, kernel: number, stride: number, dilation: number): number {
  const out = Math.ceil(size / stride);
  const total = Math.max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size);
  return Math.floor(total / 2);
}

/**
 * The window of a TFLite CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D or
 * MAX_POOL_2D reading `input` (NHWC) with filter among `weights`; undefined
 * for other ops, which read no window.
 */
export function tfliteWindow(node: InferredNode, input: InferredValue | undefined, weights: readonly InferredValue[]): WindowGeometry | undefined {
  const kernel = kernelOf(node, weights);
  if (kernel === undefined) return undefined;
  const strides = [factor(node, 'stride_h'), factor(node, 'stride_w')] as const;
  const pool = POOLS.has(node.opType);
  const dilations = pool ? ([1, 1] as const) : ([factor(node, 'dilation_h_factor'), factor(node, 'dilation_w_factor')] as const);
  const [, c, h, w] = input === undefined ? [1, 1, 1, 1] : nchw(input, 'NHWC');
  const padding = option(node, 'padding', SAME);
  const pads = padding === VALID ? ([0, 0] as const) : ([samePadBegin(h, kernel[0], strides[0], dilations[0]), samePadBegin(w, kernel[1], strides[1], dilations[1])] as const);
  return { kernel, strides, dilations, pads, group: groupOf(node, c, weights) };
}

/** Kernel [kH, kW]: a pool's filter options, a convolution's filter dims 1 and 2; undefined for ops without a window. */
function kernelOf(node: InferredNode, weights: readonly InferredValue[]): readonly [number, number] | undefined {
  if (POOLS.has(node.opType)) return [Math.max(1, option(node, 'filter_height', 1)), Math.max(1, option(node, 'filter_width', 1))];
  if (node.opType !== 'CONV_2D' && node.opType !== 'DEPTHWISE_CONV_2D') return undefined;
  const shape = filterOf(node, weights)?.shape;
  return shape !== undefined && shape.length === 4 ? [shape[1]!, shape[2]!] : [1, 1];
}

function filterOf(node: InferredNode, weights: readonly InferredValue[]): InferredValue | undefined {
  const name = node.inputs[tfliteFilterInput(node) ?? 1];
  return weights.find((v) => v.name === name);
}

/** Group count: a depthwise convolution's input channels; a CONV_2D's input channels over its filter's; 1 for a pool. */
function groupOf(node: InferredNode, channels: number, weights: readonly InferredValue[]): number {
  if (node.opType === 'DEPTHWISE_CONV_2D') return channels;
  if (node.opType !== 'CONV_2D') return 1;
  const perGroup = filterOf(node, weights)?.shape?.[3];
  return perGroup !== undefined && perGroup > 0 && channels % perGroup === 0 ? channels / perGroup : 1;
}

/** The dim of a TFLite op's weight that holds the output channels: the last of a depthwise filter [1, kh, kw, out], else the first. */
export function tfliteWeightChannelDim(opType: string, weight: InferredValue): number {
  return opType === 'DEPTHWISE_CONV_2D' && weight.shape?.length === 4 ? 3 : 0;
}
