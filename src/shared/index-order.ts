// The positions of a list of numbers in ascending order of their values,
// ties in position order. No dependencies.
//
// - Whole numbers from 0 to 2^32 − 1 (steps, offsets of most plans): two
//   passes of a stable counting sort on 16 bits each, linear in the count.
// - Anything else: the built-in sort with a comparator, O(n log n).
// Both give the same order, so a caller's result does not depend on which ran.

const DIGIT_BITS = 16;
const BUCKETS = 1 << DIGIT_BITS;
const RADIX_LIMIT = 2 ** 32;

/** Positions 0 .. key.length − 1 by ascending `key`, equal keys in position order. */
export function ascendingOrder(key: Float64Array): Int32Array {
  const n = key.length;
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  if (!smallWholeNumbers(key)) return order.sort((a, b) => key[a]! - key[b]! || a - b);
  const low = new Int32Array(n);
  const counts = new Int32Array(BUCKETS + 1);
  // low 16 bits first, then high: each pass is stable, so ties keep position order
  countingPass(order, low, (p) => key[p]! % BUCKETS, counts);
  counts.fill(0);
  countingPass(low, order, (p) => Math.floor(key[p]! / BUCKETS), counts);
  return order;
}

function smallWholeNumbers(key: Float64Array): boolean {
  for (let k = 0; k < key.length; k++) {
    const v = key[k]!;
    if (!(v >= 0 && v < RADIX_LIMIT) || v !== Math.floor(v)) return false;
  }
  return true;
}

/** Stably moves `from` into `to` by the digit of each position. */
function countingPass(from: Int32Array, to: Int32Array, digit: (position: number) => number, counts: Int32Array): void {
  for (let k = 0; k < from.length; k++) counts[digit(from[k]!) + 1]!++;
  for (let d = 0; d < BUCKETS; d++) counts[d + 1]! += counts[d]!;
  for (let k = 0; k < from.length; k++) to[counts[digit(from[k]!)]!++] = from[k]!;
}
