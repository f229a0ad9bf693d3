// Shape rules for ops that join, split or grow tensors: Concat, Split, Tile,
// Expand and Pad, computing constant values of small tensors (shape vectors).
// Pure functions over TensorFacts; no DOM.

import { broadcastShapes, foldElementwise } from './broadcast';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import {
  buildValues,
  fail,
  formatShape,
  inputFact,
  inputScalar,
  inputValue,
  isKnownShape,
  makeFact,
  MAX_VALUE_ELEMENTS,
  normalizeAxes,
  normalizeAxis,
  numel,
  requireInput,
  requireShape,
  checkedRank,
  stridesOf,
  unknownDims,
  valueAt,
} from './tensor-facts';

/** Sum of dims along the concat axis; undefined when any is unknown. */
function sumDims(dims: readonly Dim[]): Dim {
  let total = 0;
  for (const dim of dims) {
    if (dim === undefined) return undefined;
    total += dim;
  }
  return total;
}

/**
 * Joins facts along `axis` (the Concat semantics, also used by ConcatFromSequence
 * and QLinearConcat). The value is joined when every part's value is known.
 */
export function concatFacts(parts: readonly TensorFact[], axisAttr: number): TensorFact {
  const dtype = parts.find((part) => part.dtype !== undefined)?.dtype;
  const ranked = parts.find((part) => part.shape !== undefined)?.shape;
  if (ranked === undefined) return makeFact(dtype, undefined);
  const rank = ranked.length;
  const axis = normalizeAxis(axisAttr, rank, 'Concat axis');
  const shapes = parts.map((part) => part.shape ?? unknownDims(rank));
  if (shapes.some((shape) => shape.length !== rank)) fail('Concat inputs differ in rank');
  const out: Dim[] = ranked.map((_, i) =>
    i === axis ? sumDims(shapes.map((shape) => shape[i])) : shapes.find((shape) => shape[i] !== undefined)?.[i],
  );
  let value: number[] | undefined;
  if (parts.every((part) => part.value !== undefined && isKnownShape(part.shape))) {
    const starts: number[] = [];
    let offset = 0;
    for (const shape of shapes) {
      starts.push(offset);
      offset += shape[axis] ?? 0;
    }
    const strides = shapes.map((shape) => stridesOf(shape as readonly number[]));
    value = buildValues(out, (index) => {
      const along = index[axis] ?? 0;
      let k = starts.length - 1;
      while (k > 0 && (starts[k] ?? 0) > along) k--;
      const inIndex = [...index];
      inIndex[axis] = along - (starts[k] ?? 0);
      return valueAt(parts[k]?.value ?? [], strides[k] ?? [], inIndex);
    });
  }
  return makeFact(dtype, out, value);
}

function concatRule(ctx: RuleContext): RuleResult {
  const parts = ctx.node.inputs.map((_, i) => requireInput(ctx, i, `#${i}`));
  if (parts.length === 0) fail('Concat has no inputs');
  return [concatFacts(parts, ctx.int('axis', ctx.opset < 4 ? 1 : 0))];
}

/** Split sizes: an attribute before opset 13, an input from 13 on, or num_outputs (18+). */
function splitSizes(ctx: RuleContext, dim: Dim, outputs: number): readonly Dim[] | undefined {
  const fromInput = ctx.opset >= 13 || (ctx.opset < 2 && inputFact(ctx, 1) !== undefined);
  const given = fromInput ? inputValue(ctx, 1) : ctx.ints('split');
  if (given !== undefined) {
    if (given.length !== outputs) fail(`Split sizes [${given.join(', ')}] do not match ${outputs} outputs`);
    if (dim !== undefined && given.reduce((a, b) => a + b, 0) !== dim) fail(`Split sizes [${given.join(', ')}] do not add up to ${dim}`);
    return given;
  }
  if (fromInput && inputFact(ctx, 1) !== undefined) return undefined;
  if (dim === undefined) return new Array<Dim>(outputs).fill(undefined);
  const parts = ctx.opset >= 18 ? ctx.int('num_outputs', outputs) : outputs;
  // The sizes are listed per output, so a count other than the node's outputs is never allocated.
  if (parts !== outputs || parts <= 0) fail(`Split num_outputs ${parts} does not match its ${outputs} outputs`);
  if (ctx.opset >= 18 && ctx.attr('num_outputs') !== undefined) {
    const chunk = Math.ceil(dim / parts);
    return Array.from({ length: parts }, (_, i) => Math.max(0, Math.min(chunk, dim - chunk * i)));
  }
  if (dim % parts !== 0) fail(`Split cannot divide a dim of ${dim} into ${parts} equal parts`);
  return new Array<number>(parts).fill(dim / parts);
}

function splitRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const outputs = ctx.node.outputs.length;
  if (data.shape === undefined) return ctx.node.outputs.map(() => makeFact(data.dtype, undefined));
  const shape = data.shape;
  const axis = normalizeAxis(ctx.int('axis', 0), shape.length, 'Split axis');
  const sizes = splitSizes(ctx, shape[axis], outputs);
  if (sizes === undefined) {
    const out = shape.map((dim, i) => (i === axis ? undefined : dim));
    return ctx.node.outputs.map(() => ({ ...makeFact(data.dtype, out), note: 'the Split sizes are not constants' }));
  }
  let offset: number | undefined = 0;
  return sizes.map((size) => {
    const out = shape.map((dim, i) => (i === axis ? size : dim));
    const start = offset;
    offset = offset === undefined || size === undefined ? undefined : offset + size;
    if (data.value === undefined || start === undefined || !isKnownShape(shape)) return makeFact(data.dtype, out);
    const strides = stridesOf(shape);
    const value = buildValues(out, (index) => valueAt(data.value ?? [], strides, index.map((i, a) => (a === axis ? i + start : i))));
    return makeFact(data.dtype, out, value);
  });
}

function tileRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const shape = requireShape(data, 'Tile input');
  let repeats: readonly number[] | undefined;
  if (ctx.opset < 6) {
    const tiles = inputScalar(ctx, 1);
    const axis = inputScalar(ctx, 2);
    if (tiles !== undefined && axis !== undefined) {
      const at = normalizeAxis(axis, shape.length, 'Tile axis');
      repeats = shape.map((_, i) => (i === at ? tiles : 1));
    }
  } else {
    repeats = inputValue(ctx, 1);
  }
  if (repeats === undefined) return [{ ...makeFact(data.dtype, unknownDims(shape.length)), note: 'the Tile repeats are not constants' }];
  if (repeats.length !== shape.length) fail(`Tile repeats [${repeats.join(', ')}] do not match rank ${shape.length}`);
  const out = shape.map((dim, i) => (dim === undefined ? undefined : dim * (repeats[i] ?? 1)));
  let value: number[] | undefined;
  if (data.value !== undefined && isKnownShape(shape)) {
    const strides = stridesOf(shape);
    value = buildValues(out, (index) => valueAt(data.value ?? [], strides, index.map((i, a) => i % (shape[a] ?? 1))));
  }
  return [makeFact(data.dtype, out, value)];
}

/** Fails when two known dims other than 1 meet on the same trailing-aligned axis. */
function checkBroadcast(shape: readonly Dim[], target: readonly number[]): void {
  const offset = target.length - shape.length;
  shape.forEach((dim, i) => {
    const other = target[i + offset];
    if (dim !== undefined && other !== undefined && dim !== 1 && other !== 1 && dim !== other) {
      fail(`cannot expand ${formatShape(shape)} to ${formatShape(target)}`);
    }
  });
}

function expandRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const target = inputValue(ctx, 1);
  if (target === undefined) {
    const length = inputFact(ctx, 1)?.shape?.[0];
    if (length === undefined || data.shape === undefined) return [{ ...makeFact(data.dtype, undefined), note: 'the Expand shape is not a constant' }];
    const rank = Math.max(checkedRank(length, 'Expand shape length'), data.shape.length);
    const aligned = [...unknownDims(rank - data.shape.length), ...data.shape];
    // A target dim is 1 or equal to a data dim other than 1, so such data dims survive.
    const out = aligned.map((dim) => (dim !== undefined && dim !== 1 ? dim : undefined));
    return [{ ...makeFact(data.dtype, out), note: 'the Expand shape is not a constant' }];
  }
  if (target.some((dim) => dim < 0)) fail(`Expand shape ${formatShape(target)} has a negative dim`);
  const out = broadcastShapes([data.shape, target]);
  if (out === undefined) return [makeFact(data.dtype, undefined)];
  checkBroadcast(data.shape ?? [], target);
  const count = numel(target);
  let value: number[] | undefined;
  if (data.value !== undefined && count !== undefined && count <= MAX_VALUE_ELEMENTS) {
    // Folding against a zero tensor of the target shape broadcasts the data to it.
    value = foldElementwise([data.value, new Array<number>(count).fill(0)], [data.shape, target], (x) => x);
  }
  return [makeFact(data.dtype, out, value)];
}

/** Pads as [begin..., end...] for every axis: attribute before opset 11, input (with axes from 18) after. */
function padAmounts(ctx: RuleContext, rank: number): number[] | undefined {
  let pads: readonly number[] | undefined;
  let axes: readonly number[] = Array.from({ length: rank }, (_, i) => i);
  if (ctx.opset < 11) {
    pads = ctx.ints(ctx.opset < 2 ? 'paddings' : 'pads');
  } else {
    pads = inputValue(ctx, 1);
    if (inputFact(ctx, 3) !== undefined) {
      const given = inputValue(ctx, 3);
      if (given === undefined) return undefined;
      axes = normalizeAxes(given, rank, 'Pad axes');
    }
  }
  if (pads === undefined) return undefined;
  if (pads.length !== 2 * axes.length) fail(`Pad pads [${pads.join(', ')}] do not match ${axes.length} axes`);
  const full = new Array<number>(2 * rank).fill(0);
  axes.forEach((axis, i) => {
    full[axis] = pads[i] ?? 0;
    full[axis + rank] = pads[i + axes.length] ?? 0;
  });
  return full;
}

function padRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'data');
  const shape = requireShape(data, 'Pad input');
  const rank = shape.length;
  const pads = padAmounts(ctx, rank);
  if (pads === undefined) return [{ ...makeFact(data.dtype, unknownDims(rank)), note: 'the Pad amounts are not constants' }];
  const out = shape.map((dim, i) => (dim === undefined ? undefined : dim + (pads[i] ?? 0) + (pads[i + rank] ?? 0)));
  if (out.some((dim) => dim !== undefined && dim < 0)) fail(`Pad gives a negative size: ${formatShape(out)}`);
  const mode = ctx.string('mode', 'constant');
  const fill = ctx.opset < 11 ? ctx.float('value', 0) : (inputScalar(ctx, 2) ?? (inputFact(ctx, 2) === undefined ? 0 : undefined));
  let value: number[] | undefined;
  if (data.value !== undefined && isKnownShape(shape) && (mode === 'edge' || (mode === 'constant' && fill !== undefined))) {
    const strides = stridesOf(shape);
    value = buildValues(out, (index) => {
      const inIndex = index.map((i, a) => i - (pads[a] ?? 0));
      const inside = inIndex.every((i, a) => i >= 0 && i < (shape[a] ?? 0));
      if (mode === 'constant' && !inside) return fill;
      return valueAt(data.value ?? [], strides, inIndex.map((i, a) => Math.min(Math.max(i, 0), (shape[a] ?? 1) - 1)));
    });
  }
  return [makeFact(data.dtype, out, value)];
}

/** Shape rules for ops that join, split or grow tensors. */
export const combineOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Concat': concatRule,
  '::Split': splitRule,
  '::Tile': tileRule,
  '::Expand': expandRule,
  '::Pad': padRule,
};
