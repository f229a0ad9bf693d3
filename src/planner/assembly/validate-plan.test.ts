// validatePlan must accept correct plans and catch every kind of broken one.

import { describe, expect, it } from 'vitest';
import { assignOffsets } from './assign-offsets';
import type { Placement, PlacementProblem } from '../problem/problem';
import { networkLikeProblem } from '../testing/instances';
import { validatePlan, type ViolationKind } from './validate-plan';

const problem: PlacementProblem = {
  alignment: 4,
  buffers: [
    { id: 0, name: 'a', start: 0, end: 2, size: 8 },
    { id: 1, name: 'b', start: 1, end: 3, size: 8 },
    { id: 2, name: 'c', start: 2, end: 4, size: 4 },
    { id: 3, name: 'view', start: 2, end: 3, size: 4 },
    { id: 4, name: 'pinned', start: 0, end: 4, size: 4, fixedOffset: 16 },
  ],
  aliases: [{ buffer: 3, parent: 1, offset: 4 }],
};
// a: [0,8) steps 0-1; b: [8,16) steps 1-2; view inside b at 12; c: [0,4) steps 2-3; pinned [16,20)
const good: Placement = { offsets: [0, 8, 0, 12, 16], peak: 20 };

function kinds(placement: Placement): ViolationKind[] {
  return validatePlan(problem, placement).violations.map((v) => v.kind);
}

describe('validatePlan', () => {
  it('accepts a correct plan', () => {
    expect(validatePlan(problem, good)).toEqual({ valid: true, violations: [] });
  });

  it('catches two live buffers overlapping in address, naming both', () => {
    const result = validatePlan(problem, { offsets: [0, 4, 0, 8, 16], peak: 20 });
    expect(result.valid).toBe(false);
    expect(result.violations).toEqual([expect.objectContaining({ kind: 'overlap', buffers: [0, 1] })]);
  });

  it('allows overlap when lifetimes do not meet, and between alias group members', () => {
    // c reuses a's bytes ([0,2) and [2,4) never meet); the view overlaps its parent b on purpose
    expect(kinds(good)).toEqual([]);
  });

  it('catches a misaligned offset', () => {
    expect(kinds({ offsets: [0, 8, 2, 12, 16], peak: 20 })).toEqual(['misaligned']);
  });

  it('catches a wrong peak, for the plan and for a region', () => {
    expect(kinds({ offsets: good.offsets, peak: 24 })).toEqual(['peak']);
    expect(kinds({ ...good, regions: [{ name: 'default', peak: 12 }] })).toEqual(['peak']);
  });

  it('catches a broken alias, a moved fixed buffer, negative and missing offsets', () => {
    expect(kinds({ offsets: [0, 8, 0, 8, 16], peak: 20 })).toEqual(['alias']);
    expect(kinds({ offsets: [0, 8, 0, 12, 20], peak: 24 })).toEqual(['fixed']);
    expect(kinds({ offsets: [-4, 8, 0, 12, 16], peak: 20 })).toContain('negative');
    expect(kinds({ offsets: [0, 8, 0, 12], peak: 16 })).toEqual(['unplaced', 'unplaced']);
    expect(kinds({ offsets: [0, 8, 0.5, 12, 16], peak: 20 })).toContain('unplaced');
  });

  it('finds an injected overlap among 100,000 buffers', () => {
    const big = networkLikeProblem(100_000, 3);
    const plan = assignOffsets(big, 'tflm');
    expect(validatePlan(big, plan).valid).toBe(true);
    // move one buffer onto a buffer it conflicts with
    const victim = big.buffers.findIndex((b, i) => i > 50_000 && b.end - b.start > 3);
    const other = big.buffers.findIndex((b, i) => i !== victim && b.start < big.buffers[victim]!.end && big.buffers[victim]!.start < b.end);
    const offsets = plan.offsets.slice();
    offsets[victim] = offsets[other]!;
    const peak = Math.max(...offsets.map((o, i) => o + big.buffers[i]!.size));
    const result = validatePlan(big, { offsets, peak });
    expect(result.valid).toBe(false);
    expect(result.violations.every((v) => v.kind === 'overlap' && v.buffers.includes(victim))).toBe(true);
    expect(result.violations.some((v) => v.buffers.includes(other))).toBe(true);
  });
});
