// A greedy baseline given `dropAt` (strategy.ts, RegionContext) stops once its
// peak reaches it, and only then: what `best` relies on to skip a pass that
// could not win without changing its plan.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareRegion, type PreparedRegion } from '../../engine/prepared';
import { groupsByRegion, resolveAliasGroups } from '../../problem/alias-groups';
import type { PlacementProblem } from '../../problem/problem';
import { arbitraryProblem } from '../../testing/arbitraries';
import { peakOf, runBaselines, smallest, type Candidate } from '../candidates';
import type { Strategy } from '../strategy';
import { bestFit } from './best-fit';
import { greedyBreadth } from './greedy-breadth';
import { m1 } from './m1';
import { naive } from './naive';
import { tflm } from './tflm';
import { tvmConflicts } from './tvm-conflicts';

const GREEDY: readonly Strategy[] = [tflm, bestFit, greedyBreadth, tvmConflicts, m1];

function regions(problem: PlacementProblem): PreparedRegion[] {
  const groups = resolveAliasGroups(problem).groups;
  return groupsByRegion(problem, groups).map(({ name, groups: g }) => prepareRegion(problem, name, g));
}

/** For every greedy strategy and region: dropped exactly when dropAt is at or below the full pass's peak, else the full pass's offsets. */
function dropsOnlyWhenReached(problem: PlacementProblem, share: number): void {
  for (const prep of regions(problem)) {
    for (const strategy of GREEDY) {
      const full = strategy.plan(prep, { lowerBound: 0, options: {} });
      const offsets = Array.from(full.offsets);
      const peak = peakOf(prep, full.offsets);
      expect(full.dropped, strategy.name).toBeUndefined();
      for (const dropAt of [peak + 1, peak, Math.floor(peak * share)]) {
        const cut = strategy.plan(prep, { lowerBound: 0, options: {}, dropAt });
        if (dropAt > peak) {
          expect(cut.dropped, `${strategy.name} at ${dropAt}, peak ${peak}`).toBeUndefined();
          expect(Array.from(cut.offsets), strategy.name).toEqual(offsets);
        } else {
          expect(cut.dropped, `${strategy.name} at ${dropAt}, peak ${peak}`).toBe(true);
          expect(cut.placements, strategy.name).toBeLessThanOrEqual(full.placements);
        }
      }
    }
  }
}

describe('a greedy pass with dropAt', () => {
  it('stops, dropped, exactly when its peak would reach dropAt, and runs in full otherwise', () => {
    const problems = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
    fc.assert(fc.property(problems, fc.double({ min: 0, max: 1, noNaN: true }), dropsOnlyWhenReached), { seed: 33, numRuns: 200 });
  });
});

describe('the baselines run with dropAt', () => {
  it('keep the plan that running each in full keeps: the lowest, the earliest on ties', () => {
    const problems = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
    const order = fc.shuffledSubarray([naive, ...GREEDY], { minLength: 1 });
    fc.assert(
      fc.property(problems, order, (problem, baselines) => {
        for (const prep of regions(problem)) {
          const context = { lowerBound: 0, options: {} };
          const full: Candidate[] = baselines.map((b) => {
            const { offsets } = b.plan(prep, context);
            return { offsets, peak: peakOf(prep, offsets), source: b.name };
          });
          const kept: Candidate[] = [];
          const { dropped } = runBaselines(baselines, prep, context, kept);
          expect(kept.length + dropped).toBeLessThanOrEqual(baselines.length); // fewer only once one reaches the lower bound
          const [want, got] = [smallest(full), smallest(kept)];
          expect(got.source).toBe(want.source);
          expect(Array.from(got.offsets)).toEqual(Array.from(want.offsets));
        }
      }),
      { seed: 33, numRuns: 200 },
    );
  });
});
