// Shape rules for comparison, logic and selection ops (Equal, Less, Greater...,
// Not, And, Or, Xor, Where), folding constant values so that masks built by
// exported models from shape arithmetic stay known. Pure; no DOM.

import { DT } from '../dtype';
import { broadcastShapes, foldElementwise } from './broadcast';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import { fail, formatShape, makeFact, requireInput } from './tensor-facts';

/** The broadcast shape of the inputs; fails when two known dims other than 1 meet on one axis. */
function broadcastOrFail(facts: readonly TensorFact[]): readonly Dim[] | undefined {
  const shape = broadcastShapes(facts.map((fact) => fact.shape));
  if (shape === undefined) return undefined;
  shape.forEach((_, axis) => {
    const sizes = new Set<number>();
    for (const fact of facts) {
      const dim = fact.shape?.[axis - (shape.length - fact.shape.length)];
      if (dim !== undefined && dim !== 1) sizes.add(dim);
    }
    if (sizes.size > 1) fail(`cannot broadcast ${facts.map((fact) => formatShape(fact.shape)).join(' with ')}`);
  });
  return shape;
}

/** Folds `fn` over the inputs' values when all are known; undefined otherwise. */
function fold(facts: readonly TensorFact[], fn: (...xs: number[]) => number): number[] | undefined {
  const values: (readonly number[])[] = [];
  for (const fact of facts) {
    if (fact.value === undefined) return undefined;
    values.push(fact.value);
  }
  return foldElementwise(values, facts.map((fact) => fact.shape), fn);
}

/** A broadcasting op with a boolean result (comparisons and logic). */
function booleanOp(arity: number, fn: (...xs: number[]) => boolean): ShapeRule {
  return (ctx: RuleContext): RuleResult => {
    const facts = Array.from({ length: arity }, (_, i) => requireInput(ctx, i, `#${i}`));
    const shape = broadcastOrFail(facts);
    return [makeFact(DT.BOOL, shape, fold(facts, (...xs) => (fn(...xs) ? 1 : 0)))];
  };
}

function whereRule(ctx: RuleContext): RuleResult {
  const facts = [0, 1, 2].map((i) => requireInput(ctx, i, ['condition', 'X', 'Y'][i] ?? ''));
  const shape = broadcastOrFail(facts);
  const dtype = facts[1]?.dtype ?? facts[2]?.dtype;
  return [makeFact(dtype, shape, fold(facts, (c, x, y) => (c !== 0 ? (x ?? 0) : (y ?? 0))))];
}

/** Shape rules for comparison, logic and selection ops. */
export const logicOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Equal': booleanOp(2, (a, b) => a === b),
  '::Greater': booleanOp(2, (a = 0, b = 0) => a > b),
  '::GreaterOrEqual': booleanOp(2, (a = 0, b = 0) => a >= b),
  '::Less': booleanOp(2, (a = 0, b = 0) => a < b),
  '::LessOrEqual': booleanOp(2, (a = 0, b = 0) => a <= b),
  '::Not': booleanOp(1, (a) => a === 0),
  '::And': booleanOp(2, (a, b) => a !== 0 && b !== 0),
  '::Or': booleanOp(2, (a, b) => a !== 0 || b !== 0),
  '::Xor': booleanOp(2, (a, b) => (a !== 0) !== (b !== 0)),
  '::Where': whereRule,
};
