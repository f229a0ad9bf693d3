// Every greedy strategy against the rectangle walk it used to run on
// (testing/walk-placer.ts, the placer before the occupancy tree): the same
// offset for every item, on random problems (aliases, fixed offsets,
// alignments, zero sizes, two regions), on crowded ones, and on crowded
// traces of a few thousand buffers like the benchmark's.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Placer, type Fit } from '../../engine/placer';
import { orderItems, type OrderKey } from '../../engine/orders';
import { prepareRegion, type PreparedRegion } from '../../engine/prepared';
import { groupsByRegion, resolveAliasGroups } from '../../problem/alias-groups';
import type { PlacementProblem } from '../../problem/problem';
import { arbitraryProblem } from '../../testing/arbitraries';
import { heavyNetworkProblem, trainingLikeProblem } from '../../testing/instances-heavy';
import { LLAMA_TRAINING, microBatchesFor, trainingStepProblem } from '../../testing/instances-training';
import { walkM1, WalkPlacer } from '../../testing/walk-placer';
import { validatePlan } from '../../assembly/validate-plan';
import { assignOffsets } from '../../assembly/assign-offsets';
import type { Strategy } from '../strategy';
import { bestFit } from './best-fit';
import { greedyBreadth } from './greedy-breadth';
import { m1, m1Order } from './m1';
import { tflm, tflmOrder } from './tflm';
import { tvmConflicts, tvmConflictsOrder } from './tvm-conflicts';

/** Each greedy strategy with the offsets the rectangle walk gives it. */
const GREEDY: readonly (readonly [Strategy, (prep: PreparedRegion) => Float64Array])[] = [
  [tflm, (prep) => walk(prep, tflmOrder(prep), 'first')],
  [bestFit, (prep) => walk(prep, orderItems(prep, 'size'), 'best')],
  [greedyBreadth, (prep) => walk(prep, orderItems(prep, 'breadth'), 'best')],
  [tvmConflicts, (prep) => walk(prep, tvmConflictsOrder(prep), 'above')],
  [m1, walkM1],
];
const KEYS: readonly OrderKey[] = ['size', 'urgency', 'breadth', 'area', 'duration', 'conflicts', 'start'];
const FITS: readonly Fit[] = ['first', 'best', 'above'];

function walk(prep: PreparedRegion, order: Int32Array, fit: Fit): Float64Array {
  const placer = new WalkPlacer(prep);
  placer.placeAll(order, fit);
  return placer.offsets;
}

function regions(problem: PlacementProblem): PreparedRegion[] {
  const groups = resolveAliasGroups(problem).groups;
  return groupsByRegion(problem, groups).map(({ name, groups: g }) => prepareRegion(problem, name, g));
}

/** Checks every greedy strategy, then every order and fit on one reused placer, against the walk. */
function sameAsWalk(problem: PlacementProblem, everyOrder: boolean): void {
  for (const prep of regions(problem)) {
    for (const [strategy, reference] of GREEDY) {
      const { offsets } = strategy.plan(prep, { lowerBound: 0, options: {} });
      expect(Array.from(offsets), strategy.name).toEqual(Array.from(reference(prep)));
    }
    if (!everyOrder) continue;
    const placer = new Placer(prep);
    for (const key of KEYS) {
      const order = orderItems(prep, key);
      for (const fit of FITS) {
        placer.placeAll(order, fit);
        expect(Array.from(placer.offsets), `${key} ${fit}`).toEqual(Array.from(walk(prep, order, fit)));
      }
    }
    sameAsWalkWithWholeUnions(prep);
  }
  for (const [strategy] of GREEDY) expect(validatePlan(problem, assignOffsets(problem, strategy.name)).violations).toEqual([]);
}

/**
 * The placer with the occupancy tree's `whole` unions kept from low levels
 * up (on small problems the tree keeps none, or only near the root), against
 * the walk: every fit in two orders, and M1's lowest clear base.
 */
function sameAsWalkWithWholeUnions(prep: PreparedRegion): void {
  for (const wholeLevel of [1, 2, 3]) {
    const placer = new Placer(prep, { wholeLevel });
    for (const key of ['size', 'start'] as const) {
      const order = orderItems(prep, key);
      for (const fit of FITS) {
        placer.placeAll(order, fit);
        expect(Array.from(placer.offsets), `whole from level ${wholeLevel}: ${key} ${fit}`).toEqual(Array.from(walk(prep, order, fit)));
      }
    }
    placer.reset();
    for (const item of m1Order(prep)) placer.set(item, placer.lowestClear(item));
    expect(Array.from(placer.offsets), `whole from level ${wholeLevel}: m1`).toEqual(Array.from(walkM1(prep)));
  }
}

