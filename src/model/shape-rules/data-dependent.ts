// Shape rules for ops whose output size depends on the data: NonZero,
// NonMaxSuppression, TopK, Unique, Compress, and string ops. When the input
// values are constants the size is exact; otherwise the rules give an upper
// bound (flagged `upperBound`) or say why nothing is known. Pure; no DOM.

import { DT } from '../dtype';
import { broadcastShapes } from './broadcast';
import type { Dim, RuleContext, RuleResult, RuleTable, TensorFact } from './types';
import {
  buildValues,
  fail,
  guardRules,
  inputFact,
  inputScalar,
  inputValue,
  isKnownShape,
  makeFact,
  MAX_VALUE_ELEMENTS,
  normalizeAxis,
  numel,
  requireInput,
  requireShape,
  stridesOf,
  valueAt,
} from './tensor-facts';
import { selectBoxes, uniqueSlices } from './tensor-select';

/** A fact whose shape is only an upper bound of the run-time shape. */
function bounded(fact: TensorFact, note: string): TensorFact {
  return { ...fact, upperBound: true, note };
}

function nonZeroRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'X');
  const shape = requireShape(data, 'NonZero input');
  // A scalar is treated as a one-element vector, as onnxruntime does.
  const rank = Math.max(shape.length, 1);
  if (data.value !== undefined && isKnownShape(shape)) {
    const dims = shape.length === 0 ? [1] : shape;
    const strides = stridesOf(dims);
    const hits = data.value.flatMap((x, flat) => (x !== 0 ? [flat] : []));
    const coords = (flat: number, axis: number): number => Math.floor(flat / (strides[axis] ?? 1)) % (dims[axis] ?? 1);
    const value = buildValues([rank, hits.length], ([axis = 0, i = 0]) => coords(hits[i] ?? 0, axis));
    return [makeFact(DT.INT64, [rank, hits.length], value)];
  }
  return [bounded(makeFact(DT.INT64, [rank, numel(shape)]), 'NonZero: the count of non-zero elements depends on the data')];
}

/** The exact selection when boxes, scores and thresholds are all constants; undefined otherwise. */
function exactSelection(ctx: RuleContext, boxes: readonly Dim[], scores: readonly Dim[], perClass: number): number[] | undefined {
  const boxValues = inputValue(ctx, 0);
  const scoreValues = inputValue(ctx, 1);
  const iou = inputFact(ctx, 3) === undefined ? 0 : inputScalar(ctx, 3);
  const threshold = inputFact(ctx, 4) === undefined ? undefined : inputScalar(ctx, 4);
  const [batches, count] = boxes;
  const classes = scores[1];
  if (boxValues === undefined || scoreValues === undefined || iou === undefined) return undefined;
  if (inputFact(ctx, 4) !== undefined && threshold === undefined) return undefined;
  if (batches === undefined || count === undefined || classes === undefined) return undefined;
  // Empty boxes or scores hold a value whatever their other dims; the selection loops over batches × classes.
  if (batches * classes > MAX_VALUE_ELEMENTS) return undefined;
  const settings = {
    batches,
    classes,
    boxes: count,
    maxPerClass: Math.max(perClass, 0),
    iouThreshold: iou,
    scoreThreshold: threshold,
    centerPointBox: ctx.int('center_point_box', 0) === 1,
  };
  return selectBoxes(boxValues, scoreValues, settings);
}

function nonMaxSuppressionRule(ctx: RuleContext): RuleResult {
  const boxes = requireShape(requireInput(ctx, 0, 'boxes'), 'NonMaxSuppression boxes');
  const scores = requireShape(requireInput(ctx, 1, 'scores'), 'NonMaxSuppression scores');
  if (inputFact(ctx, 2) === undefined) return [makeFact(DT.INT64, [0, 3])];
  const perClass = inputScalar(ctx, 2);
  if (perClass === undefined) {
    return [{ ...makeFact(DT.INT64, [undefined, 3]), note: 'NonMaxSuppression: max_output_boxes_per_class is not a constant' }];
  }
  const exact = exactSelection(ctx, boxes, scores, perClass);
  if (exact !== undefined) return [makeFact(DT.INT64, [exact.length / 3, 3], exact)];
  const spatial = boxes[1] ?? scores[2];
  const limit = spatial === undefined ? undefined : Math.min(Math.max(perClass, 0), spatial);
  const count = limit === undefined || scores[0] === undefined || scores[1] === undefined ? undefined : scores[0] * scores[1] * limit;
  return [bounded(makeFact(DT.INT64, [count, 3]), 'NonMaxSuppression: the number of selected boxes depends on the scores')];
}

function topKRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'X');
  const shape = requireShape(data, 'TopK input');
  const axis = normalizeAxis(ctx.int('axis', -1), shape.length, 'TopK axis');
  const k = ctx.opset < 10 ? ctx.int('k', -1) : inputScalar(ctx, 1);
  const dim = shape[axis];
  if (k !== undefined && (k < 0 || (dim !== undefined && k > dim))) fail(`TopK k=${k} is out of range for a dim of ${dim}`);
  const out = shape.map((d, i) => (i === axis ? k : d));
  const note = k === undefined ? 'TopK: k is not a constant' : undefined;
  const facts = [makeFact(data.dtype, out), makeFact(DT.INT64, out)];
  return note === undefined ? facts : facts.map((fact) => ({ ...fact, note }));
}

