// Re-stacking on its own: from a greedy plan of a tiling, each success is a
// valid plan no higher than before, a refusal leaves the plan as it was,
// and rounds of it bring the plan down; moving the whole span below its
// optimum is refuted as a whole, which the exact stage takes as a proof.

import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../../assembly/assign-offsets';
import { validatePlan } from '../../assembly/validate-plan';
import { prepareRegion } from '../../engine/prepared';
import { resolveAliasGroups } from '../../problem/alias-groups';
import { tiledProblem } from '../../testing/instances';
import { pinwheelProblem } from '../../testing/instances-pinwheel';
import { seededRandom } from '../../../shared/random';
import { restackTop } from './restack';

describe('re-stacking', () => {
  it.each([
    ['a tiling of 120', tiledProblem(120, 1 << 16, 60, 7)],
    ['a pinwheel set of 120', pinwheelProblem(120, 1 << 16, 60, 7)],
  ])("lowers a greedy plan of %s buffers step by step, each step a valid plan no higher and each refusal a plan left as it was", (_, packing) => {
    const { problem, optimum } = packing;
    const greedy = assignOffsets(problem, 'tflm');
    const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
    const items = Array.from(prep.freeItems); // without aliases, item i is buffer i
    const offsets = Float64Array.from(greedy.offsets);
    const random = seededRandom(11);
    let peak = greedy.peak;
    expect(peak).toBeGreaterThan(optimum);
    for (let round = 0; round < 300 && peak > optimum; round++) {
      const before = offsets.slice();
      const free = 5 + Math.floor(random() * 40);
      const outcome = restackTop(prep, offsets, items, peak, peak - 1, free, 2_000, () => false, random);
      if (outcome.peak === undefined) {
        expect(offsets).toEqual(before);
        continue;
      }
      expect(outcome.peak).toBeLessThanOrEqual(peak);
      const plan = { offsets: Array.from(offsets), peak: outcome.peak };
      expect(validatePlan(problem, plan).violations).toEqual([]);
      expect(Math.max(...problem.buffers.map((b) => offsets[b.id]! + b.size))).toBe(outcome.peak);
      peak = outcome.peak;
    }
    expect(peak).toBeLessThan(greedy.peak);
    expect(peak).toBeGreaterThanOrEqual(optimum);
  });

  it('says a refutation moved the whole span: below the optimum, with every buffer free, no placement exists', () => {
    const { problem, optimum } = tiledProblem(30, 1 << 12, 20, 3);
    const greedy = assignOffsets(problem, 'tflm');
    const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
    const items = Array.from(prep.freeItems);
    const offsets = Float64Array.from(greedy.offsets);
    // a layer of every buffer moves the whole span; a column only those live at one step and what rests on them
    const outcomes = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) =>
      restackTop(prep, offsets, items, greedy.peak, optimum - 1, items.length, 100_000, () => false, seededRandom(seed)),
    );
    for (const outcome of outcomes) expect(outcome).toMatchObject({ peak: undefined, exhausted: true });
    expect(outcomes.some((o) => o.whole)).toBe(true);
    expect(outcomes.some((o) => !o.whole)).toBe(true);
    expect(Array.from(offsets)).toEqual(greedy.offsets);
  });
});
