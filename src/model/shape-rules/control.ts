// Shape rules for control-flow ops (If, Loop, Scan): bodies are inferred through
// the engine's inferSubgraph; their output facts become the node's outputs.
// Pure functions over TensorFacts; no DOM.
//
// - If: a constant condition (or a graph input's value the user gave) selects
//   its branch; otherwise both branches are inferred: equal outputs merge,
//   differing ones take the larger branch, and the choice is recorded.
// - Loop and Scan: the body is inferred with the initial loop-carried facts,
//   then again with the facts merged with its outputs until they stop changing
//   (a value whose shape changes per iteration ends with unknown dims).
// - Loop scan outputs get a leading dim equal to the trip count when it is a
//   constant; an upper bound when the loop may exit early. An unknown trip
//   count is recorded whenever a size rests on it (scan outputs, loop-carried
//   values or body outputs of unknown size, and values in the body sized by
//   the iteration number: unknown at an unknown iteration, known at one).

import { DT, tensorBytes } from '../dtype';
import type { IrGraph } from '../ir';
import type { Dim, RuleContext, RuleResult, RuleTable, TensorFact } from './types';
import { fail, guardRules, inputFact, inputScalar, makeFact, mergeFacts, normalizeAxis } from './tensor-facts';
import { shortName } from '../../shared/short-name';

/** Rounds of re-inference for loop-carried values before giving up on a fixed point. */
const MAX_BODY_ROUNDS = 3;

/** Trip counts from here on mean "until the condition fails", not a real count. */
const MAX_STATIC_TRIPS = 2 ** 31;

function graphAttr(ctx: RuleContext, name: string): IrGraph {
  const attr = ctx.attr(name);
  if (attr?.kind !== 'graph') fail(`${ctx.node.opType} has no '${name}' graph`);
  return attr.value;
}

/** A fact for an output nothing is known about, with the reason. */
function unknownFact(note: string): TensorFact {
  return { dtype: undefined, shape: undefined, note };
}

/** A loop-carried fact without its value: values change from one iteration to the next. */
function withoutValue(fact: TensorFact | undefined): TensorFact | undefined {
  return fact === undefined ? undefined : makeFact(fact.dtype, fact.shape);
}

function sameShape(a: TensorFact | undefined, b: TensorFact | undefined): boolean {
  if (a?.shape === undefined || b?.shape === undefined) return a?.shape === b?.shape;
  return a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((dim, i) => dim === b.shape?.[i]);
}

/** Bytes of a branch's outputs, or undefined when any is unknown. */
function outputBytes(facts: readonly (TensorFact | undefined)[], count: number): number | undefined {
  let total = 0;
  for (let i = 0; i < count; i++) {
    const shape = facts[i]?.shape;
    if (shape === undefined || shape.some((d) => d === undefined)) return undefined;
    const bytes = tensorBytes(facts[i]?.dtype, (shape as number[]).reduce((a, d) => a * d, 1));
    if (bytes === undefined) return undefined;
    total += bytes;
  }
  return total;
}

const NOT_KNOWN = 'the condition is not known before the run';

/**
 * If: a condition known from constants (or from a graph input's value the user
 * gave) picks its branch. Otherwise both are inferred; when their outputs
 * agree they are merged and the plan covers the larger body; when they
 * differ, the branch with the larger outputs is assumed, and said so.
 */
