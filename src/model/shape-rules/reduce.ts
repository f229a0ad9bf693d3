// Shape rules for reductions: Reduce* (axes by attribute, or by input from
// opset 13 for ReduceSum and 18 for the others; keepdims, noop_with_empty_axes),
// ArgMax/ArgMin and CumSum, folding small constant values. Pure; no DOM.

import { DT } from '../dtype';
import { intsFromAttrOrInput, onnxTable } from './rule-helpers';
import { guardRules, isKnownShape, makeFact, normalizeAxes, normalizeAxis, requireInput, requireShape, unknownDimsOf } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';

type Reducer = (xs: readonly number[]) => number;

const sum: Reducer = (xs) => xs.reduce((s, x) => s + x, 0);

/** Folds used when the input value is a small constant (shape arithmetic). */
const REDUCERS: Readonly<Record<string, Reducer | undefined>> = {
  ReduceSum: sum,
  ReduceMean: (xs) => sum(xs) / xs.length,
  ReduceMax: (xs) => Math.max(...xs),
  ReduceMin: (xs) => Math.min(...xs),
  ReduceProd: (xs) => xs.reduce((p, x) => p * x, 1),
  ReduceL1: (xs) => sum(xs.map(Math.abs)),
  ReduceL2: (xs) => Math.sqrt(sum(xs.map((x) => x * x))),
  ReduceSumSquare: (xs) => sum(xs.map((x) => x * x)),
  ReduceLogSum: (xs) => Math.log(sum(xs)),
  ReduceLogSumExp: (xs) => Math.log(sum(xs.map(Math.exp))),
};

/** Groups a constant's elements by output position and reduces each group. */
function foldReduce(fact: TensorFact, reduced: ReadonlySet<number>, reducer: Reducer): number[] | undefined {
  const shape = fact.shape;
  if (fact.value === undefined || !isKnownShape(shape)) return undefined;
  const groups = new Map<number, number[]>();
  const index = new Array<number>(shape.length).fill(0);
  for (const x of fact.value) {
    let key = 0;
    for (let axis = 0; axis < shape.length; axis++) {
      if (!reduced.has(axis)) key = key * (shape[axis] as number) + (index[axis] as number);
    }
    const group = groups.get(key);
    if (group) group.push(x);
    else groups.set(key, [x]);
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      index[axis] = (index[axis] as number) + 1;
      if ((index[axis] as number) < (shape[axis] as number)) break;
      index[axis] = 0;
    }
  }
  if (groups.size === 0) return undefined;
  return [...groups.keys()].sort((a, b) => a - b).map((k) => reducer(groups.get(k) ?? []));
}

/** Shape after reducing `axes` of `shape` (1 with keepdims, dropped otherwise). */
function reducedShape(shape: readonly Dim[], axes: ReadonlySet<number>, keepdims: boolean): Dim[] {
  const out: Dim[] = [];
  shape.forEach((d, axis) => {
    if (!axes.has(axis)) out.push(d);
    else if (keepdims) out.push(1);
  });
  return out;
}

/** A Reduce* op; `inputSince` is the opset from which axes come as an input. */
function reduceRule(op: string, inputSince: number): ShapeRule {
  return (ctx) => {
    const data = requireInput(ctx, 0, 'data');
    const keepdims = ctx.int('keepdims', 1) === 1;
    const axes = intsFromAttrOrInput(ctx, 'axes', 1, inputSince);
    if (data.shape === undefined) return [makeFact(data.dtype, undefined)];
    const rank = data.shape.length;
    if (axes.kind === 'unknown') {
      const rankOut = keepdims ? rank : axes.count === undefined ? undefined : rank - axes.count;
      return [makeFact(data.dtype, unknownDimsOf(rankOut, 'output rank'))];
    }
    const listed = axes.kind === 'known' ? axes.values : [];
    if (listed.length === 0 && ctx.int('noop_with_empty_axes', 0) === 1) return [makeFact(data.dtype, data.shape, data.value)];
    const reduced = new Set(listed.length === 0 ? data.shape.map((_, i) => i) : normalizeAxes(listed, rank));
    const reducer = REDUCERS[op];
    const value = reducer ? foldReduce(data, reduced, reducer) : undefined;
    return [makeFact(data.dtype, reducedShape(data.shape, reduced, keepdims), value)];
  };
}

/** ArgMax / ArgMin: int64 indices along `axis` (kept as 1 with keepdims). */
function argRule(ctx: RuleContext): RuleResult {
  const shape = requireShape(requireInput(ctx, 0, 'data'), 'data');
  const axis = normalizeAxis(ctx.int('axis', 0), shape.length);
  return [makeFact(DT.INT64, reducedShape(shape, new Set([axis]), ctx.int('keepdims', 1) === 1))];
}

/** CumSum: same shape and type as x. */
function cumSumRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'x');
  return [makeFact(x.dtype, x.shape)];
}

const RULES: Record<string, ShapeRule> = {
  ArgMax: argRule,
  ArgMin: argRule,
  CumSum: cumSumRule,
};
for (const op of Object.keys(REDUCERS)) RULES[op] = reduceRule(op, op === 'ReduceSum' ? 13 : 18);

/** Shape rules for reductions. */
export const reduceRules = guardRules(onnxTable(RULES));
