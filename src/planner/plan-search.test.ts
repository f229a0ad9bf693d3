// The search record of a model plan: proven only at the bound or after an
// exhaustive search, and a search stopped by the caller keeps a valid plan no
// higher than the portfolio's.

import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../model/inferred';
import { planModel } from './plan';
import { withoutSearchBudget } from './strategies/strategy';
import { testTarget, tinyGraph, TinyGraph } from './testing/tiny-graph';

/**
 * `count` activations of mixed sizes live over overlapping stretches of time
 * (a fixed seed), each read once by a node with a small output: a packing
 * that greedy orders do not solve and the exact search has work to do on.
 */
function crowdedModel(count: number, seed: number): InferredModel {
  let state = seed >>> 0;
  const random = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const events = Array.from({ length: count }, (_, k) => {
    const at = random() * 100;
    return [{ k, at, open: true }, { k, at: at + 3 + random() * 30, open: false }];
  }).flat();
  events.sort((a, b) => a.at - b.at);
  const g: TinyGraph = tinyGraph('uint8').input('x', [4]);
  for (const e of events) {
    if (e.open) g.node('Conv', ['x'], { [`t${e.k}`]: [16 * (1 + Math.floor(random() * 64))] }, { name: `make${e.k}` });
    else g.node('Conv', [`t${e.k}`], { [`r${e.k}`]: [1] }, { name: `read${e.k}` });
  }
  return g.output(...events.filter((e) => !e.open).map((e) => `r${e.k}`)).model();
}

describe('the search record of a model plan', () => {
  it('says proven for a plan at its lower bound', () => {
    const model = tinyGraph('uint8').input('x', [10]).node('Conv', ['x'], { a: [20] }).node('Conv', ['a'], { b: [5] }).output('b').model();
    const plan = planModel(model, testTarget());
    expect(plan.optimal).toBe(true);
    expect(plan.search).toEqual({ proven: true, stoppedBy: 'optimal', proof: 'lower-bound' });
  });

  it('says not proven, stopped, when the caller stops the exact search, and keeps a valid plan no higher than the portfolio', () => {
    const model = crowdedModel(40, 4);
    const target = testTarget();
    const portfolio = planModel(model, target, { strategy: 'best', planOptions: { budgetMs: Number.POSITIVE_INFINITY, exact: { off: true } } });
    const seen: { peak: number; bound: number }[] = [];
    const stopped = planModel(model, target, { strategy: 'best', planOptions: { budgetMs: Number.POSITIVE_INFINITY, onProgress: (p) => seen.push(p), shouldStop: () => seen.length > 0 } });
    expect(stopped.valid).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    expect(stopped.peak).toBeLessThanOrEqual(portfolio.peak);
    expect(stopped.peak).toBeGreaterThan(stopped.lowerBound);
    expect(stopped.search).toEqual({ proven: false, stoppedBy: 'time' });
    // Left to run, the search proves this one at its bound.
    const searched = planModel(model, target, { strategy: 'best', planOptions: { budgetMs: Number.POSITIVE_INFINITY } });
    expect([searched.peak, searched.search]).toEqual([searched.lowerBound, { proven: true, stoppedBy: 'optimal', proof: 'lower-bound' }]);
  });

  it('says proven only when a strategy without a search is at the bound', () => {
    for (const strategy of ['naive', 'tflm', 'best-fit']) {
      const plan = planModel(crowdedModel(30, 7), testTarget(), { strategy });
      expect(plan.search?.proven).toBe(plan.optimal);
    }
  });

  it('leaves out the caller\'s budget and callbacks for the plans made after it (suggestions)', () => {
    const callbacks = { onProgress: () => undefined, shouldStop: () => false };
    expect(withoutSearchBudget({ budgetMs: 60_000, ...callbacks, local: { iterations: 10 } })).toEqual({ local: { iterations: 10 } });
    expect(withoutSearchBudget({ budgetMs: 60_000, ...callbacks })).toBeUndefined();
    expect(withoutSearchBudget(undefined)).toBeUndefined();
  });
});
