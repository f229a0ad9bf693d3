import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { testTarget, twoBranches } from '../testing/tiny-graph';
import { castGraph, copyGraph, recomputeGraph } from '../testing/explain-graphs';
import { applyTargetChange } from './target-change';

/** Plans with the suggestion applied as `plan` with its args would. */
function applied(model: Parameters<typeof planModel>[0], target: Parameters<typeof planModel>[1], s: NonNullable<ReturnType<typeof planModel>['suggestions']>[number], strategy?: string) {
  const chosen = s.strategy ?? strategy;
  return planModel(model, applyTargetChange(target, s.change ?? {}), chosen === undefined ? {} : { strategy: chosen }).peak;
}

describe('suggestPlanChanges', () => {
  it('suggests another execution order with the exact saving', () => {
    const model = twoBranches().model();
    const target = testTarget();
    const plan = planModel(model, target, { suggest: true });
    const order = plan.suggestions!.find((s) => s.kind === 'order')!;
    expect(order.args).toEqual(['--order', 'depth-first']);
    expect(order.saves).toBe(99);
    expect(order.action).toBe('run in depth-first order instead of file: the peak falls to 111 B, 99 B less');
    expect(applied(model, target, order)).toBe(plan.peak - order.saves);
  });

  it('suggests the best strategy over naive', () => {
    const model = twoBranches().model();
    const plan = planModel(model, testTarget(), { strategy: 'naive', suggest: true });
    const s = plan.suggestions!.find((x) => x.kind === 'strategy')!;
    expect(s.args).toEqual(['--strategy', 'best']);
    expect(applied(model, testTarget(), s, 'naive')).toBe(plan.peak - s.saves);
  });

  it('suggests compute units off when a copy to the CPU holds the peak', () => {
    const { graph, target } = copyGraph();
    const plan = planModel(graph.model(), target, { suggest: true });
    const s = plan.suggestions!.find((x) => x.kind === 'compute-units')!;
    expect(s.args).toEqual(['--compute-units', 'off']);
    expect(s.saves).toBe(192);
    expect(applied(graph.model(), target, s)).toBe(plan.peak - 192);
  });

  it('suggests storing a buffer narrow as a model edit, measured', () => {
    const plan = planModel(castGraph().model(), testTarget(), { suggest: true });
    const s = plan.suggestions!.find((x) => x.kind === 'dtype')!;
    expect(s.args).toBeUndefined();
    expect(s.saves).toBe(200);
    expect(s.modelEdit).toBe('move the Cast to float16 before R, so r is stored as float16');
  });

  it('suggests recomputing a cheap producer whose input outlives the far reader', () => {
    const plan = planModel(recomputeGraph().model(), testTarget(), { suggest: true });
    const s = plan.suggestions!.find((x) => x.kind === 'recompute')!;
    expect(s.args).toBeUndefined();
    expect(s.buffer).toBe('r');
    expect(s.saves).toBeGreaterThan(0);
    expect(s.saves).toBeLessThanOrEqual(100);
    expect(s.modelEdit).toBe('compute Relu R again right before E and let E read that copy');
  });

  it('changes nothing without being asked', () => {
    expect(planModel(twoBranches().model(), testTarget()).suggestions).toBeUndefined();
  });
});
