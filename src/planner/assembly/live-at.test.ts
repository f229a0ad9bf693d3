import { describe, expect, it } from 'vitest';
import { resolveAliasGroups } from '../problem/alias-groups';
import { liveAtStep, planAliasGroups } from './live-at';
import { liveProfile } from '../problem/lower-bound';
import { planModel, type ModelPlan } from '../plan';
import { testTarget, tinyGraph } from '../testing/tiny-graph';

/**
 * x -> conv_a -> a (16 B) -> relu_b (in place) -> b -> reshape_c (a view) -> c;
 * c -> conv_d -> d (8 B), c -> conv_e -> e (8 B), written into their slots
 * of f = Concat(d, e) (16 B); f -> conv_y -> y (4 B). In uint8, no padding.
 */
const aliased = () =>
  tinyGraph('uint8')
    .input('x', [4])
    .node('Conv', ['x'], { a: [16] }, { name: 'conv_a' })
    .node('Relu', ['a'], { b: [16] }, { name: 'relu_b' })
    .node('Reshape', ['b'], { c: [4, 4] }, { name: 'reshape_c' })
    .node('Conv', ['c'], { d: [8] }, { name: 'conv_d' })
    .node('Conv', ['c'], { e: [8] }, { name: 'conv_e' })
    .node('Concat', ['d', 'e'], { f: [16] }, { name: 'concat_f' })
    .node('Conv', ['f'], { y: [4] }, { name: 'conv_y' })
    .output('y')
    .model();

/** Live bytes per step of a plan's region, from the lower bound's own sweep over alias groups. */
function liveBytes(plan: ModelPlan, region: string, step: number): number {
  const problem = {
    buffers: plan.buffers.map((b) => ({ id: b.id, name: b.name, size: b.size, start: b.start, end: b.end, region: b.region })),
    aliases: plan.buffers.flatMap((b) => (b.alias === undefined ? [] : [{ buffer: b.id, parent: b.alias.parent, offset: b.alias.offset }])),
  };
  const groups = resolveAliasGroups(problem).groups.filter((g) => g.region === region);
  const { times, live } = liveProfile(problem, groups);
  let bytes = 0;
  times.forEach((t, i) => {
    if (t <= step) bytes = live[i]!;
  });
  return bytes;
}

const row = (l: { name: string; size: number; counted: number; sharesWith?: number }) => [l.name, l.size, l.counted, l.sharesWith];

describe('liveAtStep', () => {
  const plan = planModel(aliased(), testTarget());
  const id = (name: string) => plan.buffers.find((b) => b.name === name)!.id;

  it('lists an in-place output, a view and Concat inputs with the bytes each adds and the buffer it shares', () => {
    expect(plan.buffers.filter((b) => b.alias !== undefined).map((b) => [b.name, b.alias!.rule])).toEqual([
      ['b', 'in-place'],
      ['c', 'removable'],
      ['d', 'concat'],
      ['e', 'concat'],
    ]);
    expect(liveAtStep(plan.buffers, 1, 'ram').map(row)).toEqual([
      ['a', 16, 16, undefined],
      ['b', 16, 0, id('a')],
    ]);
    expect(liveAtStep(plan.buffers, 2, 'ram').map(row)).toEqual([
      ['b', 16, 16, undefined],
      ['c', 16, 0, id('b')],
    ]);
    // before the Concat runs, its inputs hold their own bytes ...
    expect(liveAtStep(plan.buffers, 4, 'ram').map(row)).toEqual([
      ['c', 16, 16, undefined],
      ['d', 8, 8, undefined],
      ['e', 8, 8, undefined],
    ]);
    // ... and once the output is live they sit inside it
    expect(liveAtStep(plan.buffers, 5, 'ram').map(row)).toEqual([
      ['f', 16, 16, undefined],
      ['d', 8, 0, id('f')],
      ['e', 8, 0, id('f')],
    ]);
  });

  it('sums to the live bytes at every step, and the peak step to the peak', () => {
    for (let step = 0; step < plan.steps.length; step++) {
      const listed = liveAtStep(plan.buffers, step, 'ram');
      expect(listed.reduce((sum, l) => sum + l.counted, 0), `step ${step}`).toBe(liveBytes(plan, 'ram', step));
    }
    expect([plan.peak, plan.lowerBound, plan.peakStep]).toEqual([32, 32, 4]);
    expect(plan.liveAtPeak).toEqual(liveAtStep(plan.buffers, 4, 'ram'));
    expect(plan.liveAtPeak.reduce((sum, l) => sum + l.counted, 0)).toBe(plan.peak);
  });

  it('lists nothing for a region or step without live buffers', () => {
    expect(liveAtStep(plan.buffers, 2, 'sram')).toEqual([]);
    expect(liveAtStep(plan.buffers, 99, 'ram')).toEqual([]);
  });

  it("resolves a plan's alias groups once, for every step picked, and afresh for another plan's buffers", () => {
    const first = planAliasGroups(plan.buffers);
    for (let step = 0; step < plan.steps.length; step++) liveAtStep(plan.buffers, step, 'ram');
    expect(planAliasGroups(plan.buffers)).toBe(first);
    const other = plan.buffers.slice();
    expect(planAliasGroups(other)).not.toBe(first);
    expect(planAliasGroups(other).resolved.groups).toEqual(first.resolved.groups);
  });
});
