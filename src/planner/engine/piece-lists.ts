// Small tools of the occupancy tree's queries (tree-queries.ts,
// short-best-fit.ts) over its ascending piece lists: the work a union query
// counts, find the first piece past an address, gather the single pieces,
// and grow the scratch arrays. Depends only on the arena's entry type.

import type { Pieces } from './node-unions';

/** Work of a query of the occupancy tree (engine/work-clock.ts), with the sort and walk that follow it, and per union piece read. */
export const UNION_QUERY_WORK = 1300;
export const PIECE_WORK = 35;

/**
 * The first piece at or after entry `from` of the ascending pieces
 * [a0, b0, a1, b1, ...] in `pieces` from `from` to entry `end` that ends
 * above `at`: the entry where it starts, `end` when none does.
 */
export function firstEndingAbove(pieces: Pieces, from: number, end: number, at: number): number {
  if (from === end || pieces[from + 1]! > at) return from;
  // gallop, then bisect: the pieces passed are usually few
  let low = from; // ends at or below `at`
  let step = 2;
  let high = from + 2;
  while (high < end && !(pieces[high + 1]! > at)) {
    low = high;
    step *= 2;
    high = low + step;
  }
  if (high > end) high = end;
  while (high - low > 2) {
    const mid = low + (((high - low) >>> 2) << 1);
    if (pieces[mid + 1]! > at) high = mid;
    else low = mid;
  }
  return high;
}

/**
 * Writes the ranges of bases that the single pieces [from[k], to[k]) for
 * k < n forbid to a member at `rel` of `size` bytes, [from - rel - size + 1,
 * to - rel), into lo/hi from entry `count`, ascending (by insertion: they
 * are few); returns the new count. lo/hi must have room for them.
 */
export function appendSolos(from: Float64Array, to: Float64Array, n: number, lo: Float64Array, hi: Float64Array, rel: number, size: number, count: number): number {
  const first = count;
  for (let k = 0; k < n; k++) {
    const l = from[k]! - rel - size + 1;
    const h = to[k]! - rel;
    let at = count++;
    while (at > first && lo[at - 1]! > l) {
      lo[at] = lo[at - 1]!;
      hi[at] = hi[at - 1]!;
      at--;
    }
    lo[at] = l;
    hi[at] = h;
  }
  return count;
}

/** The length, doubled from `length` as often as needed, that holds `needed` entries. */
function grownLength(length: number, needed: number): number {
  while (length < needed) length *= 2;
  return length;
}

/** A longer copy of `array`, with room for `needed` entries. */
export function grownInts(array: Int32Array, needed: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(grownLength(array.length, needed));
  grown.set(array);
  return grown;
}

/** A longer copy of `array`, with room for `needed` entries. */
export function grownFloats(array: Float64Array, needed: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(grownLength(array.length, needed));
  grown.set(array);
  return grown;
}
