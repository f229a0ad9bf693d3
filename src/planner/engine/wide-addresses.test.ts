// Addresses at or past 2^32: the occupancy tree keeps its pieces in 32 bits
// until one does not fit, then in 64-bit floats; either way every fixed order
// and fit places each item where the pairwise engine does, and the plan of a
// greedy strategy is valid.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { validatePlan } from '../assembly/validate-plan';
import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import type { PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { PairwisePlacer } from '../testing/pairwise-engine';
import { orderItems, type OrderKey } from './orders';
import { Placer, type Fit } from './placer';
import { prepareRegion } from './prepared';

const GB = 1_000_000_000;
const huge = arbitraryProblem({ maxBuffers: 30, maxStep: 10, maxSize: 3 * GB, aliases: true, fixed: false, regions: false });
const KEYS: readonly OrderKey[] = ['size', 'breadth', 'start'];
const FITS: readonly Fit[] = ['first', 'best', 'above'];

/** Compares the engine (with and without `whole` unions) with the pairwise one; returns the highest end placed. */
function samePlacements(problem: PlacementProblem): number {
  let top = 0;
  const groups = resolveAliasGroups(problem).groups;
  for (const { name, groups: g } of groupsByRegion(problem, groups)) {
    const prep = prepareRegion(problem, name, g);
    const reference = new PairwisePlacer(prep);
    for (const placer of [new Placer(prep), new Placer(prep, { wholeLevel: 1 })]) {
      for (const key of KEYS) {
        for (const fit of FITS) {
          const order = orderItems(prep, key);
          placer.placeAll(order, fit);
          reference.placeAll(order, fit);
          expect(Array.from(placer.offsets)).toEqual(Array.from(reference.offsets));
          placer.offsets.forEach((base, i) => (top = Math.max(top, base + prep.itemExtent[i]!)));
        }
      }
    }
  }
  return top;
}

describe('addresses past 32 bits', () => {
  it('places exactly like the pairwise engine when buffers of gigabytes push addresses past 2^32', () => {
    let past = 0;
    fc.assert(
      fc.property(huge, (problem) => {
        if (samePlacements(problem) > 2 ** 32) past++;
      }),
      { numRuns: 300 },
    );
    expect(past).toBeGreaterThan(30); // the 64-bit pieces were reached often
  });

  it('gives a valid plan past 2^32 that fills the gaps below it like the plan of small buffers', () => {
    // three 3 GB buffers live together, then one-byte-aligned small ones around and between them
    const big = 3 * GB;
    const problem: PlacementProblem = {
      buffers: [
        { id: 0, name: 'a', size: big, start: 0, end: 6 },
        { id: 1, name: 'b', size: big, start: 1, end: 5 },
        { id: 2, name: 'c', size: big, start: 2, end: 4 },
        ...Array.from({ length: 40 }, (_, i) => ({ id: 3 + i, name: `s${i}`, size: 1000 + 37 * i, start: i % 7, end: (i % 7) + 1 + (i % 3) })),
      ],
      aliases: [],
    };
    for (const strategy of ['best-fit', 'greedy-breadth', 'tflm'] as const) {
      const plan = assignOffsets(problem, strategy);
      expect(validatePlan(problem, plan).violations).toEqual([]);
      expect(Math.max(...problem.buffers.map((b, i) => plan.offsets[i]! + b.size))).toBeGreaterThan(2 ** 32);
    }
  });
});
