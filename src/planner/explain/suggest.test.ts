import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { testTarget, tinyGraph, twoBranches } from '../testing/tiny-graph';
import { castGraph, copyGraph, recomputeGraph } from '../testing/explain-graphs';
import { applyTargetChange } from './target-change';
import { parseTarget } from '../targets/parse';

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
    expect(s.action).toMatch(/^run every op on one compute unit \(compute units off\), so no tensor is copied between units/);
  });

  it("words compute units off on a target of one unit as that unit's own rules dropped, not as copies between units", () => {
    // x (40 B) -> a (40 B) -> y (40 B): the one unit's 256-byte alignment rounds each up; the region's 16 does not
    const model = tinyGraph('uint8').input('x', [40]).node('Relu', ['x'], { a: [40] }).node('Relu', ['a'], { y: [40] }).output('y').model();
    const target = parseTarget({
      name: 'board',
      regions: [{ name: 'ram', alignment: 16, fast: false }],
      computeUnits: [{ name: 'dsp', opTypes: ['*'], alignment: 256, dtype: { activations: 'model', fakeQuantization: false } }],
    });
    const plan = planModel(model, target, { suggest: true });
    const s = plan.suggestions!.find((x) => x.kind === 'compute-units')!;
    expect(s.saves).toBeGreaterThan(0);
    expect(applied(model, target, s)).toBe(plan.peak - s.saves);
    expect(s.action).toMatch(/^plan without the dsp unit's own rules, its 256-byte alignment \(compute units off\); as the one unit it runs every op either way: /);
    expect(s.action).not.toContain('copied');
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

  it('suggests spilling to the next region when a plan kept in its first region does not fit, judged by fit', () => {
    // x (40 B) -> a (40 B) -> y (40 B) on an 48 B sram beside an unlimited dram: 80 B live at once, over the sram by 32 B
    const model = tinyGraph('uint8').input('x', [40]).node('Conv', ['x'], { a: [40] }).node('Conv', ['a'], { y: [40] }).output('y').model();
    const target = parseTarget({
      name: 'board',
      regions: [
        { name: 'sram', alignment: 1, fast: true, sizeLimit: 48 },
        { name: 'dram', alignment: 1, fast: false },
      ],
      planning: { spill: 'off' },
    });
    const plan = planModel(model, target, { suggest: true });
    expect(plan.fits).toBe(false);
    const s = plan.suggestions!.find((x) => x.kind === 'spill')!;
    expect(s).toBeDefined();
    expect(plan.suggestions![0]).toBe(s);
    expect(s.args).toEqual(['--spill', 'on']);
    expect(s.fits).toBe(true);
    const after = planModel(model, applyTargetChange(target, s.change!));
    expect(after.fits).toBe(true);
    expect(after.peak).toBe(plan.peak - s.saves);
    const dram = after.regions.find((r) => r.name === 'dram')!;
    expect(s.action).toBe(
      `turn spilling to the next region on: the plan fits; ${after.spill!.spilledBuffers} buffer${after.spill!.spilledBuffers === 1 ? ' spills' : 's spill'} (${dram.spilled} B over the run to dram, which peaks at ${dram.peak} B)`,
    );
    // with spilling on already, nothing to suggest about it
    const on = planModel(model, applyTargetChange(target, { spill: 'on' }), { suggest: true });
    expect(on.suggestions!.some((x) => x.kind === 'spill')).toBe(false);
  });

  it('changes nothing without being asked', () => {
    expect(planModel(twoBranches().model(), testTarget()).suggestions).toBeUndefined();
  });
});
