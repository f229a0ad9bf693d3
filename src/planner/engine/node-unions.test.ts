// The occupancy tree's per-node unions against a plain list of the ranges
// added: through random additions to many nodes sharing one arena (lists
// that grow, move and reuse the blocks others left), every union is the
// merged ranges, and an addition says it was held already exactly when the
// union covered it before.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeUnions, PieceArena } from './node-unions';

/** Sorted disjoint pieces of `ranges`, touching ones merged. */
function merged(ranges: readonly (readonly [number, number])[]): number[] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [a, b] of sorted) {
    if (out.length > 0 && a <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, b);
    else out.push(a, b);
  }
  return out;
}

/** The union `unions` keeps for `node`, as [a0, b0, a1, b1, ...]. */
function piecesOf(unions: NodeUnions, node: number): number[] {
  const start = unions.listStart[node]!;
  if (start >= 0) return Array.from(unions.arena.data.subarray(start, start + unions.listLength[node]!));
  const [a, b] = [unions.solo[2 * node]!, unions.solo[2 * node + 1]!];
  return a === b ? [] : [a, b];
}

/** Whether the merged pieces hold all of [a, b). */
function holds(pieces: readonly number[], a: number, b: number): boolean {
  for (let k = 0; k < pieces.length; k += 2) if (pieces[k]! <= a && b <= pieces[k + 1]!) return true;
  return false;
}

const addition = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 30 }));

describe('NodeUnions', () => {
  it('keeps each node the merged ranges added to it and says when one was held already', () => {
    fc.assert(
      fc.property(fc.array(addition, { maxLength: 400 }), (additions) => {
        const arena = new PieceArena();
        const unions = new NodeUnions(8, arena);
        const added: [number, number][][] = Array.from({ length: 8 }, () => []);
        for (const [node, a, length] of additions) {
          const before = merged(added[node]!);
          const held = unions.add(node, a, a + length);
          added[node]!.push([a, a + length]);
          expect(held).toBe(holds(before, a, a + length));
          expect(piecesOf(unions, node)).toEqual(merged(added[node]!));
        }
        for (let node = 0; node < 8; node++) expect(piecesOf(unions, node)).toEqual(merged(added[node]!));
      }),
      { numRuns: 300 },
    );
  });

  it('finds the piece an addition meets in a long list wherever it lies, from the top to below the first', () => {
    const unions = new NodeUnions(1, new PieceArena());
    const ranges: [number, number][] = [];
    // 300 pieces two bytes apart, then additions that bridge, touch or fall between them at every depth
    for (let k = 0; k < 300; k++) {
      unions.add(0, 10 * k, 10 * k + 8);
      ranges.push([10 * k, 10 * k + 8]);
    }
    for (const a of [2999, 2990, 2988, 1500, 1498, 777, 40, 8, 3, 0]) {
      const before = merged(ranges);
      expect(unions.add(0, a, a + 2)).toBe(holds(before, a, a + 2));
      ranges.push([a, a + 2]);
      expect(piecesOf(unions, 0)).toEqual(merged(ranges));
    }
    unions.add(0, -5, -3);
    ranges.push([-5, -3]);
    expect(piecesOf(unions, 0)).toEqual(merged(ranges));
  });
});
