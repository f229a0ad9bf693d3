// The bytes a set of items holds over time, against a step-by-step count.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAliasGroups } from '../problem/alias-groups';
import { arbitraryProblem } from '../testing/arbitraries';
import { liveLevels } from './live-bytes';
import { prepareRegion } from './prepared';

describe('live levels', () => {
  it('has, for every step an item covers, the bytes live there, and ends at 0', () => {
    const problems = arbitraryProblem({ maxBuffers: 20, maxStep: 12, maxSize: 64, aliases: false, fixed: false, regions: false });
    fc.assert(
      fc.property(problems, (problem) => {
        const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
        const items = Array.from({ length: prep.itemCount }, (_, i) => i);
        const levels = liveLevels(prep, items);
        if (items.length > 0) expect(levels[levels.length - 1]).toBe(0);
        for (const i of items) {
          for (let t = prep.itemStart[i]!; t < prep.itemEnd[i]!; t++) {
            const live = items.filter((j) => prep.itemStart[j]! <= t && t < prep.itemEnd[j]!).reduce((sum, j) => sum + prep.itemExtent[j]!, 0);
            expect(levels).toContain(live);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives one level per distinct start or end step, in step order', () => {
    const problem = { buffers: [
      { id: 0, name: 'a', size: 4, start: 0, end: 2 },
      { id: 1, name: 'b', size: 3, start: 1, end: 3 },
      { id: 2, name: 'c', size: 5, start: 2, end: 4 },
    ] };
    const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
    expect(liveLevels(prep, [0, 1, 2])).toEqual([4, 7, 8, 5, 0]);
  });
});
