// The body budget on models whose control flow nests: nested SequenceMaps cost
// one body inference per distinct element, and work past the budget stops with
// a diagnostic instead of running for hours.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../decode-model';
import type { IrModel } from '../ir';
import type { ModelDiagnostic } from '../inferred';
import { bindDims } from './dims';
import { inferGraph } from './graph';
import { bodyBudget, BODY_WORK_BASE, type BodyBudget } from './budget';
import { inferShapes } from './shapes';
import { nestedSequenceMapModel } from '../testing/hostile-graphs';

/** Infers the main graph with `budget`; returns the diagnostics and the output's shape. */
function inferWith(model: IrModel, budget: BodyBudget): { diagnostics: ModelDiagnostic[]; shape: readonly (number | undefined)[] | undefined } {
  const diagnostics: ModelDiagnostic[] = [];
  const env = {
    opsets: new Map(model.opsets.map((o) => [o.domain, o.version])),
    dims: bindDims(model.graph.inputs, {}, diagnostics),
    report: (d: ModelDiagnostic) => diagnostics.push(d),
    budget,
  };
  const { outputs } = inferGraph(model.graph, env, undefined);
  return { diagnostics, shape: outputs[0]?.shape };
}

describe('the body budget', () => {
  it('infers SequenceMaps nested 3 deep over 100 elements once per level, exactly', () => {
    const model = decodeModel(nestedSequenceMapModel(3, 100));
    const budget = bodyBudget(model.graph);
    const { diagnostics, shape } = inferWith(model, budget);
    // Level 2 gives 100 rows and its element, level 1 100 of those and its element, the graph 100 of those.
    expect(shape).toEqual([100 * (100 * 101 + 1), 2]);
    expect(diagnostics).toEqual([]);
    // Three bodies once each, and the 100-element sequences four nodes read: nowhere near 100^3.
    expect(budget.spent).toBeLessThan(1_000);
  });

  it('stops nested bodies at the budget with one diagnostic, and finishes the graph', () => {
    const model = decodeModel(nestedSequenceMapModel(8, 32, 16));
    const budget: BodyBudget = { limit: 5_000, spent: 0, exhausted: false };
    const { diagnostics, shape } = inferWith(model, budget);
    expect(diagnostics.map((d) => d.code)).toEqual(['body-budget']);
    expect(diagnostics[0]?.message).toMatch(/more than 5000 steps of inference/);
    expect(shape).toEqual([undefined, 2]);
    // Past the limit each remaining body is read once from its declarations.
    expect(budget.spent).toBeLessThan(2 * budget.limit);
  });

  it('grows with the bodies of the file, from a floor every model gets', () => {
    const small = bodyBudget(decodeModel(nestedSequenceMapModel(1, 4)).graph);
    const deeper = bodyBudget(decodeModel(nestedSequenceMapModel(4, 4)).graph);
    expect(small.limit).toBeGreaterThanOrEqual(BODY_WORK_BASE);
    expect(deeper.limit).toBeGreaterThan(small.limit);
  });

  it('lets inferShapes end on a model whose nesting would need 16^6 body inferences', () => {
    const model = inferShapes(decodeModel(nestedSequenceMapModel(6, 20, 16)));
    expect(model.diagnostics.filter((d) => d.code === 'body-budget')).toHaveLength(1);
    expect(model.values.find((v) => v.name === 'y')?.unknownReason).toBeDefined();
  });
});
