// AliasTracker: offsets from the group root stay right whichever of two
// joined groups is the larger, and the reach and the still-read members follow.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BufferSpec } from './build-buffers';
import { AliasTracker } from './build-groups';

function spec(key: number, size: number, end = 10): BufferSpec {
  return { key, name: `b${key}`, kind: 'activation', bytes: size, size, start: 0, end, region: 'ram', node: undefined, graphIo: false };
}

describe('AliasTracker', () => {
  it('keeps offsets from the root when a larger group is attached inside a single buffer', () => {
    const t = new AliasTracker();
    const [outer, inner, a, b] = [spec(0, 100), spec(1, 40), spec(2, 10), spec(3, 20)];
    t.attach(a, inner, 5, 'concat');
    t.attach(b, inner, 20, 'concat');
    t.attach(inner, outer, 30, 'concat'); // inner's group (3) is larger than outer's (1)
    expect([outer, inner, a, b].map((s) => [t.rootOf(s).root.key, t.rootOf(s).rel])).toEqual([[0, 0], [0, 30], [0, 35], [0, 50]]);
    expect(t.reachOf(outer)).toBe(70);
    expect(t.isAlone(outer)).toBe(false);
    expect(t.readAfter(outer, 8).map((s) => s.key).sort()).toEqual([0, 1, 2, 3]); // all read at step 9
    expect(t.readAfter(outer, 9)).toEqual([]);
  });

  it('agrees with offsets summed along the alias chain, for any order of joins', () => {
    // a forest of attachments: buffer k > 0 goes under parent[k] < k at offset[k], in a shuffled order of roots
    const forest = fc.integer({ min: 2, max: 30 }).chain((n) =>
      fc.tuple(
        fc.array(fc.nat(), { minLength: n - 1, maxLength: n - 1 }),
        fc.array(fc.nat(50), { minLength: n - 1, maxLength: n - 1 }),
        fc.shuffledSubarray([...Array(n - 1).keys()], { minLength: n - 1 }),
      ),
    );
    fc.assert(
      fc.property(forest, ([parents, offsets, order]) => {
        const n = parents.length + 1;
        const specs = Array.from({ length: n }, (_, k) => spec(k, 5));
        const parent = (k: number) => parents[k - 1]! % k;
        const t = new AliasTracker();
        // each buffer is attached once, in a random order, so groups of every size join both ways
        for (const j of order) {
          const k = j + 1;
          t.attach(specs[k]!, specs[parent(k)]!, offsets[j]!, 'concat');
        }
        const absolute = (k: number): number => (k === 0 ? 0 : absolute(parent(k)) + offsets[k - 1]!);
        for (let k = 0; k < n; k++) expect([t.rootOf(specs[k]!).root.key, t.rootOf(specs[k]!).rel]).toEqual([0, absolute(k)]);
        const reach = Math.max(...Array.from({ length: n - 1 }, (_, j) => absolute(j + 1) + 5));
        expect(t.reachOf(specs[0]!)).toBe(reach);
      }),
      { numRuns: 300 },
    );
  });
});
