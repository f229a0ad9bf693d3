// The scale path's sweeps (sweep.ts over live-blocks.ts) on thousands of
// random problems, aliases and alignment included: every direction and gap
// rule, and the anchored sweep, give a plan the independent validator
// accepts; the anchored sweep packs the busiest step exactly, and reaches
// the bound on a generated trace where the sweeps from the first step do not.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePlan } from '../assembly/validate-plan';
import type { PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { planOf } from '../testing/region-plans';
import { networkLikeProblem } from '../testing/instances';
import { anchoredSweepPlace, sweepPlace } from './sweep';
import { assignOffsets } from '../assembly/assign-offsets';

const spread = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: false, regions: true });
const crowded = arbitraryProblem({ maxBuffers: 80, maxStep: 6, maxSize: 64, aliases: true, fixed: false, regions: false });
const SWEEPS = [[false, false], [true, false], [false, true], [true, true]] as const;

/** Checks every sweep of every region of `problem`. */
function sweepsAreValid(problem: PlacementProblem): void {
  for (const [tightest, backwards] of SWEEPS) {
    const plan = planOf(problem, (prep) => sweepPlace(prep, tightest, backwards))!;
    expect(validatePlan(problem, plan).violations).toEqual([]);
  }
  for (const tightest of [true, false]) {
    const plan = planOf(problem, (prep) => anchoredSweepPlace(prep, tightest))!;
    expect(validatePlan(problem, plan).violations).toEqual([]);
  }
}

/** Bytes live at each step of the problem's one region (every buffer a solid block), and the plan's top there. */
function busiestStepOf(problem: PlacementProblem, offsets: readonly number[]): { live: number; top: number } {
  const steps = [...new Set(problem.buffers.map((b) => b.start))].sort((a, b) => a - b);
  let best = { live: 0, top: 0 };
  for (const step of steps) {
    const here = problem.buffers.filter((b) => b.start <= step && b.end > step && b.size > 0);
    const live = here.reduce((sum, b) => sum + b.size, 0);
    if (live > best.live) best = { live, top: Math.max(0, ...here.map((b) => offsets[b.id]! + b.size)) };
  }
  return best;
}

describe('sweepPlace', () => {
  it('gives valid plans on random problems with aliases, alignment and regions', () => {
    fc.assert(fc.property(spread, sweepsAreValid), { numRuns: 1500 });
  });

  it('gives valid plans on crowded random problems', () => {
    fc.assert(fc.property(crowded, sweepsAreValid), { numRuns: 1500 });
  });
});

describe('anchoredSweepPlace', () => {
  // alignment would pad the stack: every buffer at byte granularity here
  const plain = arbitraryProblem({ maxBuffers: 60, maxStep: 12, maxSize: 64, aliases: false, fixed: false, regions: false }).map(
    (problem): PlacementProblem => ({ buffers: problem.buffers.map(({ alignment: _alignment, ...buffer }) => buffer) }),
  );

  it('stacks the buffers live at the busiest step with no gap between them', () => {
    fc.assert(
      fc.property(plain, (problem) => {
        const plan = planOf(problem, (prep) => anchoredSweepPlace(prep))!;
        const { live, top } = busiestStepOf(problem, plan.offsets);
        expect(top).toBe(live);
      }),
      { numRuns: 1000 },
    );
  });

  it('reaches the lower bound on a network-like trace of 10k buffers, where the sweeps from the first step stay above it', () => {
    const problem = networkLikeProblem(10_000, 10_000);
    const { lowerBound } = assignOffsets(problem, 'naive');
    const anchored = planOf(problem, (prep) => anchoredSweepPlace(prep))!;
    expect(validatePlan(problem, anchored).violations).toEqual([]);
    expect(anchored.peak).toBe(lowerBound);
    for (const [tightest, backwards] of SWEEPS) {
      expect(planOf(problem, (prep) => sweepPlace(prep, tightest, backwards))!.peak).toBeGreaterThan(1.05 * lowerBound);
    }
  });
});
