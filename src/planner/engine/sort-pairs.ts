// In-place sort of interval pairs by their low end, without allocating per
// call: insertion sort for short runs, quicksort above, and a radix sort on
// long lists of integers. The placer sorts thousands of pair lists per plan
// (a thousand pairs each on crowded traces, where sorting is most of a greedy
// pass), where this beats building index arrays for the built-in sort. Pairs
// with equal low ends may come out in any order: the gap walks that read
// them do not depend on it. `unionOfRuns` merges lists made of ascending runs
// (the occupancy tree's pieces) into the union of their ranges, which is all
// those walks read. No dependencies.

const SHORT = 16;

/** Lists at least this long go to the radix sort when their low ends are integers spanning less than 2^32. */
const RADIX_FROM = 256;
/** Bits per pass of the radix sort. */
const DIGIT = 8;

/** Scratch of the radix sort, grown as needed and kept between calls. */
let keys = new Uint32Array(0);
let keysOut = new Uint32Array(0);
let hiOut = new Float64Array(0);
const counts = new Int32Array(4 << DIGIT); // a histogram per pass

/** Sorts lo[0 .. count - 1] ascending, moving hi[i] along with lo[i]. */
export function sortPairs(lo: Float64Array, hi: Float64Array, count: number): void {
  if (count >= RADIX_FROM && radixSort(lo, hi, count)) return;
  quicksort(lo, hi, 0, count - 1);
}

/**
 * Least significant digit first over lo − min, DIGIT bits a pass, as many
 * passes as the span of the low ends needs (3 for spans below 16 MiB). Only
 * the keys and hi move; lo is written back from the keys at the end.
 * Returns false, having moved nothing, when a low end is not an integer or
 * they span 2^32 or more.
 */
function radixSort(lo: Float64Array, hi: Float64Array, count: number): boolean {
  let min = lo[0]!;
  let max = min;
  for (let i = 1; i < count; i++) {
    const l = lo[i]!;
    if (l < min) min = l;
    else if (l > max) max = l;
  }
  if (!(max - min < 4294967296) || !Number.isInteger(min)) return false;
  if (keys.length < count) {
    keys = new Uint32Array(2 * count);
    keysOut = new Uint32Array(2 * count);
    hiOut = new Float64Array(2 * count);
  }
  const span = max - min;
  let passes = 1;
  while (passes < 4 && span >= 2 ** (DIGIT * passes)) passes++;
  const mask = (1 << DIGIT) - 1;
  counts.fill(0, 0, passes << DIGIT);
  for (let i = 0; i < count; i++) {
    const key = lo[i]! - min;
    if (key !== Math.floor(key)) return false; // a fraction: leave it to the comparison sort
    keys[i] = key;
    for (let pass = 0; pass < passes; pass++) counts[(pass << DIGIT) + ((key >>> (DIGIT * pass)) & mask)]!++;
  }
  let kIn: Uint32Array = keys;
  let kOut: Uint32Array = keysOut;
  let hIn: Float64Array = hi;
  let hOut: Float64Array = hiOut;
  for (let pass = 0; pass < passes; pass++) {
    const shift = DIGIT * pass;
    const base = pass << DIGIT;
    let at = 0;
    for (let d = base; d <= base + mask; d++) {
      const c = counts[d]!;
      counts[d] = at;
      at += c;
    }
    for (let i = 0; i < count; i++) {
      const key = kIn[i]!;
      const to = counts[base + ((key >>> shift) & mask)]!++;
      kOut[to] = key;
      hOut[to] = hIn[i]!;
    }
    [kIn, kOut] = [kOut, kIn];
    [hIn, hOut] = [hOut, hIn];
  }
  for (let i = 0; i < count; i++) lo[i] = kIn[i]! + min;
  if (hIn !== hi) hi.set(hIn.subarray(0, count));
  return true;
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

/** Scratch of the run merge, grown as needed and kept between calls. */
let mergeLo = new Float64Array(0);
let mergeHi = new Float64Array(0);
let endsOut = new Int32Array(0);

/** Pairs in runs, as the run merge reads and writes them. */
interface Runs {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly ends: Int32Array;
}

/**
 * The union of the finite ranges [lo[i], hi[i]) for i < ends[runs - 1], when they
 * come as `runs` runs ascending by lo (run k ends before ends[k]): written
 * to the front of lo/hi ascending, ranges that overlap or touch merged into
 * one; returns how many there are. Merged two by two, a pass over the ranges
 * per halving of the runs, each pass dropping the ranges the union already
 * holds (the placer's pieces come in a few dozen sorted lists that overlap
 * heavily: a query's 700 pieces are about 100 in the union). `ends` is
 * overwritten.
 */
export function unionOfRuns(lo: Float64Array, hi: Float64Array, ends: Int32Array, runs: number): number {
  const count = runs === 0 ? 0 : ends[runs - 1]!;
  if (mergeLo.length < count) {
    mergeLo = new Float64Array(2 * count);
    mergeHi = new Float64Array(2 * count);
  }
  if (endsOut.length < runs) endsOut = new Int32Array(2 * runs);
  let from: Runs = { lo, hi, ends };
  let to: Runs = { lo: mergeLo, hi: mergeHi, ends: endsOut };
  do {
    // each pass writes its unions one after another from 0
    let merged = 0;
    let at = 0;
    for (let k = 0; k < runs; k += 2) {
      const start = k === 0 ? 0 : from.ends[k - 1]!;
      const middle = from.ends[k]!;
      const end = k + 1 < runs ? from.ends[k + 1]! : middle;
      at = unionTwo(from.lo, from.hi, to.lo, to.hi, start, middle, end, at);
      to.ends[merged++] = at;
    }
    [from, to] = [to, from];
    runs = merged;
  } while (runs > 1);
  const kept = runs === 0 ? 0 : from.ends[0]!;
  if (from.lo !== lo) {
    lo.set(from.lo.subarray(0, kept));
    hi.set(from.hi.subarray(0, kept));
  }
  return kept;
}

/**
 * Writes the union of the ascending runs [start, middle) and [middle, end)
 * of the input to the output from `at`, ascending, ranges that overlap or
 * touch merged; returns where it stops. One comparison per range taken
 * (a run used up reads as Infinity): the placer's best fit spends most of
 * its time here, and this runs about 30 % faster than testing both runs'
 * ends for every range.
 */
function unionTwo(inLo: Float64Array, inHi: Float64Array, outLo: Float64Array, outHi: Float64Array, start: number, middle: number, end: number, at: number): number {
  if (start === end) return at;
  let i = start;
  let j = middle;
  // the next low end of each run, Infinity once it is used up (the ranges are finite)
  let li = i < middle ? inLo[i]! : Infinity;
  let lj = j < end ? inLo[j]! : Infinity;
  let l = NaN; // the range being built
  let h = NaN;
  for (;;) {
    let next: number;
    let nextHi: number;
    if (li <= lj) {
      if (li === Infinity) break;
      next = li;
      nextHi = inHi[i++]!;
      li = i < middle ? inLo[i]! : Infinity;
    } else {
      next = lj;
      nextHi = inHi[j++]!;
      lj = j < end ? inLo[j]! : Infinity;
    }
    if (next <= h) {
      if (nextHi > h) h = nextHi;
    } else {
      if (h === h) {
        outLo[at] = l;
        outHi[at++] = h;
      }
      l = next;
      h = nextHi;
    }
  }
  outLo[at] = l;
  outHi[at++] = h;
  return at;
}