/** Unique over a constant: slices along `axis` of `shape` (a flattened tensor when no axis), computed exactly. */
function uniqueOfValues(ctx: RuleContext, data: TensorFact, shape: readonly number[], axis: number): RuleResult {
  const values = data.value ?? [];
  const dim = shape[axis] ?? 0;
  const outer = shape.slice(0, axis).reduce((a, b) => a * b, 1);
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const at = (o: number, i: number, n: number): number => values[(o * dim + i) * inner + n] ?? 0;
  const slices = Array.from({ length: dim }, (_, i) =>
    Array.from({ length: outer * inner }, (_, k) => at(Math.floor(k / inner), i, k % inner)),
  );
  const { first, inverse, counts } = uniqueSlices(slices, ctx.int('sorted', 1) !== 0);
  const n = first.length;
  const yShape = shape.map((d, i) => (i === axis ? n : d));
  const y = buildValues(yShape, (index) => {
    const o = index.slice(0, axis).reduce((acc, x, i) => acc * (shape[i] ?? 1) + x, 0);
    const k = index.slice(axis + 1).reduce((acc, x, i) => acc * (shape[axis + 1 + i] ?? 1) + x, 0);
    return at(o, first[index[axis] ?? 0] ?? 0, k);
  });
  return [makeFact(data.dtype, yShape, y), makeFact(DT.INT64, [n], first), makeFact(DT.INT64, [dim], inverse), makeFact(DT.INT64, [n], counts)];
}

function uniqueRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'X');
  const shape = requireShape(data, 'Unique input');
  const flat = ctx.attr('axis') === undefined;
  const count = numel(shape);
  const source: Dim[] = flat ? [count] : [...shape];
  const axis = flat ? 0 : normalizeAxis(ctx.int('axis', 0), shape.length, 'Unique axis');
  // An empty tensor holds a value whatever its other dims; its slices are listed only when few.
  const slices = source[axis] ?? Infinity;
  if (data.value !== undefined && isKnownShape(source) && slices <= MAX_VALUE_ELEMENTS) return uniqueOfValues(ctx, data, source, axis);
  const note = 'Unique: the number of distinct elements depends on the data';
  const dim = source[axis];
  return [
    bounded(makeFact(data.dtype, source), note),
    bounded(makeFact(DT.INT64, [dim]), note),
    makeFact(DT.INT64, [dim]),
    bounded(makeFact(DT.INT64, [dim]), note),
  ];
}

/** Selected positions of a constant Compress condition over a dim of `length` elements. */
function selected(condition: readonly number[], length: number): number[] {
  return condition.slice(0, length).flatMap((c, i) => (c !== 0 ? [i] : []));
}

function compressRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const condition = requireInput(ctx, 1, 'condition');
  const shape = requireShape(data, 'Compress input');
  const flat = ctx.attr('axis') === undefined;
  const axis = flat ? 0 : normalizeAxis(ctx.int('axis', 0), shape.length, 'Compress axis');
  const source = flat ? [numel(shape)] : shape;
  const dim = source[axis];
  const condLength = condition.shape?.[0];
  if (condition.value !== undefined && dim !== undefined) {
    const picks = selected(condition.value, dim);
    const out = source.map((d, i) => (i === axis ? picks.length : d));
    let value: number[] | undefined;
    if (data.value !== undefined && isKnownShape(source)) {
      const strides = stridesOf(source);
      value = buildValues(out, (index) => valueAt(data.value ?? [], strides, index.map((x, i) => (i === axis ? (picks[x] ?? 0) : x))));
    }
    return [makeFact(data.dtype, out, value)];
  }
  const bound: Dim = dim === undefined ? condLength : condLength === undefined ? dim : Math.min(dim, condLength);
  const out = source.map((d, i) => (i === axis ? bound : d));
  return [bounded(makeFact(data.dtype, out), 'Compress: the number of selected elements depends on the condition')];
}

/** StringNormalizer: [C] or [1, C]; dropping stopwords shortens C (an empty result keeps one empty string). */
function stringNormalizerRule(ctx: RuleContext): RuleResult {
  const shape = requireShape(requireInput(ctx, 0, 'X'), 'StringNormalizer input');
  if (shape.length !== 1 && shape.length !== 2) fail(`StringNormalizer input must have rank 1 or 2, got rank ${shape.length}`);
  const stopwords = ctx.attr('stopwords');
  if (stopwords?.kind !== 'strings' || stopwords.value.length === 0) return [makeFact(DT.STRING, shape)];
  const last = shape[shape.length - 1];
  const out = [...shape.slice(0, -1), last === undefined ? undefined : Math.max(last, 1)];
  return [bounded(makeFact(DT.STRING, out), 'StringNormalizer: the number of strings left after dropping stopwords depends on the data')];
}

function stringSplitRule(ctx: RuleContext): RuleResult {
  const shape = requireShape(requireInput(ctx, 0, 'X'), 'StringSplit input');
  return [
    { ...makeFact(DT.STRING, [...shape, undefined]), note: 'StringSplit: the number of substrings depends on the data' },
    makeFact(DT.INT64, shape),
  ];
}

/** Shape rules for data-dependent ops. */
export const dataDependentRules: RuleTable = guardRules({
  '::NonZero': nonZeroRule,
  '::NonMaxSuppression': nonMaxSuppressionRule,
  '::TopK': topKRule,
  '::Unique': uniqueRule,
  '::Compress': compressRule,
  '::StringNormalizer': stringNormalizerRule,
  '::StringSplit': stringSplitRule,
  '::RegexFullMatch': (ctx) => [makeFact(DT.BOOL, requireInput(ctx, 0, 'X').shape)],
  '::StringConcat': (ctx) => [makeFact(DT.STRING, broadcastShapes([requireInput(ctx, 0, 'X').shape, requireInput(ctx, 1, 'Y').shape]))],
});
