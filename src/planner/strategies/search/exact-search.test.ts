// The exhaustive search, checked against an independent brute force.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAliasGroups } from '../../problem/alias-groups';
import { assignOffsets } from '../../assembly/assign-offsets';
import { prepareRegion, type PreparedRegion } from '../../engine/prepared';
import { lowerBound } from '../../problem/lower-bound';
import type { PlacementProblem } from '../../problem/problem';
import { arbitraryProblem } from '../../testing/arbitraries';
import { bruteForceOptimum } from '../../testing/brute-force';
import { validatePlan } from '../../assembly/validate-plan';
import { exactSearchApplies, searchExact } from './exact-search';

function prepared(problem: PlacementProblem): PreparedRegion {
  return prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
}

/** The buffer offsets of an item placement (all items here are single buffers). */
function placementOf(problem: PlacementProblem, offsets: Float64Array) {
  const list = [...offsets];
  return { offsets: list, peak: Math.max(0, ...list.map((o, i) => o + problem.buffers[i]!.size)) };
}

// MiniMalloc's a.6: greedy by size needs 8 bytes, the optimum is the bound, 6
const A6: PlacementProblem = {
  buffers: [
    [0, 3, 2],
    [2, 5, 2],
    [0, 2, 3],
    [3, 5, 3],
    [1, 4, 1],
  ].map(([start, end, size], id) => ({ id, name: `b${id}`, start: start!, end: end!, size: size! })),
};

describe('searchExact', () => {
  it('finds the optimum below a greedy plan and proves it', () => {
    expect(assignOffsets(A6, 'tflm').peak).toBe(8);
    const result = searchExact(prepared(A6), 8, 6, 100_000);
    expect([result.peak, result.proven]).toEqual([6, true]);
    expect(validatePlan(A6, placementOf(A6, result.offsets!)).valid).toBe(true);
  });

  it('gives up without a proof when the node limit is reached', () => {
    const result = searchExact(prepared(A6), 8, 6, 2);
    expect(result.proven).toBe(false);
    expect(result.nodes).toBe(3);
  });

  it('finds the brute-force optimum from any starting peak', () => {
    const tiny = arbitraryProblem({ maxBuffers: 6, maxStep: 6, maxSize: 6, aliases: false, fixed: false, regions: false });
    fc.assert(
      fc.property(tiny, (problem) => {
        const start = assignOffsets(problem, 'naive').peak + 1;
        const result = searchExact(prepared(problem), start, lowerBound(problem).lowerBound, 1_000_000);
        const optimum = bruteForceOptimum(problem);
        expect([result.proven, result.peak]).toEqual([true, optimum]);
        if (result.offsets !== undefined) {
          expect(validatePlan(problem, placementOf(problem, result.offsets)).violations).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does not take on alias groups whose windows differ, nor too many items', () => {
    const windows: PlacementProblem = {
      buffers: [
        { id: 0, name: 'out', start: 2, end: 4, size: 8 },
        { id: 1, name: 'in', start: 0, end: 3, size: 4 },
      ],
      aliases: [{ buffer: 1, parent: 0, offset: 4 }],
    };
    expect(exactSearchApplies(prepared(windows), 20)).toBe(false);
    expect(exactSearchApplies(prepared(A6), 4)).toBe(false);
    expect(exactSearchApplies(prepared(A6), 5)).toBe(true);
    expect(validatePlan(windows, assignOffsets(windows, 'best')).valid).toBe(true);
  });
});