function ifRule(ctx: RuleContext): RuleResult {
  const branches = [graphAttr(ctx, 'then_branch'), graphAttr(ctx, 'else_branch')] as const;
  const names = ['then', 'else'] as const;
  const cond = inputScalar(ctx, 0);
  const count = ctx.node.outputs.length;
  const pad = (facts: readonly (TensorFact | undefined)[]): TensorFact[] =>
    Array.from({ length: count }, (_, i) => facts[i] ?? unknownFact('the If branch output is unknown'));
  if (cond !== undefined) {
    const k = cond !== 0 ? 0 : 1;
    ctx.assume?.({ taken: names[k], graph: branches[k] });
    return pad(ctx.inferSubgraph(branches[k], []));
  }
  const outs = branches.map((g) => ctx.inferSubgraph(g, []));
  const [a, b] = outs as [readonly (TensorFact | undefined)[], readonly (TensorFact | undefined)[]];
  if (Array.from({ length: count }, (_, i) => sameShape(a[i], b[i])).every(Boolean)) {
    ctx.assume?.({ taken: 'both', reason: `${NOT_KNOWN}; both branches give the same output shapes, and the plan covers the larger body` });
    return Array.from({ length: count }, (_, i) => mergeFacts(a[i], b[i]) ?? unknownFact('an If branch output is unknown'));
  }
  const sizes = outs.map((o) => outputBytes(o, count));
  const k = sizes[0] !== undefined && (sizes[1] === undefined || sizes[0] >= sizes[1]) ? 0 : sizes[1] !== undefined ? 1 : undefined;
  if (k === undefined) {
    ctx.assume?.({ taken: 'both', reason: `${NOT_KNOWN} and neither branch's output sizes are known` });
    return Array.from({ length: count }, (_, i) => ({ ...(mergeFacts(a[i], b[i]) ?? unknownFact('an If branch output is unknown')), note: 'the If branches give different shapes' }));
  }
  const other = sizes[1 - k];
  const versus = other === undefined ? `the ${names[1 - k]} branch's are unknown` : `${sizes[k]} vs ${other} bytes`;
  ctx.assume?.({ taken: names[k], graph: branches[k], reason: `${NOT_KNOWN}; the ${names[k]} branch gives the larger outputs (${versus})` });
  return pad(outs[k]!);
}

/**
 * Infers a body whose first inputs are loop-carried (`carried`, aligned with
 * outputs starting at `carriedOut`), iterating until the carried facts are
 * stable. Returns the last body outputs and the final carried facts.
 */
function inferToFixedPoint(
  ctx: RuleContext,
  body: IrGraph,
  prefix: readonly (TensorFact | undefined)[],
  initial: readonly (TensorFact | undefined)[],
  suffix: readonly (TensorFact | undefined)[],
  carriedOut: number,
): { outputs: readonly (TensorFact | undefined)[]; carried: readonly (TensorFact | undefined)[] } {
  let carried = initial.map(withoutValue);
  let outputs = ctx.inferSubgraph(body, [...prefix, ...carried, ...suffix]);
  for (let round = 0; round < MAX_BODY_ROUNDS; round++) {
    const next = carried.map((fact, i) => withoutValue(mergeFacts(fact, outputs[carriedOut + i])));
    if (next.every((fact, i) => sameShape(fact, carried[i]))) return { outputs, carried };
    carried = next;
    outputs = ctx.inferSubgraph(body, [...prefix, ...carried, ...suffix]);
  }
  return { outputs, carried: carried.map((fact) => (fact === undefined ? undefined : makeFact(fact.dtype, undefined))) };
}

/** Stacks per-iteration facts along a new axis of size `length`. */
function stacked(fact: TensorFact | undefined, length: Dim, axis: number, note?: string): TensorFact {
  if (fact?.shape === undefined) return unknownFact('the per-iteration shape of a scan output is unknown');
  const at = normalizeAxis(axis, fact.shape.length + 1, 'scan output axis');
  const out = makeFact(fact.dtype, [...fact.shape.slice(0, at), length, ...fact.shape.slice(at)]);
  return note === undefined ? out : { ...out, note };
}

/** Loop trip count: a constant M (0 when the first condition is false), or why it is unknown. */
function loopTrips(ctx: RuleContext, condIn: TensorFact): number | string {
  if (condIn.value?.[0] === 0) return 0;
  const trips = inputFact(ctx, 0) === undefined ? undefined : inputScalar(ctx, 0);
  if (trips === undefined) return 'the Loop trip count is not a constant';
  // Exporters write while-loops as M = INT64_MAX plus a condition.
  if (trips >= MAX_STATIC_TRIPS) return 'the Loop runs until its condition turns false';
  return Math.max(0, trips);
}

/** Whether a fact leaves some of its size unknown (no fact, no rank, or an unknown dim). */
function sizeUnknown(fact: TensorFact | undefined): boolean {
  return fact?.shape === undefined || fact.shape.some((d) => d === undefined);
}

