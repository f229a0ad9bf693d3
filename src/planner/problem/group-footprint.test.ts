// The sweep of an alias group's live footprint equals the union of its live
// members' byte ranges recomputed at every step.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AliasGroup } from './alias-groups';
import { groupFootprintDeltas } from './group-footprint';
import { unionBytes } from './lower-bound';
import type { PlacementProblem } from './problem';

/** The footprint at each step from 0 to `horizon`, by rescanning every member. */
function rescanned(problem: PlacementProblem, group: AliasGroup, horizon: number): number[] {
  return Array.from({ length: horizon }, (_, t) =>
    unionBytes(
      group.members
        .map((b, i) => ({ buffer: problem.buffers[b]!, rel: group.rel[i]! }))
        .filter(({ buffer }) => buffer.start <= t && t < buffer.end && buffer.size > 0)
        .map(({ buffer, rel }) => [rel, rel + buffer.size] as const),
    ),
  );
}

/** The footprint at each step from 0 to `horizon`, from the sweep's changes. */
function swept(problem: PlacementProblem, group: AliasGroup, horizon: number): number[] {
  const change = new Map<number, number>();
  let last = -Infinity;
  groupFootprintDeltas(problem, group, (t, delta) => {
    expect(t).toBeGreaterThan(last); // one change per step, in step order
    last = t;
    change.set(t, delta);
  });
  let live = 0;
  return Array.from({ length: horizon }, (_, t) => (live += change.get(t) ?? 0));
}

const member = fc.record({
  start: fc.integer({ min: 0, max: 12 }),
  length: fc.integer({ min: 0, max: 6 }),
  size: fc.integer({ min: 0, max: 40 }),
  rel: fc.integer({ min: 0, max: 60 }),
});

describe('groupFootprintDeltas', () => {
  it('matches the union of live members recomputed at every step', () => {
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 12 }), (rows) => {
        const buffers = rows.map((r, id) => ({ id, name: `b${id}`, start: r.start, end: r.start + r.length, size: r.size }));
        const group: AliasGroup = { members: buffers.map((b) => b.id), rel: rows.map((r) => r.rel), modulus: 1, phase: 0, fixedBase: undefined, region: '' };
        const problem = { buffers };
        expect(swept(problem, group, 20)).toEqual(rescanned(problem, group, 20));
      }),
      { numRuns: 500 },
    );
  });

  it('gives a chain of in-place members one change up and one down', () => {
    const buffers = Array.from({ length: 1000 }, (_, id) => ({ id, name: `r${id}`, start: id, end: id + 2, size: 256 }));
    const group: AliasGroup = { members: buffers.map((b) => b.id), rel: buffers.map(() => 0), modulus: 1, phase: 0, fixedBase: undefined, region: '' };
    const changes: [number, number][] = [];
    groupFootprintDeltas({ buffers }, group, (t, d) => changes.push([t, d]));
    expect(changes).toEqual([[0, 256], [1001, -256]]);
  });
});
