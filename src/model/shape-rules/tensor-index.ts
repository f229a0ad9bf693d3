// Shape rules for indexing ops: Slice, Gather, GatherElements, GatherND and the
// Scatter family, computing constant values of small tensors (shape vectors).
// Pure functions over TensorFacts; no DOM.

import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';
import {
  buildValues,
  fail,
  inputFact,
  inputValue,
  isKnownShape,
  makeFact,
  normalizeAxes,
  normalizeAxis,
  requireInput,
  requireShape,
  checkedRank,
  stridesOf,
  unknownDims,
  valueAt,
} from './tensor-facts';

/** One sliced axis: where it starts, its step and how many elements it keeps. */
interface AxisSlice {
  readonly start: number;
  readonly step: number;
  readonly length: number;
}

/** Clamps start/end like the ONNX spec (and Python slicing) and counts the elements kept. */
export function sliceAxis(dim: number, start: number, end: number, step: number): AxisSlice {
  if (step === 0) fail('Slice step is 0');
  let first = start < 0 ? start + dim : start;
  let last = end < 0 ? end + dim : end;
  if (step > 0) {
    first = Math.min(Math.max(first, 0), dim);
    last = Math.min(Math.max(last, 0), dim);
  } else {
    first = Math.min(Math.max(first, 0), dim - 1);
    last = Math.min(Math.max(last, -1), dim - 1);
  }
  return { start: first, step, length: Math.max(0, Math.ceil((last - first) / step)) };
}

/** Slice parameters: attributes before opset 10, inputs from 10 on. Undefined entries are not constant. */
function sliceParams(ctx: RuleContext): {
  starts: readonly number[] | undefined;
  ends: readonly number[] | undefined;
  axes: readonly number[] | undefined | 'unknown';
  steps: readonly number[] | undefined | 'unknown';
} {
  if (ctx.opset < 10) return { starts: ctx.ints('starts'), ends: ctx.ints('ends'), axes: ctx.ints('axes'), steps: undefined };
  const optional = (index: number): readonly number[] | undefined | 'unknown' =>
    inputFact(ctx, index) === undefined ? undefined : (inputValue(ctx, index) ?? 'unknown');
  return { starts: inputValue(ctx, 1), ends: inputValue(ctx, 2), axes: optional(3), steps: optional(4) };
}

function sliceRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const shape = data.shape;
  if (shape === undefined) return [makeFact(data.dtype, undefined)];
  const { starts, ends, axes, steps } = sliceParams(ctx);
  const rank = shape.length;
  if (axes === 'unknown') return [{ ...makeFact(data.dtype, unknownDims(rank)), note: 'the Slice axes are not a constant' }];
  const count = starts?.length ?? ends?.length ?? axes?.length ?? (ctx.opset >= 10 ? inputFact(ctx, 1)?.shape?.[0] : undefined);
  const axisList = normalizeAxes(axes ?? Array.from({ length: checkedRank(count ?? rank, 'Slice starts length') }, (_, i) => i), rank, 'Slice axes');
  if (starts === undefined || ends === undefined || steps === 'unknown') {
    const out = shape.map((dim, axis) => (axisList.includes(axis) ? undefined : dim));
    return [{ ...makeFact(data.dtype, out), note: 'the Slice bounds are not constants' }];
  }
  if (starts.length !== axisList.length || ends.length !== axisList.length || (steps !== undefined && steps.length !== axisList.length)) {
    fail('Slice starts, ends, axes and steps differ in length');
  }
  const slices = new Map<number, AxisSlice | undefined>();
  axisList.forEach((axis, i) => {
    const dim = shape[axis];
    const slice = dim === undefined ? undefined : sliceAxis(dim, starts[i] ?? 0, ends[i] ?? 0, steps?.[i] ?? 1);
    slices.set(axis, slice);
  });
  const out: Dim[] = shape.map((dim, axis) => (slices.has(axis) ? slices.get(axis)?.length : dim));
  let value: number[] | undefined;
  if (data.value !== undefined && isKnownShape(shape)) {
    const strides = stridesOf(shape);
    const inIndex = new Array<number>(rank).fill(0);
    value = buildValues(out, (outIndex) => {
      outIndex.forEach((i, axis) => {
        const slice = slices.get(axis);
        inIndex[axis] = slice === undefined ? i : slice.start + i * slice.step;
      });
      return valueAt(data.value ?? [], strides, inIndex);
    });
  }
  return [makeFact(data.dtype, out, value)];
}

function gatherRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const indices = requireInput(ctx, 1, 'indices');
  const dataShape = requireShape(data, 'Gather data');
  const axis = normalizeAxis(ctx.int('axis', 0), dataShape.length, 'Gather axis');
  if (indices.shape === undefined) return [makeFact(data.dtype, undefined)];
  const indexShape = indices.shape;
  const q = indexShape.length;
  const out = [...dataShape.slice(0, axis), ...indexShape, ...dataShape.slice(axis + 1)];
  let value: number[] | undefined;
  const dim = dataShape[axis];
  if (data.value !== undefined && indices.value !== undefined && isKnownShape(dataShape) && isKnownShape(indexShape) && dim !== undefined) {
    const strides = stridesOf(dataShape);
    const indexStrides = stridesOf(indexShape);
    value = buildValues(out, (outIndex) => {
      const raw = valueAt(indices.value ?? [], indexStrides, outIndex.slice(axis, axis + q)) ?? 0;
      if (raw < -dim || raw >= dim) fail(`Gather index ${raw} is out of range for a dim of ${dim}`);
      const inIndex = [...outIndex.slice(0, axis), raw < 0 ? raw + dim : raw, ...outIndex.slice(axis + q)];
      return valueAt(data.value ?? [], strides, inIndex);
    });
  }
  return [makeFact(data.dtype, out, value)];
}

function gatherElementsRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const indices = requireInput(ctx, 1, 'indices');
  const dataShape = requireShape(data, 'GatherElements data');
  const axis = normalizeAxis(ctx.int('axis', 0), dataShape.length, 'GatherElements axis');
  const shape = indices.shape;
  if (shape !== undefined && shape.length !== dataShape.length) fail('GatherElements indices and data differ in rank');
  let value: number[] | undefined;
  const dim = dataShape[axis];
  if (data.value !== undefined && indices.value !== undefined && isKnownShape(dataShape) && isKnownShape(shape) && dim !== undefined) {
    const strides = stridesOf(dataShape);
    const indexStrides = stridesOf(shape);
    value = buildValues(shape, (outIndex) => {
      const raw = valueAt(indices.value ?? [], indexStrides, outIndex) ?? 0;
      const inIndex = [...outIndex];
      inIndex[axis] = raw < 0 ? raw + dim : raw;
      return valueAt(data.value ?? [], strides, inIndex);
    });
  }
  return [makeFact(data.dtype, shape, value)];
}

function gatherNdRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const indices = requireInput(ctx, 1, 'indices');
  const dataShape = requireShape(data, 'GatherND data');
  const indexShape = requireShape(indices, 'GatherND indices');
  const batchDims = ctx.int('batch_dims', 0);
  const depth = indexShape[indexShape.length - 1];
  if (indexShape.length === 0) fail('GatherND indices must have rank 1 or more');
  if (depth === undefined) return [{ ...makeFact(data.dtype, undefined), note: 'the last dim of the GatherND indices is unknown' }];
  if (batchDims + depth > dataShape.length) fail(`GatherND reads ${batchDims + depth} axes of a rank-${dataShape.length} tensor`);
  return [makeFact(data.dtype, [...indexShape.slice(0, -1), ...dataShape.slice(batchDims + depth)])];
}

/** Scatter ops write into a copy of `data`: same type and shape. */
function scatterRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  return [makeFact(data.dtype, data.shape)];
}

/** Shape rules for indexing ops. */
export const indexOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Slice': sliceRule,
  '::Gather': gatherRule,
  '::GatherElements': gatherElementsRule,
  '::GatherND': gatherNdRule,
  '::Scatter': scatterRule,
  '::ScatterElements': scatterRule,
  '::ScatterND': scatterRule,
};