/**
 * What a Loop's unknown trip count leaves unsized, in words, or undefined
 * when nothing rests on it: its scan outputs' length, loop-carried values
 * whose size is not known (a sequence, a value that grows each iteration)
 * and a body whose outputs have unknown sizes.
 */
function tripDependents(ctx: RuleContext, carried: readonly (TensorFact | undefined)[], outputs: readonly (TensorFact | undefined)[], byIteration: readonly string[]): string | undefined {
  const parts: string[] = [];
  if (ctx.node.outputs.length > carried.length) parts.push('the length of its scan outputs');
  const unsized = carried.flatMap((fact, i) => {
    const name = ctx.node.outputs[i] ?? '';
    return name !== '' && (sizeUnknown(fact) || sizeUnknown(outputs[1 + i])) ? [`'${shortName(name)}'`] : [];
  });
  if (unsized.length > 0) parts.push(`the size of loop-carried ${unsized.join(', ')} (${unsized.length === 1 ? 'it' : 'they'} may change with each iteration)`);
  else if (outputs.slice(1).some(sizeUnknown)) parts.push("the sizes of its body's outputs");
  if (byIteration.length > 0) {
    const named = byIteration.slice(0, 3).map((name) => `'${shortName(name)}'`).join(', ') + (byIteration.length > 3 ? `, and ${byIteration.length - 3} more` : '');
    parts.push(`the size of ${named} in its body (sized by the iteration number, which runs up to the trip count)`);
  }
  return parts.length === 0 ? undefined : parts.join(', and ');
}

/**
 * The body's values of unknown size that a known iteration number sizes: the
 * body is looked at again at iteration 1 with the loop-carried values it
 * settled on (only when some value of it has no size, so a body sized
 * throughout costs nothing more), and what that sizes is sized by the
 * iteration number, so by the trip count, not by anything a shape of its own could say.
 */
function iterationSized(ctx: RuleContext, body: IrGraph, prefix: readonly TensorFact[], carried: readonly (TensorFact | undefined)[]): readonly string[] {
  const unsized = ctx.unsized?.kept(body) ?? [];
  if (unsized.length === 0) return [];
  const atOne = ctx.unsized?.lookWith(body, [makeFact(DT.INT64, [], [1]), prefix[1], ...carried]);
  if (atOne === undefined) return [];
  const still = new Set(atOne);
  return unsized.filter((name) => !still.has(name));
}

function loopRule(ctx: RuleContext): RuleResult {
  const body = graphAttr(ctx, 'body');
  const carriedCount = ctx.node.inputs.length - 2;
  const initial = ctx.node.inputs.slice(2).map((_, i) => inputFact(ctx, i + 2));
  const condGiven = inputFact(ctx, 1) !== undefined;
  const condIn = condGiven ? (inputFact(ctx, 1) ?? makeFact(DT.BOOL, [])) : makeFact(DT.BOOL, [], [1]);
  const prefix = [makeFact(DT.INT64, []), condIn.value?.[0] === 1 ? makeFact(DT.BOOL, [], [1]) : makeFact(DT.BOOL, [])];
  const trips = loopTrips(ctx, condIn);
  const { outputs, carried } = inferToFixedPoint(ctx, body, prefix, initial, [], 1);
  const dependents = typeof trips === 'string' ? tripDependents(ctx, carried, outputs, iterationSized(ctx, body, prefix, carried)) : undefined;
  if (dependents !== undefined) ctx.assume?.({ taken: 'trip count unknown', reason: `${trips}, so ${dependents} is not inferred` });
  const alwaysTrue = outputs[0]?.value?.[0] === 1 && prefix[1]?.value?.[0] === 1;
  const results: TensorFact[] = carried.map((fact) => fact ?? unknownFact('a loop-carried value is unknown'));
  const scanCount = ctx.node.outputs.length - carriedCount;
  for (let k = 0; k < scanCount; k++) {
    const perIteration = outputs[1 + carriedCount + k];
    if (typeof trips === 'string') {
      results.push(stacked(perIteration, undefined, 0, trips));
    } else if (alwaysTrue) {
      results.push(stacked(perIteration, trips, 0));
    } else {
      results.push({ ...stacked(perIteration, trips, 0, 'the Loop may stop before its trip count'), upperBound: true });
    }
  }
  return results;
}

