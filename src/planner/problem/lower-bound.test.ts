// The lower bound: hand-computed sweeps, alias groups counted honestly.

import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { liveProfile, lowerBound } from './lower-bound';
import { resolveAliasGroups } from './alias-groups';
import type { PlacementProblem, PlanBuffer } from './problem';
import { validatePlan } from '../assembly/validate-plan';

function buffers(rows: readonly (readonly [number, number, number])[]): PlanBuffer[] {
  return rows.map(([start, end, size], id) => ({ id, name: `b${id}`, start, end, size }));
}

describe('lowerBound', () => {
  it('is the most bytes live at one step, with half-open lifetimes', () => {
    // [0,2) and [2,4) never meet; [1,3) meets both: steps 0..3 hold 4, 9, 8, 3
    const problem = { buffers: buffers([[0, 2, 4], [2, 4, 3], [1, 3, 5]]) };
    const bound = lowerBound(problem);
    expect([bound.lowerBound, bound.peakStep, bound.liveAtPeak]).toEqual([9, 1, [0, 2]]);
    const plan = assignOffsets(problem, 'best');
    expect(plan.peak).toBe(9);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('is 0 without buffers, and ignores zero-size buffers', () => {
    expect(lowerBound({ buffers: [] })).toEqual({ lowerBound: 0, peakStep: undefined, liveAtPeak: [], regions: [] });
    const problem = { buffers: buffers([[0, 5, 0], [1, 2, 7]]) };
    expect(lowerBound(problem).lowerBound).toBe(7);
    expect(validatePlan(problem, assignOffsets(problem, 'tflm')).valid).toBe(true);
  });

  it('counts an alias group once: a window counts only while it is live on its own', () => {
    // Concat output b0 [2,4) 8 bytes with inputs b1 (window 0..4, [0,3)) and b2 (window 4..8, [1,3))
    const problem: PlacementProblem = {
      buffers: buffers([[2, 4, 8], [0, 3, 4], [1, 3, 4]]),
      aliases: [
        { buffer: 1, parent: 0, offset: 0 },
        { buffer: 2, parent: 0, offset: 4 },
      ],
    };
    const profile = liveProfile(problem, resolveAliasGroups(problem).groups);
    expect([...profile.times]).toEqual([0, 1, 4]);
    expect([...profile.live]).toEqual([4, 8, 0]);
    expect(lowerBound(problem).lowerBound).toBe(8);
    const plan = assignOffsets(problem, 'best');
    expect([plan.peak, plan.offsets]).toEqual([8, [0, 0, 4]]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('counts overlapping views of one tensor once', () => {
    // a Reshape (b1) and a Flatten (b2) of b0, all alive at step 1
    const problem: PlacementProblem = {
      buffers: buffers([[0, 2, 6], [1, 3, 6], [1, 2, 6], [0, 3, 1]]),
      aliases: [
        { buffer: 1, parent: 0, offset: 0 },
        { buffer: 2, parent: 0, offset: 0 },
      ],
    };
    expect(lowerBound(problem).lowerBound).toBe(7);
    const plan = assignOffsets(problem, 'best');
    expect(plan.peak).toBe(7);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('is at least the top of a buffer with a fixed offset', () => {
    const problem = { buffers: [{ id: 0, name: 'pinned', start: 0, end: 1, size: 10, fixedOffset: 100 }] };
    expect(lowerBound(problem).lowerBound).toBe(110);
    const plan = assignOffsets(problem, 'best');
    expect([plan.peak, plan.optimal]).toEqual([110, true]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('sums the bounds of separate regions and reports each', () => {
    const problem = {
      buffers: [
        { id: 0, name: 'a', start: 0, end: 2, size: 4, region: 'sram' },
        { id: 1, name: 'b', start: 1, end: 3, size: 4, region: 'sram' },
        { id: 2, name: 'c', start: 0, end: 3, size: 100, region: 'dram' },
      ],
    };
    const bound = lowerBound(problem);
    expect(bound.regions.map((r) => [r.name, r.lowerBound, r.peakStep])).toEqual([
      ['sram', 8, 1],
      ['dram', 100, 0],
    ]);
    expect([bound.lowerBound, bound.peakStep, bound.liveAtPeak]).toEqual([108, 0, [2]]);
    expect(validatePlan(problem, assignOffsets(problem, 'best')).valid).toBe(true);
  });
});

describe('liveProfile', () => {
  it('is made once for a region asked again (its bound, then a placement order), and afresh for other groups', () => {
    // steps 0..3 hold 4, 9, 8, 3
    const problem = { buffers: buffers([[0, 2, 4], [2, 4, 3], [1, 3, 5]]) };
    const { groups } = resolveAliasGroups(problem);
    const profile = liveProfile(problem, groups);
    expect([...profile.times, ...profile.live]).toEqual([0, 1, 2, 3, 4, 4, 9, 8, 3, 0]);
    expect(liveProfile(problem, [...groups])).toBe(profile);
    // a subset of the groups, then the groups of a fresh resolution, never get the last profile back
    const first = liveProfile(problem, groups.slice(0, 1));
    expect([...first.times, ...first.live]).toEqual([0, 2, 4, 0]);
    const again = liveProfile(problem, resolveAliasGroups(problem).groups);
    expect(again).not.toBe(profile);
    expect([...again.times, ...again.live]).toEqual([0, 1, 2, 3, 4, 4, 9, 8, 3, 0]);
    expect(validatePlan(problem, assignOffsets(problem, 'greedy-breadth')).valid).toBe(true);
  });
});
