// Helpers shared by the tensor, control, data-dependent and com.microsoft shape
// rules: building facts, reading constant inputs, axes and index arithmetic on
// small constant values. Pure functions over TensorFacts; no DOM, no ONNX types.

import type { DataTypeCode } from '../ir';
import type { Dim, RuleContext, RuleResult, RuleTable, ShapeRule, TensorFact } from './types';

/** Constant values are propagated only for tensors up to this many elements. */
export const MAX_VALUE_ELEMENTS = 4096;

/**
 * The largest rank inference accepts. ONNX tensors of a rank past a few hundred
 * are not real; a rank taken from a huge dim (a shape input of length 2^31)
 * is an impossible shape, never an array of that length.
 */
export const MAX_RANK = 256;

/** Sequences with more elements than this are kept as one merged element, never listed. */
export const MAX_LISTED_ELEMENTS = 4096;

/** Thrown inside a rule when the node cannot be inferred; `guardRules` turns it into `{ unknown }`. */
export class RuleFailure extends Error {
  override name = 'RuleFailure';
}

/** Stops the current rule with a reason the user will read in the diagnostics. */
export function fail(reason: string): never {
  throw new RuleFailure(reason);
}

/** Wraps every rule so that a `fail(...)` inside it becomes `{ unknown: reason }`. */
export function guardRules(rules: Readonly<Record<string, ShapeRule>>): RuleTable {
  const guarded: Record<string, ShapeRule> = {};
  for (const [key, rule] of Object.entries(rules)) {
    guarded[key] = (ctx: RuleContext): RuleResult => {
      try {
        return rule(ctx);
      } catch (error) {
        if (error instanceof RuleFailure) return { unknown: error.message };
        throw error;
      }
    };
  }
  return guarded;
}

/** Product of the dims, or undefined when any is unknown. */
export function product(dims: readonly Dim[]): number | undefined {
  let total = 1;
  for (const dim of dims) {
    if (dim === undefined) return undefined;
    total *= dim;
  }
  return total;
}

/** Number of elements of a shape; undefined when the rank or a dim is unknown. */
export function numel(shape: readonly Dim[] | undefined): number | undefined {
  return shape === undefined ? undefined : product(shape);
}

/** True when every dim of the shape is known. */
export function isKnownShape(shape: readonly Dim[] | undefined): shape is readonly number[] {
  return shape !== undefined && shape.every((dim) => dim !== undefined);
}

/**
 * A fact for a tensor. The value is kept only when it is small and matches the
 * shape's element count, so facts never carry a value that contradicts them.
 */
export function makeFact(
  dtype: DataTypeCode | undefined,
  shape: readonly Dim[] | undefined,
  value?: readonly number[],
): TensorFact {
  const count = numel(shape);
  if (value !== undefined && count !== undefined && value.length === count && count <= MAX_VALUE_ELEMENTS) {
    return { dtype, shape, value };
  }
  return { dtype, shape };
}

/** A rank read from a dim or a count; fails (never allocates) when it cannot be a real rank. */
export function checkedRank(rank: number, what = 'rank'): number {
  if (!Number.isInteger(rank) || rank < 0) fail(`${what} ${rank} is not a rank`);
  if (rank > MAX_RANK) fail(`${what} ${rank} is past ${MAX_RANK}, which no real tensor has`);
  return rank;
}

/** A shape of `rank` unknown dims; fails on a rank past MAX_RANK. */
export function unknownDims(rank: number): Dim[] {
  return new Array<Dim>(checkedRank(rank)).fill(undefined);
}

/** `rank` unknown dims, or an unknown rank when `rank` is unknown; fails on a rank past MAX_RANK. */
export function unknownDimsOf(rank: Dim, what = 'rank'): Dim[] | undefined {
  return rank === undefined ? undefined : new Array<Dim>(checkedRank(rank, what)).fill(undefined);
}

/** The fact of input `index`, or undefined when the input is left out. */
export function inputFact(ctx: RuleContext, index: number): TensorFact | undefined {
  if ((ctx.node.inputs[index] ?? '') === '') return undefined;
  return ctx.inputs[index];
}

/** The fact of a required input; fails when the input is missing. */
export function requireInput(ctx: RuleContext, index: number, what: string): TensorFact {
  const fact = inputFact(ctx, index);
  if (fact === undefined) fail(`${ctx.node.opType} needs its ${what} input`);
  return fact;
}

