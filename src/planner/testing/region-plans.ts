// Test helper: a whole-problem plan from a per-region placer (a sweep, the
// class sweep), checked on the way for determinism and the lower bound, in
// the form validatePlan takes. Imported by tests only.

import { expect } from 'vitest';
import { spreadItems } from '../assembly/assign-offsets';
import { prepareRegion, type PreparedRegion } from '../engine/prepared';
import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import { lowerBoundOfGroups } from '../problem/lower-bound';
import type { PlacementProblem } from '../problem/problem';

/**
 * The plan of every region by `place`, as buffer offsets and region peaks;
 * undefined when a region declines. Expects `place` to give the same offsets
 * twice and every region's peak to be at or above its lower bound.
 */
export function planOf(problem: PlacementProblem, place: (prep: PreparedRegion) => Float64Array | undefined) {
  const groups = resolveAliasGroups(problem).groups;
  const bounds = lowerBoundOfGroups(problem, groups).regions;
  const offsets = new Array<number>(problem.buffers.length).fill(0);
  const regions = [];
  for (const [r, { name, groups: g }] of groupsByRegion(problem, groups).entries()) {
    const prep = prepareRegion(problem, name, g);
    const items = place(prep);
    if (items === undefined) return undefined;
    expect(Array.from(place(prep)!)).toEqual(Array.from(items));
    const peak = spreadItems(problem, prep.groups, items, offsets);
    expect(peak).toBeGreaterThanOrEqual(bounds[r]!.lowerBound);
    regions.push({ name, peak });
  }
  return { offsets, peak: regions.reduce((sum, r) => sum + r.peak, 0), regions };
}
