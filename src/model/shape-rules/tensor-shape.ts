// Shape rules for ops that reinterpret a tensor's shape (Shape, Size, Reshape,
// Flatten, Squeeze, Unsqueeze, Transpose, Identity), propagating constant values.
// Pure functions over TensorFacts; no DOM.

import { DT } from '../dtype';
import { formatLargeCount } from '../../shared/format';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import {
  buildValues,
  fail,
  formatShape,
  inputFact,
  inputValue,
  isKnownShape,
  makeFact,
  normalizeAxes,
  numel,
  product,
  requireInput,
  requireShape,
  stridesOf,
  unknownDims,
  valueAt,
} from './tensor-facts';

/** Shape (opset 15+: start/end attributes clamp like Python slicing). */
function shapeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  if (data.shape === undefined) return [makeFact(DT.INT64, [undefined])];
  const rank = data.shape.length;
  const clamp = (index: number): number => Math.min(Math.max(index < 0 ? index + rank : index, 0), rank);
  const start = clamp(ctx.int('start', 0));
  const end = clamp(ctx.int('end', rank));
  const dims = data.shape.slice(start, Math.max(start, end));
  return [makeFact(DT.INT64, [dims.length], isKnownShape(dims) ? dims : undefined)];
}

function sizeRule(ctx: RuleContext): RuleResult {
  const count = numel(requireInput(ctx, 0, 'data').shape);
  return [makeFact(DT.INT64, [], count === undefined ? undefined : [count])];
}

/** The same data under a new shape: the constant value carries over unchanged. */
function reshaped(data: TensorFact, shape: readonly Dim[] | undefined): TensorFact {
  return makeFact(data.dtype, shape, data.value);
}

/** Resolves a Reshape target: 0 copies the input dim (unless allowzero), one -1 takes the rest. */
export function reshapeTarget(input: readonly Dim[] | undefined, target: readonly number[], allowZero: boolean): Dim[] {
  let inferAxis = -1;
  const dims: Dim[] = target.map((dim, axis) => {
    if (dim === -1) {
      if (inferAxis >= 0) fail(`Reshape target ${formatShape(target)} has more than one -1`);
      inferAxis = axis;
      return undefined;
    }
    if (dim < -1) fail(`Reshape target ${formatShape(target)} has a negative dim`);
    if (dim === 0 && !allowZero) {
      if (input !== undefined && axis >= input.length) fail(`Reshape target copies dim ${axis} of a rank-${input.length} input`);
      return input?.[axis];
    }
    return dim;
  });
  if (inferAxis >= 0) {
    const total = numel(input);
    const rest = product(dims.filter((_, axis) => axis !== inferAxis));
    if (total !== undefined && rest !== undefined) {
      if (rest === 0 || total % rest !== 0) fail(`cannot reshape ${formatShape(input)} to ${formatShape(target)}`);
      dims[inferAxis] = total / rest;
    }
  }
  const before = numel(input);
  const after = product(dims);
  if (before !== undefined && after !== undefined && before !== after) {
    fail(`cannot reshape ${formatShape(input)} (${formatLargeCount(before)} elements) to ${formatShape(dims)} (${formatLargeCount(after)} elements)`);
  }
  return dims;
}

function reshapeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const allowZero = ctx.int('allowzero', 0) !== 0;
  const target = ctx.opset < 5 ? ctx.ints('shape') : inputValue(ctx, 1);
  if (target === undefined) {
    const rank = ctx.opset < 5 ? undefined : inputFact(ctx, 1)?.shape?.[0];
    const note = 'the Reshape target is not a constant';
    return [{ ...reshaped(data, rank === undefined ? undefined : unknownDims(rank)), note }];
  }
  return [reshaped(data, reshapeTarget(data.shape, target, allowZero))];
}

function flattenRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const shape = requireShape(data, 'Flatten input');
  const rank = shape.length;
  const axis = ctx.int('axis', 1);
  if (axis < -rank || axis > rank) fail(`Flatten axis ${axis} is out of range for rank ${rank}`);
  const split = axis < 0 ? axis + rank : axis;
  return [reshaped(data, [product(shape.slice(0, split)), product(shape.slice(split))])];
}

/** Axes of Squeeze/Unsqueeze: an attribute before opset 13, an input from 13 on. */
function axesOf(ctx: RuleContext): readonly number[] | undefined | 'unknown' {
  if (ctx.opset < 13) return ctx.ints('axes');
  if (inputFact(ctx, 1) === undefined) return undefined;
  return inputValue(ctx, 1) ?? 'unknown';
}

function squeezeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const axes = axesOf(ctx);
  if (axes === 'unknown') return [{ ...reshaped(data, undefined), note: 'the Squeeze axes are not a constant' }];
  const shape = data.shape;
  if (shape === undefined) return [reshaped(data, undefined)];
  if (axes === undefined) {
    if (!isKnownShape(shape)) return [{ ...reshaped(data, undefined), note: 'Squeeze without axes on a shape with unknown dims' }];
    return [reshaped(data, shape.filter((dim) => dim !== 1))];
  }
  const drop = new Set(normalizeAxes(axes, shape.length, 'Squeeze axes'));
  for (const axis of drop) {
    const dim = shape[axis];
    if (dim !== undefined && dim !== 1) fail(`Squeeze axis ${axis} has size ${dim}, not 1`);
  }
  return [reshaped(data, shape.filter((_, axis) => !drop.has(axis)))];
}

function unsqueezeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const axes = axesOf(ctx);
  if (axes === undefined) fail('Unsqueeze needs axes');
  if (axes === 'unknown') return [{ ...reshaped(data, undefined), note: 'the Unsqueeze axes are not a constant' }];
  if (data.shape === undefined) return [reshaped(data, undefined)];
  const outRank = data.shape.length + axes.length;
  const inserted = new Set(normalizeAxes(axes, outRank, 'Unsqueeze axes'));
  const rest = [...data.shape];
  const shape: Dim[] = [];
  for (let axis = 0; axis < outRank; axis++) shape.push(inserted.has(axis) ? 1 : rest.shift());
  return [reshaped(data, shape)];
}

function transposeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  if (data.shape === undefined) return [makeFact(data.dtype, undefined)];
  const rank = data.shape.length;
  const given = ctx.ints('perm');
  const perm = given ?? Array.from({ length: rank }, (_, axis) => rank - 1 - axis);
  if (perm.length !== rank) fail(`Transpose perm [${perm.join(', ')}] does not match rank ${rank}`);
  const axes = normalizeAxes(perm, rank, 'Transpose perm');
  const inShape = data.shape;
  const shape = axes.map((axis) => inShape[axis]);
  let value: number[] | undefined;
  if (data.value !== undefined && isKnownShape(inShape)) {
    const strides = stridesOf(inShape);
    const inIndex = new Array<number>(rank).fill(0);
    value = buildValues(shape, (outIndex) => {
      axes.forEach((axis, outAxis) => (inIndex[axis] = outIndex[outAxis] ?? 0));
      return valueAt(data.value ?? [], strides, inIndex);
    });
  }
  return [makeFact(data.dtype, shape, value)];
}

/** Identity passes its input's fact through, value included (also for sequences and optionals). */
function identityRule(ctx: RuleContext): RuleResult {
  return [requireInput(ctx, 0, 'input')];
}

/** Shape rules for ops that reinterpret shapes. */
export const shapeOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Shape': shapeRule,
  '::Size': sizeRule,
  '::Reshape': reshapeRule,
  '::Flatten': flattenRule,
  '::Squeeze': squeezeRule,
  '::Unsqueeze': unsqueezeRule,
  '::Transpose': transposeRule,
  '::Identity': identityRule,
};
