// The time-indexed engine against the pairwise one it replaced (kept in
// testing/pairwise-engine.ts as the reference): on thousands of random
// problems, every fixed order and fit places every item at the same offset,
// and the conflict degrees (and their total) agree.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import type { PlacementProblem } from '../problem/problem';
import { tflmOrder } from '../strategies/greedy/tflm';
import { tvmConflictsOrder } from '../strategies/greedy/tvm-conflicts';
import { m1Order } from '../strategies/greedy/m1';
import { arbitraryProblem } from '../testing/arbitraries';
import { PairwisePlacer, pairwiseGraph } from '../testing/pairwise-engine';
import { conflictTotal, itemDegrees } from './degrees';
import { orderItems, type OrderKey } from './orders';
import { Placer, type Fit } from './placer';
import { prepareRegion, type PreparedRegion } from './prepared';

const rich = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
const crowded = arbitraryProblem({ maxBuffers: 60, maxStep: 8, maxSize: 64, aliases: true, fixed: false, regions: false });
const KEYS: readonly OrderKey[] = ['size', 'urgency', 'breadth', 'area', 'duration', 'conflicts', 'start'];
const FITS: readonly Fit[] = ['first', 'best', 'above'];

function regions(problem: PlacementProblem): PreparedRegion[] {
  const groups = resolveAliasGroups(problem).groups;
  return groupsByRegion(problem, groups).map(({ name, groups: g }) => prepareRegion(problem, name, g));
}

function samePlacements(problem: PlacementProblem): number {
  let compared = 0;
  for (const prep of regions(problem)) {
    const degrees = Array.from(pairwiseGraph(prep).itemDegree);
    expect(conflictTotal(prep)).toBe(degrees.reduce((sum, d) => sum + d, 0)); // counted before the per-item degrees exist
    expect(Array.from(itemDegrees(prep))).toEqual(degrees);
    const orders = [...KEYS.map((k) => orderItems(prep, k)), tflmOrder(prep), tvmConflictsOrder(prep), m1Order(prep)];
    const placer = new Placer(prep);
    const reference = new PairwisePlacer(prep);
    for (const order of orders) {
      for (const fit of FITS) {
        expect(placer.placeAll(order, fit)).toBe(referencePeak(reference, order, fit));
        expect(Array.from(placer.offsets)).toEqual(Array.from(reference.offsets));
        compared++;
      }
    }
  }
  return compared;
}

/** The reference peak, ignoring items that hold no bytes (as the engine does). */
function referencePeak(reference: PairwisePlacer, order: Int32Array, fit: Fit): number {
  reference.placeAll(order, fit);
  let peak = 0;
  reference.offsets.forEach((base, i) => {
    if (reference.prep.itemExtent[i]! > 0) peak = Math.max(peak, base + reference.prep.itemExtent[i]!);
  });
  return peak;
}

describe('the time-indexed engine', () => {
  it('places exactly like the pairwise engine on every fixed order and fit', () => {
    fc.assert(
      fc.property(rich, (problem) => {
        samePlacements(problem);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees on crowded problems where most buffers are live together', () => {
    fc.assert(
      fc.property(crowded, (problem) => {
        samePlacements(problem);
      }),
      { numRuns: 1000 },
    );
  });
});
