// Binary searches over ascending arrays. No dependencies.

/** Ascending numbers, in a plain or typed array. */
export type SortedNumbers = ArrayLike<number>;

/** How many entries of `sorted` are below `value` (the index of the first one at or above it). */
export function countBelow(sorted: SortedNumbers, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many entries of `sorted` are at or below `value` (the index of the first one above it). */
export function countAtOrBelow(sorted: SortedNumbers, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