/**
 * num_scan_inputs, checked against the inputs the node has (`fixed` of them
 * are never scanned) before anything is sized or looped by it: the attribute
 * is a number in the file, and 2^31 of it is not an array to allocate.
 */
function scanInputCount(ctx: RuleContext, fixed: number): number {
  const count = ctx.int('num_scan_inputs', 0);
  const most = Math.max(0, ctx.node.inputs.length - fixed);
  if (!Number.isSafeInteger(count) || count < 0 || count > most) {
    fail(`num_scan_inputs is ${count}, but the node has ${most} input${most === 1 ? '' : 's'} it could scan`);
  }
  return count;
}

/** Scan from opset 9: scan inputs and outputs along configurable axes, no batch dim. */
function scanRule(ctx: RuleContext): RuleResult {
  if (ctx.opset < 9) return scan8Rule(ctx);
  const body = graphAttr(ctx, 'body');
  const scanInputs = scanInputCount(ctx, 0);
  const stateCount = ctx.node.inputs.length - scanInputs;
  const inputAxes = ctx.ints('scan_input_axes') ?? [];
  const outputAxes = ctx.ints('scan_output_axes');
  const states = ctx.node.inputs.slice(0, stateCount).map((_, i) => inputFact(ctx, i));
  let length: Dim;
  const slices = Array.from({ length: scanInputs }, (_, j) => {
    const fact = inputFact(ctx, stateCount + j);
    if (fact?.shape === undefined) return fact === undefined ? undefined : makeFact(fact.dtype, undefined);
    const axis = normalizeAxis(inputAxes[j] ?? 0, fact.shape.length, 'scan input axis');
    length ??= fact.shape[axis];
    return makeFact(fact.dtype, fact.shape.filter((_, i) => i !== axis));
  });
  const { outputs, carried } = inferToFixedPoint(ctx, body, [], states, slices, 0);
  const results: TensorFact[] = carried.map((fact) => fact ?? unknownFact('a Scan state is unknown'));
  for (let k = 0; k < ctx.node.outputs.length - stateCount; k++) {
    results.push(stacked(outputs[stateCount + k], length, outputAxes?.[k] ?? 0));
  }
  return results;
}

/** Scan in opset 8: an optional sequence_lens input first, and a leading batch dim everywhere. */
function scan8Rule(ctx: RuleContext): RuleResult {
  const body = graphAttr(ctx, 'body');
  const scanInputs = scanInputCount(ctx, 1);
  const stateCount = ctx.node.inputs.length - 1 - scanInputs;
  const facts = ctx.node.inputs.map((_, i) => inputFact(ctx, i));
  const batch = facts.slice(1).find((fact) => fact?.shape?.[0] !== undefined)?.shape?.[0];
  const length = facts.slice(1 + stateCount).find((fact) => fact?.shape?.[1] !== undefined)?.shape?.[1];
  const drop = (fact: TensorFact | undefined, count: number): TensorFact | undefined =>
    fact === undefined ? undefined : makeFact(fact.dtype, fact.shape?.slice(count));
  const states = facts.slice(1, 1 + stateCount).map((fact) => drop(fact, 1));
  const slices = facts.slice(1 + stateCount).map((fact) => drop(fact, 2));
  const { outputs, carried } = inferToFixedPoint(ctx, body, [], states, slices, 0);
  const withBatch = (fact: TensorFact | undefined, lead: Dim[]): TensorFact =>
    fact?.shape === undefined ? unknownFact('a Scan body output is unknown') : makeFact(fact.dtype, [...lead, ...fact.shape]);
  const results = carried.map((fact) => withBatch(fact, [batch]));
  for (let k = stateCount; k < ctx.node.outputs.length; k++) results.push(withBatch(outputs[k], [batch, length]));
  return results;
}

/** Shape rules for control-flow ops. */
export const controlRules: RuleTable = guardRules({
  '::If': ifRule,
  '::Loop': loopRule,
  '::Scan': scanRule,
});
