import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { ownBoundFields } from './bounds';
import { STRATEGY_NAMES } from '../strategies/registry';
import { testTarget, tinyGraph } from '../testing/tiny-graph';

/**
 * A then-branch on which M1 wastes: i (12 B) -> v0 (15) -> v1 (27, also reads i) -> v2 (10)
 * -> v3 (40, also reads i). No plan goes below 62 bytes; M1's greedy order reaches 64.
 */
const wasteful = () =>
  tinyGraph('uint8', 'then')
    .input('i', [12])
    .node('Conv', ['i'], { v0: [15] })
    .node('Conv', ['i', 'v0'], { v1: [27] })
    .node('Conv', ['v1'], { v2: [10] })
    .node('Conv', ['v2', 'i'], { v3: [40] })
    .output('v3')
    .graph();

/** else-branch: one 6-byte Relu. */
const small = () => tinyGraph('uint8', 'else').input('j', [2]).node('Relu', ['j'], { k: [4] }).output('k').graph();

/** x -> held (30 B); If(cond) reads held, runs `wasteful` or `small`; r (40 B) -> out. */
function withIf(takenBranch?: number): InferredModel {
  const model = tinyGraph('uint8')
    .input('x', [8])
    .input('cond', [1])
    .node('Relu', ['x'], { held: [30] }, { name: 'relu' })
    .node('If', ['cond'], { r: [40] }, { name: 'if', subgraphs: [wasteful(), small()], reads: ['held'] })
    .node('Relu', ['r', 'held'], { out: [4] }, { name: 'tail' })
    .output('out')
    .model();
  if (takenBranch === undefined) return model;
  return { ...model, nodes: model.nodes.map((n) => (n.name === 'if' ? { ...n, takenBranch } : n)) };
}

describe('the lower bound holds for every strategy', () => {
  const plans = STRATEGY_NAMES.map((strategy) => planModel(withIf(), testTarget(), { strategy }));
  const m1 = plans.find((p) => p.strategy === 'm1')!;

  it('sizes a body buffer by its body lower bound, not by the strategy plan of the body', () => {
    expect(m1.bodies).toEqual([{ node: 'if', step: 1, peak: 64, lowerBound: 62 }]);
    // at the If step: cond (1) + held (30) + r (40) + the body; x was last read at step 0
    expect(m1.lowerBound).toBe(1 + 30 + 40 + 62);
    expect(m1.strategyBound).toBe(1 + 30 + 40 + 64);
    expect(m1.optimal).toBe(false);
  });

  it('reports the same bound whatever the strategy, and no plan below it', () => {
    for (const plan of plans) {
      expect(plan.lowerBound, plan.strategy).toBe(m1.lowerBound);
      expect(plan.peak, plan.strategy).toBeGreaterThanOrEqual(plan.lowerBound);
      expect(plan.regions[0]!.lowerBound, plan.strategy).toBe(m1.lowerBound);
      expect(plan.optimal, plan.strategy).toBe(plan.peak === plan.lowerBound);
      if (plan.strategyBound !== undefined) expect(plan.strategyBound, plan.strategy).toBeGreaterThan(plan.lowerBound);
    }
    const best = plans.find((p) => p.strategy === 'best')!;
    expect([best.peak, best.optimal, best.strategyBound]).toEqual([m1.lowerBound, true, undefined]);
  });

  it('counts only the taken branch of an If whose branch is known', () => {
    const thenTaken = planModel(withIf(0), testTarget(), { strategy: 'm1' });
    expect(thenTaken.bodies).toEqual(m1.bodies);
    const elseTaken = planModel(withIf(1), testTarget(), { strategy: 'm1' });
    expect(elseTaken.bodies).toEqual([{ node: 'if', step: 1, peak: 6, lowerBound: 6 }]);
    expect(elseTaken.lowerBound).toBe(1 + 30 + 40 + 6);
  });
});

describe("best's figures of its baselines, where the problem depends on the strategy", () => {
  const portfolio = { winner: 'tvm-conflicts', m1Peak: 1000, winnerPeak: 3000 }; // of best's problem, bodies sized by best's plan
  const replan = (strategy: string) => ({ m1: 1200, 'tvm-conflicts': 3300 })[strategy] ?? Number.NaN;

  it('says what the winner chosen itself plans of the model planned afresh, as for M1', () => {
    // the winner's peak stayed that of best's problem: "tvm-conflicts chosen itself … plans" a figure of no plan it makes
    expect(ownBoundFields(0, [], portfolio, replan).portfolio).toEqual({ winner: 'tvm-conflicts', m1Peak: 1200, winnerPeak: 3300 });
  });

  it('keeps both as they are when the problem is the same for every strategy', () => {
    expect(ownBoundFields(0, [], portfolio, undefined).portfolio).toEqual(portfolio);
  });

  it('plans afresh no figure the portfolio does not give (a crowded spill runs no baseline whole)', () => {
    expect(ownBoundFields(0, [], { winner: 'tflm' }, replan).portfolio).toEqual({ winner: 'tflm' });
  });
});
