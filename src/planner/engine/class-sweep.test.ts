// The size-class sweeps (class-sweep.ts): valid, deterministic plans on
// thousands of random problems, aliases and alignment included, and on a
// crowded network-like trace a peak no higher than greedy by size (tflm),
// which a sweep by start alone does not reach there.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { validatePlan } from '../assembly/validate-plan';
import type { PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { heavyNetworkProblem } from '../testing/instances-heavy';
import { planOf } from '../testing/region-plans';
import { classSweepPlace } from './class-sweep';
import { sweepPlace } from './sweep';

const spread = arbitraryProblem({ maxBuffers: 60, maxStep: 24, maxSize: 256, aliases: true, fixed: false, regions: true });
const crowded = arbitraryProblem({ maxBuffers: 80, maxStep: 6, maxSize: 64, aliases: true, fixed: false, regions: false });

function classSweepsAreValid(problem: PlacementProblem): void {
  for (const tightest of [false, true]) {
    const plan = planOf(problem, (prep) => classSweepPlace(prep, tightest));
    if (plan !== undefined) expect(validatePlan(problem, plan).violations).toEqual([]);
  }
}

describe('classSweepPlace', () => {
  it('gives valid plans on random problems with aliases, alignment and regions', () => {
    fc.assert(fc.property(spread, classSweepsAreValid), { numRuns: 1500 });
  });

  it('gives valid plans on crowded random problems', () => {
    fc.assert(fc.property(crowded, classSweepsAreValid), { numRuns: 1500 });
  });

  it('packs a crowded network-like trace of 10k buffers no higher than greedy by size, where the sweeps by start do not', () => {
    const problem = heavyNetworkProblem(10_000, 10_000);
    const classed = planOf(problem, (prep) => classSweepPlace(prep))!;
    expect(validatePlan(problem, classed).violations).toEqual([]);
    const bySize = assignOffsets(problem, 'tflm');
    const swept = planOf(problem, (prep) => sweepPlace(prep, true))!;
    expect(classed.peak).toBeLessThanOrEqual(bySize.peak);
    expect(swept.peak).toBeGreaterThan(bySize.peak);
  });
});
