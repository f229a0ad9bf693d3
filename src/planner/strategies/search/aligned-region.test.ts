import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../../assembly/assign-offsets';
import { validatePlan } from '../../assembly/validate-plan';
import type { PlacementProblem } from '../../problem/problem';
import { tiledProblem } from '../../testing/instances';

/** `problem` with every size times `unit` and every buffer aligned to `unit`, as a target's region aligns them. */
function aligned(problem: PlacementProblem, unit: number, alignmentOf: (k: number) => number = () => unit): PlacementProblem {
  return { ...problem, buffers: problem.buffers.map((b, k) => ({ ...b, size: b.size * unit, alignment: alignmentOf(k) })) };
}

describe('the exact search on aligned regions', () => {
  // A tiling greedy placement misses (1,064 units without the search) whose optimum is its 1,000-unit height.
  const tiling = tiledProblem(60, 1000, 200, 1);

  it('searches a region whose buffers share a 64-byte alignment in units of 64, reaching and proving the optimum', () => {
    const problem = aligned(tiling.problem, 64);
    const greedy = assignOffsets(problem, 'best', { exact: { off: true } });
    expect(greedy.peak).toBeGreaterThan(tiling.optimum * 64);
    const result = assignOffsets(problem, 'best', { budgetMs: 60_000 });
    expect(validatePlan(problem, result).valid).toBe(true);
    expect(result.peak).toBe(tiling.optimum * 64);
    expect(result.optimal).toBe(true);
    expect(result.offsets.every((offset) => offset % 64 === 0)).toBe(true);
  });

  it('reports progress in bytes, not in units', () => {
    const problem = aligned(tiling.problem, 64);
    const seen: number[] = [];
    assignOffsets(problem, 'best', { budgetMs: 60_000, onProgress: (p) => seen.push(p.peak, p.bound) });
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(tiling.optimum * 64);
  });

  it('leaves a region of mixed alignments to the other stages, still valid and never above greedy', () => {
    const problem = aligned(tiling.problem, 64, (k) => (k % 2 === 0 ? 64 : 32));
    const greedy = assignOffsets(problem, 'best', { exact: { off: true } });
    const result = assignOffsets(problem, 'best', { budgetMs: 2_000 });
    expect(validatePlan(problem, result).valid).toBe(true);
    expect(result.peak).toBeLessThanOrEqual(greedy.peak);
  });
});
