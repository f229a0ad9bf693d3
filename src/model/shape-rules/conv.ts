// Shape rules for sliding-window ops: Conv, ConvInteger, QLinearConv,
// DeformConv, ConvTranspose, the pools (max, average, Lp, global), MaxUnpool and the
// region-of-interest pools. Pure functions over TensorFacts; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { intsOr, onnxTable, windowOutput, windowSettings } from './rule-helpers';
import { fail, guardRules, inputFact, inputValue, makeFact, requireInput, requireShape, unknownDimsOf } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** Spatial rank of an N×C×spatial input, taken from X, else from the weights or kernel_shape. */
function spatialRank(x: readonly Dim[] | undefined, w: readonly Dim[] | undefined, ctx: RuleContext): number {
  const shape = x ?? w;
  if (shape !== undefined && shape.length < 2) fail(`${x === undefined ? 'the weight' : 'the input'} has rank ${shape.length}, without the batch and channel axes`);
  if (shape !== undefined) return shape.length - 2;
  const kernel = ctx.ints('kernel_shape');
  if (kernel !== undefined) return kernel.length;
  return fail('rank of the input is unknown');
}

/** Kernel sizes from kernel_shape, else from the weight's trailing dims. */
function kernelOf(ctx: RuleContext, w: readonly Dim[] | undefined, n: number): number[] | undefined {
  const attr = ctx.ints('kernel_shape');
  if (attr !== undefined) return [...attr];
  if (w === undefined || w.length !== n + 2) return undefined;
  const dims = w.slice(2);
  return dims.every((d) => d !== undefined) ? (dims as number[]) : undefined;
}

/** Output spatial dims of a forward sliding window, or all unknown when the kernel is unknown. */
function forwardSpatial(ctx: RuleContext, x: readonly Dim[] | undefined, kernel: readonly number[] | undefined, n: number): Dim[] {
  if (kernel === undefined) return new Array<Dim>(n).fill(undefined);
  if (kernel.length !== n) fail(`kernel has ${kernel.length} dims but the input has ${n} spatial dims`);
  const win = windowSettings(ctx, kernel);
  return win.axes.map((axis, i) => windowOutput(x?.[i + 2], axis, win.autoPad, win.ceilMode));
}

/** Conv-like: inputs X at `xIndex`, W at `wIndex`; the output type is `dtype(ctx)`. */
function convLike(xIndex: number, wIndex: number, dtype: (ctx: RuleContext) => DataTypeCode | undefined): ShapeRule {
  return (ctx) => {
    const x = requireInput(ctx, xIndex, 'X').shape;
    const w = inputFact(ctx, wIndex)?.shape;
    const n = spatialRank(x, w, ctx);
    const spatial = forwardSpatial(ctx, x, kernelOf(ctx, w, n), n);
    return [makeFact(dtype(ctx), [x?.[0], w?.[0], ...spatial])];
  };
}

/** ConvTranspose: output_shape when given, else stride·(in−1) + output_padding + span − pads. */
function convTransposeRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const x = xFact.shape;
  const w = inputFact(ctx, 1)?.shape;
  const n = spatialRank(x, w, ctx);
  const group = ctx.int('group', 1);
  const channels = w?.[1] === undefined ? undefined : w[1] * group;
  return [makeFact(xFact.dtype, [x?.[0], channels, ...transposeSpatial(ctx, x, kernelOf(ctx, w, n), n)])];
}

function transposeSpatial(ctx: RuleContext, x: readonly Dim[] | undefined, kernel: readonly number[] | undefined, n: number): Dim[] {
  const outputShape = ctx.ints('output_shape');
  if (outputShape !== undefined) return outputShape.slice(outputShape.length - n);
  if (kernel === undefined) return new Array<Dim>(n).fill(undefined);
  const win = windowSettings(ctx, kernel);
  const outputPadding = intsOr(ctx, 'output_padding', n, 0);
  return win.axes.map((axis, i) => {
    const size = x?.[i + 2];
    if (size === undefined) return undefined;
    if (win.autoPad === 'SAME_UPPER' || win.autoPad === 'SAME_LOWER') return size * axis.stride;
    const pads = win.autoPad === 'VALID' ? 0 : axis.padBegin + axis.padEnd;
    const out = axis.stride * (size - 1) + (outputPadding[i] ?? 0) + (axis.kernel - 1) * axis.dilation + 1 - pads;
    return out >= 0 ? out : undefined;
  });
}