/** The shape of a fact; fails when its rank is unknown. */
export function requireShape(fact: TensorFact | undefined, what: string): readonly Dim[] {
  if (fact?.shape === undefined) fail(`rank of the ${what} is unknown`);
  return fact.shape;
}

/** The constant value of input `index`, when known. */
export function inputValue(ctx: RuleContext, index: number): readonly number[] | undefined {
  return inputFact(ctx, index)?.value;
}

/** The constant scalar (or one-element tensor) at input `index`, when known. */
export function inputScalar(ctx: RuleContext, index: number): number | undefined {
  const value = inputValue(ctx, index);
  return value !== undefined && value.length === 1 ? value[0] : undefined;
}

/** Normalises a possibly negative axis against `rank`; fails when out of range. */
export function normalizeAxis(axis: number, rank: number, what = 'axis'): number {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    fail(`${what} ${axis} is out of range for rank ${rank}`);
  }
  return axis < 0 ? axis + rank : axis;
}

/** Normalises a list of axes; fails on an out-of-range or repeated axis. */
export function normalizeAxes(axes: readonly number[], rank: number, what = 'axes'): number[] {
  const result = axes.map((axis) => normalizeAxis(axis, rank, what));
  if (new Set(result).size !== result.length) fail(`${what} [${axes.join(', ')}] repeat an axis`);
  return result;
}

/** Row-major strides of a concrete shape. */
export function stridesOf(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length).fill(1);
  for (let axis = shape.length - 2; axis >= 0; axis--) {
    strides[axis] = (strides[axis + 1] ?? 1) * (shape[axis + 1] ?? 1);
  }
  return strides;
}

/**
 * Builds the value of a small output tensor element by element: `source` maps
 * an output index (one coordinate per axis) to a value, or undefined when the
 * element cannot be computed. Undefined when the output is too large or any
 * element is unknown.
 */
export function buildValues(
  outShape: readonly Dim[],
  source: (index: readonly number[]) => number | undefined,
): number[] | undefined {
  if (!isKnownShape(outShape)) return undefined;
  const count = product(outShape) ?? 0;
  if (count > MAX_VALUE_ELEMENTS) return undefined;
  const index = new Array<number>(outShape.length).fill(0);
  const values: number[] = [];
  for (let flat = 0; flat < count; flat++) {
    const value = source(index);
    if (value === undefined) return undefined;
    values.push(value);
    for (let axis = outShape.length - 1; axis >= 0; axis--) {
      index[axis] = (index[axis] ?? 0) + 1;
      if ((index[axis] ?? 0) < (outShape[axis] ?? 0)) break;
      index[axis] = 0;
    }
  }
  return values;
}

/** Reads element `index` of a row-major value with the given strides. */
export function valueAt(value: readonly number[], strides: readonly number[], index: readonly number[]): number | undefined {
  let flat = 0;
  for (let axis = 0; axis < index.length; axis++) flat += (index[axis] ?? 0) * (strides[axis] ?? 0);
  return value[flat];
}

/** Two dims merged for a value that may take either: equal dims stay, differing become unknown. */
export function mergeDim(a: Dim, b: Dim): Dim {
  return a === b ? a : undefined;
}

/** Two facts merged for a value that may be either (If branches, loop-carried values). */
export function mergeFacts(a: TensorFact | undefined, b: TensorFact | undefined): TensorFact | undefined {
  if (a === undefined || b === undefined) return undefined;
  const dtype = a.dtype === b.dtype ? a.dtype : undefined;
  let shape: Dim[] | undefined;
  if (a.shape !== undefined && b.shape !== undefined && a.shape.length === b.shape.length) {
    shape = a.shape.map((dim, axis) => mergeDim(dim, b.shape?.[axis]));
  }
  const sameValue =
    a.value !== undefined && b.value !== undefined && a.value.length === b.value.length && a.value.every((v, i) => v === b.value?.[i]);
  const merged = makeFact(dtype, shape, sameValue ? a.value : undefined);
  const upperBound = a.upperBound === true || b.upperBound === true;
  return upperBound ? { ...merged, upperBound } : merged;
}

/** Formats a shape for messages: [2, ?, 8]. */
export function formatShape(shape: readonly Dim[] | undefined): string {
  if (shape === undefined) return '<unknown rank>';
  return `[${shape.map((dim) => (dim === undefined ? '?' : String(dim))).join(', ')}]`;
}
