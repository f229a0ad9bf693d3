// The scale path's sweeps (sweep.ts over live-blocks.ts) on thousands of
// random problems, aliases and alignment included: every direction and gap
// rule gives a plan the independent validator accepts, at or above the
// lower bound, and the same plan twice.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePlan } from '../assembly/validate-plan';
import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import { lowerBoundOfGroups } from '../problem/lower-bound';
import type { PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { prepareRegion } from './prepared';
import { sweepPlace } from './sweep';

const spread = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: false, regions: true });
const crowded = arbitraryProblem({ maxBuffers: 80, maxStep: 6, maxSize: 64, aliases: true, fixed: false, regions: false });
const SWEEPS = [[false, false], [true, false], [false, true], [true, true]] as const;

/** Checks every sweep of every region of `problem`. */
function sweepsAreValid(problem: PlacementProblem): void {
  const groups = resolveAliasGroups(problem).groups;
  const bounds = lowerBoundOfGroups(problem, groups).regions;
  const preps = groupsByRegion(problem, groups).map(({ name, groups: g }) => prepareRegion(problem, name, g));
  for (const [tightest, backwards] of SWEEPS) {
    const offsets = new Array<number>(problem.buffers.length).fill(0);
    const regions = preps.map((prep, r) => {
      const items = sweepPlace(prep, tightest, backwards)!;
      expect(Array.from(sweepPlace(prep, tightest, backwards)!)).toEqual(Array.from(items));
      let peak = 0;
      prep.groups.forEach((group, item) =>
        group.members.forEach((b, k) => {
          offsets[b] = items[item]! + group.rel[k]!;
          if (problem.buffers[b]!.size > 0) peak = Math.max(peak, offsets[b]! + problem.buffers[b]!.size);
        }),
      );
      expect(peak).toBeGreaterThanOrEqual(bounds[r]!.lowerBound);
      return { name: prep.name, peak };
    });
    const peak = regions.reduce((sum, r) => sum + r.peak, 0);
    expect(validatePlan(problem, { offsets, peak, regions }).violations).toEqual([]);
  }
}

describe('sweepPlace', () => {
  it('gives valid plans on random problems with aliases, alignment and regions', () => {
    fc.assert(fc.property(spread, sweepsAreValid), { numRuns: 1500 });
  });

  it('gives valid plans on crowded random problems', () => {
    fc.assert(fc.property(crowded, sweepsAreValid), { numRuns: 1500 });
  });
});