/**
 * Puts the items `at` gives a base (NaN: none), then places the rest by size
 * with best fit, on the placer with `whole` unions at the chosen level and
 * from levels 1 and 2, and on the walk; the placer must agree with the walk
 * on each. Returns the walk's bases.
 */
function bestFitsAmongPlaced(prep: PreparedRegion, at: (item: number) => number): number[] {
  const bases: number[] = [];
  for (const wholeLevel of [undefined, 1, 2]) {
    const [placer, reference] = [new Placer(prep, { wholeLevel }), new WalkPlacer(prep)];
    const order = orderItems(prep, 'size');
    for (const item of order) if (!Number.isNaN(at(item))) [placer, reference].forEach((p) => p.set(item, at(item)));
    bases.length = 0;
    for (const item of order) {
      if (!Number.isNaN(at(item))) continue;
      const base = reference.place(item, 'best');
      expect(placer.place(item, 'best'), `whole from level ${wholeLevel ?? 'chosen'}`).toBe(base);
      bases.push(base);
    }
  }
  return bases;
}

describe('the greedy strategies on the occupancy tree', () => {
  it('place every item where the rectangle walk does, on random problems', () => {
    const rich = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
    fc.assert(fc.property(rich, (problem) => sameAsWalk(problem, true)), { numRuns: 600 });
  });

  it('place every item where the rectangle walk does when most buffers are live together', () => {
    const crowded = arbitraryProblem({ maxBuffers: 80, maxStep: 8, maxSize: 64, aliases: true, fixed: true, regions: false });
    fc.assert(fc.property(crowded, (problem) => sameAsWalk(problem, true)), { numRuns: 300 });
  });

  it('place every item where the rectangle walk does on crowded traces of thousands of buffers', () => {
    for (const problem of [
      heavyNetworkProblem(1_500, 3),
      trainingLikeProblem(1_500, 5),
      trainingStepProblem(LLAMA_TRAINING, microBatchesFor(LLAMA_TRAINING, 2_500)),
    ]) {
      sameAsWalk(problem, false);
    }
  });

  it('best-fit among items put anywhere like the walk: the tightest gap, the lowest of equals, an exact fit past a near one', () => {
    // small sizes, offsets on a byte grid, no alignments: gaps of every slack, exact fits among them
    const small = arbitraryProblem({ maxBuffers: 40, maxStep: 16, maxSize: 4, aliases: false, fixed: false, regions: false });
    fc.assert(
      fc.property(small, fc.array(fc.nat(60), { minLength: 20, maxLength: 20 }), (problem, at) => {
        const plain = { ...problem, buffers: problem.buffers.map(({ alignment: _, ...buffer }) => buffer) };
        for (const prep of regions(plain)) bestFitsAmongPlaced(prep, (item) => (item % 2 === 0 ? at[(item >>> 1) % at.length]! : NaN));
      }),
      { numRuns: 400 },
    );
    // a buffer live over every step: above a gap one byte too big for it, one it fills exactly
    const steps = [0, 1, 2, 3].map((start, id) => ({ id, name: `b${id}`, size: 1, start, end: 8 }));
    const problem = { buffers: [...steps, { id: 4, name: 'b4', size: 2, start: 0, end: 8 }] };
    for (const prep of regions(problem)) {
      const placedAt = [0, 4, 7, 8, NaN];
      expect(bestFitsAmongPlaced(prep, (item) => placedAt[item]!)).toEqual([5]);
    }
  });

  it('keep a lowest fit above a floor and placements after an unplacing the same as the walk', () => {
    const rich = arbitraryProblem({ maxBuffers: 30, maxStep: 12, maxSize: 128, aliases: true, fixed: true, regions: false });
    fc.assert(
      fc.property(rich, fc.nat(), (problem, seed) => {
        for (const prep of regions(problem)) {
          const [placer, reference] = [new Placer(prep), new WalkPlacer(prep)];
          const order = orderItems(prep, 'size');
          order.forEach((item, k) => {
            const floor = (seed >>> k % 16) & 1 ? 0 : (seed % 97) * (k + 1);
            expect(placer.lowestFit(item, floor)).toBe(reference.lowestFit(item, floor));
            expect(placer.place(item, 'first')).toBe(reference.place(item, 'first'));
            if (k % 3 === 2) [placer, reference].forEach((p) => p.set(order[k - 1]!, NaN)); // unplaced: the tree steps aside
          });
          expect(Array.from(placer.offsets)).toEqual(Array.from(reference.offsets));
        }
      }),
      { numRuns: 300 },
    );
  });
});
