// The placer's own edge cases, beside the property tests that compare it
// with the references (engine.test.ts, strategies/greedy/greedy-reference.test.ts).

import { describe, expect, it } from 'vitest';
import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import type { PlacementProblem } from '../problem/problem';
import { Placer } from './placer';
import { prepareRegion } from './prepared';

describe('the placer', () => {
  it('keeps the ranges of earlier members when its scratch grows for a later one', () => {
    // 40 one-byte buffers fixed at 0..39 over step 1, 40 at 100..139 over step 0; a group of 8 bytes over step 0 and 4 over step 1,
    // whose 4-byte member is walked first and must clear 0..39
    const buffers = Array.from({ length: 80 }, (_, i) => ({ id: i, name: `f${i}`, size: 1, start: i < 40 ? 1 : 0, end: i < 40 ? 2 : 1, fixedOffset: i < 40 ? i : 60 + i }));
    const problem: PlacementProblem = {
      buffers: [...buffers, { id: 80, name: 'x', size: 8, start: 0, end: 1 }, { id: 81, name: 'view', size: 4, start: 1, end: 2 }],
      aliases: [{ buffer: 81, parent: 80, offset: 0 }],
    };
    const [region] = groupsByRegion(problem, resolveAliasGroups(problem).groups);
    const prep = prepareRegion(problem, region!.name, region!.groups);
    const item = prep.groups.findIndex((g) => g.members.includes(80));
    const placer = new Placer(prep);
    placer.load(prep.itemFixed); // after a load the placer walks rectangles
    expect(placer.lowestFit(item, 0)).toBe(40);
    expect(new Placer(prep).lowestFit(item, 0)).toBe(40);
  });
});