/** MaxPool / AveragePool / LpPool: N, C, windowed spatial dims; MaxPool adds int64 indices. */
function poolRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const x = requireShape(xFact, 'input');
  const kernel = ctx.ints('kernel_shape');
  if (kernel === undefined) fail('kernel_shape is missing');
  const shape = [x[0], x[1], ...forwardSpatial(ctx, x, kernel, x.length - 2)];
  return [makeFact(xFact.dtype, shape), makeFact(DT.INT64, shape)];
}

/** GlobalAveragePool / GlobalMaxPool / GlobalLpPool: every spatial dim becomes 1. */
function globalPoolRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const x = requireShape(xFact, 'input');
  return [makeFact(xFact.dtype, [x[0], x[1], ...x.slice(2).map(() => 1)])];
}

/** MaxUnpool: the output_shape input when constant, else (in−1)·stride + kernel − pads. */
function maxUnpoolRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const given = inputValue(ctx, 2);
  if (given !== undefined) return [makeFact(xFact.dtype, given)];
  if (inputFact(ctx, 2) !== undefined) {
    return [makeFact(xFact.dtype, unknownDimsOf(inputFact(ctx, 2)?.shape?.[0], 'MaxUnpool output_shape length'))];
  }
  const x = requireShape(xFact, 'input');
  const kernel = ctx.ints('kernel_shape');
  if (kernel === undefined) fail('kernel_shape is missing');
  const win = windowSettings(ctx, kernel);
  const spatial = win.axes.map((axis, i) => {
    const size = x[i + 2];
    return size === undefined ? undefined : (size - 1) * axis.stride + axis.kernel - axis.padBegin - axis.padEnd;
  });
  return [makeFact(xFact.dtype, [x[0], x[1], ...spatial])];
}

/** MaxRoiPool: one pooled_shape map per region of interest. */
function maxRoiPoolRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const rois = requireInput(ctx, 1, 'rois').shape;
  const pooled = ctx.ints('pooled_shape');
  if (pooled === undefined || pooled.length !== 2) fail('pooled_shape must have two values');
  return [makeFact(xFact.dtype, [rois?.[0], xFact.shape?.[1], pooled[0], pooled[1]])];
}

/** RoiAlign: [num_rois, C, output_height, output_width]. */
function roiAlignRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'X');
  const rois = requireInput(ctx, 1, 'rois').shape;
  const shape = [rois?.[0], xFact.shape?.[1], ctx.int('output_height', 1), ctx.int('output_width', 1)];
  return [makeFact(xFact.dtype, shape)];
}

const typeOfInput =
  (index: number, fallback?: DataTypeCode) =>
  (ctx: RuleContext): DataTypeCode | undefined =>
    inputFact(ctx, index)?.dtype ?? fallback;

/** Shape rules for convolutions and pools. */
export const convRules = guardRules(
  onnxTable({
    Conv: convLike(0, 1, typeOfInput(0)),
    ConvInteger: convLike(0, 1, () => DT.INT32),
    QLinearConv: convLike(0, 3, (ctx) => inputFact(ctx, 7)?.dtype ?? inputFact(ctx, 0)?.dtype),
    DeformConv: convLike(0, 1, typeOfInput(0)),
    ConvTranspose: convTransposeRule,
    MaxPool: poolRule,
    AveragePool: poolRule,
    LpPool: poolRule,
    GlobalAveragePool: globalPoolRule,
    GlobalMaxPool: globalPoolRule,
    GlobalLpPool: globalPoolRule,
    MaxUnpool: maxUnpoolRule,
    MaxRoiPool: maxRoiPoolRule,
    RoiAlign: roiAlignRule,
  }),
);
