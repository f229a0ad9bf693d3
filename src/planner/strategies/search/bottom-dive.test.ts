// The dive from the bottom: valid canonical placements on random problems,
// and the proofs it gives best's probe on a real trace and on a training-like
// trace that MiniMalloc's search at the bound does not place in its nodes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../../assembly/assign-offsets';
import { prepareRegion, type PreparedRegion } from '../../engine/prepared';
import { resolveAliasGroups } from '../../problem/alias-groups';
import { lowerBoundOfGroups } from '../../problem/lower-bound';
import type { PlacementProblem } from '../../problem/problem';
import { arbitraryProblem } from '../../testing/arbitraries';
import { trainingLikeProblem } from '../../testing/instances-heavy';
import { loadTraces } from '../../testing/shared-data';
import { bottomDive, type DiveTie } from './bottom-dive';
import { probeAtBound } from './exact-plan';
import { minimallocSearch } from './minimalloc-search';

const plain = arbitraryProblem({ maxBuffers: 40, maxStep: 16, maxSize: 64, aliases: false, fixed: false, regions: false }).map((p): PlacementProblem => ({
  ...p,
  alignment: 1,
  buffers: p.buffers.map(({ alignment: _, ...b }) => b),
}));

function prepared(problem: PlacementProblem): { prep: PreparedRegion; items: number[] } {
  const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
  return { prep, items: Array.from(prep.freeItems).filter((i) => prep.itemExtent[i]! > 0) };
}

const live = (prep: PreparedRegion, a: number, b: number) => prep.itemStart[a]! < prep.itemEnd[b]! && prep.itemStart[b]! < prep.itemEnd[a]!;

describe('the dive from the bottom', () => {
  it.each<DiveTie>(['size', 'area'])('places every buffer (ties by %s) apart from those live with it, each on 0 or on the top of one of them', (tie) => {
    fc.assert(
      fc.property(plain, (problem) => {
        const { prep, items } = prepared(problem);
        const offsets = bottomDive(prep, items, tie);
        for (const a of items) {
          const at = offsets[a]!;
          expect(at).toBeGreaterThanOrEqual(0);
          let rests = at === 0;
          for (const b of items) {
            if (a === b || !live(prep, a, b)) continue;
            const overlap = at < offsets[b]! + prep.itemExtent[b]! && offsets[b]! < at + prep.itemExtent[a]!;
            expect(overlap).toBe(false);
            rests ||= offsets[b]! + prep.itemExtent[b]! === at;
          }
          expect(rests).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  const traces = loadTraces();
  it.skipIf(traces === undefined)('places MindSpore\'s Tiny-BERT trace (1,821 buffers) at its lower bound', () => {
    const problem = traces!['somas-tiny-bert.csv']!;
    const { prep, items } = prepared(problem);
    const offsets = bottomDive(prep, items, 'size');
    const peak = Math.max(...items.map((i) => offsets[i]! + prep.itemExtent[i]!));
    expect(peak).toBe(lowerBoundOfGroups(problem, resolveAliasGroups(problem).groups).lowerBound);
  });

  it("gives best's probe the proof on a training-like trace of 3,000 buffers that MiniMalloc's search at the bound does not place in its nodes (by its ties by area: by size it does not)", () => {
    const problem = trainingLikeProblem(3_000, 1);
    const { prep, items } = prepared(problem);
    const bound = lowerBoundOfGroups(problem, resolveAliasGroups(problem).groups).lowerBound;
    expect(minimallocSearch(prep, items, bound, 2 * items.length, () => false, 0).offsets).toBeUndefined();
    // from the plan of greedy by size, as best's probe starts (without aliases, item i is buffer i)
    const greedy = assignOffsets(problem, 'tflm');
    const start = Float64Array.from(greedy.offsets);
    const top = greedy.peak;
    expect(top).toBeGreaterThan(bound);
    const probe = probeAtBound(prep, start, top, bound, { deadline: Number.POSITIVE_INFINITY, clock: () => 0, maxNodes: Number.POSITIVE_INFINITY });
    expect([probe.peak, probe.proven]).toEqual([bound, true]);
  });
});
