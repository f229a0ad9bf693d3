import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { prepareRegion } from '../engine/prepared';
import { resolveAliasGroups } from '../problem/alias-groups';
import { heavyNetworkProblem } from '../testing/instances-heavy';
import { minimallocSearch } from './search/minimalloc-search';
import { skylineSearch } from './search/skyline-search';

/** `run` called from under `frames` frames of recursion: less of the call stack left to it. */
function withStackUsed<T>(frames: number, run: () => T): T {
  const pad = new Float64Array(8);
  if (frames === 0) return run();
  pad[frames & 7] = frames;
  const result = withStackUsed(frames - 1, run);
  return pad[frames & 7] === frames ? result : result;
}

describe('a search path deeper than its limit', () => {
  // 3,000 buffers of a crowded network trace: one part, its search paths thousands of buffers deep
  const problem = heavyNetworkProblem(3_000, 1);
  const prep = prepareRegion(problem, 'default', resolveAliasGroups(problem).groups);
  const items = Array.from(prep.freeItems).filter((i) => prep.itemExtent[i]! > 0);
  const bound = assignOffsets(problem, 'naive').lowerBound;

  it('gives the skyline search the same outcome whatever call stack is left to it', () => {
    const run = () => skylineSearch(prep, items, bound, 200_000, () => false);
    const shallow = run();
    const deep = withStackUsed(400, run);
    expect(shallow.exhausted).toBe(false);
    expect(deep.nodes).toBe(shallow.nodes);
    expect(deep.partial).toEqual(shallow.partial);
  });

  it("gives MiniMalloc's search the same outcome whatever call stack is left to it", () => {
    const run = () => minimallocSearch(prep, items, bound, 200_000, () => false, 0);
    const shallow = run();
    const deep = withStackUsed(400, run);
    expect(deep.exhausted).toBe(shallow.exhausted);
    expect(deep.partial).toEqual(shallow.partial);
    expect(deep.offsets).toEqual(shallow.offsets);
  });
});
