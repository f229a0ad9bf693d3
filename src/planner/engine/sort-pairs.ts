// In-place sort of interval pairs by their low end, without allocating:
// insertion sort for short runs, quicksort above. The placer sorts thousands
// of short pair lists per plan, where this beats building index arrays for
// the built-in sort. No dependencies.

const SHORT = 16;

/** Sorts lo[0 .. count - 1] ascending, moving hi[i] along with lo[i]. */
export function sortPairs(lo: Float64Array, hi: Float64Array, count: number): void {
  quicksort(lo, hi, 0, count - 1);
}

function quicksort(lo: Float64Array, hi: Float64Array, first: number, last: number): void {
  while (last - first > SHORT) {
    const mid = (first + last) >>> 1;
    // median of three as the pivot, which also guards the scans below
    if (lo[mid]! < lo[first]!) swap(lo, hi, mid, first);
    if (lo[last]! < lo[first]!) swap(lo, hi, last, first);
    if (lo[last]! < lo[mid]!) swap(lo, hi, last, mid);
    const pivot = lo[mid]!;
    let i = first;
    let j = last;
    while (i <= j) {
      while (lo[i]! < pivot) i++;
      while (lo[j]! > pivot) j--;
      if (i <= j) swap(lo, hi, i++, j--);
    }
    // recurse into the smaller side, loop on the larger: stack depth O(log n)
    if (j - first < last - i) {
      quicksort(lo, hi, first, j);
      first = i;
    } else {
      quicksort(lo, hi, i, last);
      last = j;
    }
  }
  for (let i = first + 1; i <= last; i++) {
    const l = lo[i]!;
    const h = hi[i]!;
    let j = i - 1;
    while (j >= first && lo[j]! > l) {
      lo[j + 1] = lo[j]!;
      hi[j + 1] = hi[j]!;
      j--;
    }
    lo[j + 1] = l;
    hi[j + 1] = h;
  }
}

function swap(lo: Float64Array, hi: Float64Array, i: number, j: number): void {
  const l = lo[i]!;
  lo[i] = lo[j]!;
  lo[j] = l;
  const h = hi[i]!;
  hi[i] = hi[j]!;
  hi[j] = h;
}
