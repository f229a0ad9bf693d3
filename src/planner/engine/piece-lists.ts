// Small tools of the occupancy tree's queries (tree-queries.ts) over its
// ascending piece lists: find the first piece past an address and grow the
// scratch arrays. No dependencies.

/**
 * The first piece at or after entry `from` of the ascending pieces
 * [a0, b0, a1, b1, ...] in `pieces` from `from` to entry `end` that ends
 * above `at`: the entry where it starts, `end` when none does.
 */
export function firstEndingAbove(pieces: Float64Array, from: number, end: number, at: number): number {
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
