// Subset sums for the guillotine split (guillotine-split.ts): the subsets of
// a short list that add up to a given number of bytes, the sums of every
// subset of a few sizes, and the sums reachable from many whole-number sizes
// as bits. Depends only on src/shared/sorted-search.ts and the work clock.

import { countBelow } from '../../../shared/sorted-search';
import { countWork } from '../../engine/work-clock';

/** Sizes whose subset sums `subsetSumTest` lists at most. */
const MAX_LISTED = 24;
/** The widest range `subsetSumTest` holds as bits (4 MiB of them). */
const MAX_BITS = 1 << 25;

/** Every subset of `list` (at most `limit` of them) whose sizes (`size`, by entry) add up to `need`, in the order of `list`'s entries taken first. */
export function exactSums(list: readonly number[], size: ArrayLike<number>, need: number, limit: number): number[][] {
  if (need === 0) return [[]];
  if (suffixScratch.length <= list.length) suffixScratch = new Float64Array(2 * list.length + 2);
  const suffix = suffixScratch; // one listing at a time: the walk calls nothing that lists again
  suffix[list.length] = 0;
  for (let k = list.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1]! + size[list[k]!]!;
  if (suffix[0]! < need) return [];
  const walk: SumWalk = { list, size, suffix, limit, chosen: [], out: [], steps: 0 };
  walkSums(walk, 0, need);
  countWork(7 * (list.length + walk.steps));
  return walk.out;
}

/** Scratch of `exactSums`: per entry, the sizes of the entries from it on, added up. */
let suffixScratch = new Float64Array(64);

/** The state of one `exactSums` listing. */
interface SumWalk {
  readonly list: readonly number[];
  readonly size: ArrayLike<number>;
  readonly suffix: Float64Array; // sizes of list[k..] added up
  readonly limit: number;
  readonly chosen: number[];
  readonly out: number[][];
  steps: number; // calls of walkSums, for the work clock
}

function walkSums(walk: SumWalk, k: number, left: number): void {
  const { list, size, suffix, chosen, out } = walk;
  walk.steps++;
  if (out.length >= walk.limit) return;
  if (left === 0) {
    out.push(chosen.slice());
    return;
  }
  if (k === list.length || suffix[k]! < left) return;
  const i = list[k]!;
  if (size[i]! <= left) {
    chosen.push(i);
    walkSums(walk, k + 1, left - size[i]!);
    chosen.pop();
  }
  walkSums(walk, k + 1, left);
}

/** The sum of every subset of `sizes` (at most 30 of them), by the bit mask of its members. */
export function allSums(sizes: readonly number[]): Float64Array {
  const sums = new Float64Array(1 << sizes.length);
  countWork(2 * sums.length);
  for (let mask = 1; mask < sums.length; mask++) {
    const low = 31 - Math.clz32(mask & -mask);
    sums[mask] = sums[mask & (mask - 1)]! + sizes[low]!;
  }
  return sums;
}

/** The subset sums of `sizes`, ascending. */
export function sortedSums(sizes: readonly number[]): Float64Array {
  return allSums(sizes).sort();
}

/** True when ascending `sorted` holds `value`. */
export function contains(sorted: Float64Array, value: number): boolean {
  const at = countBelow(sorted, value);
  return at < sorted.length && sorted[at] === value;
}

/**
 * A test of whether a multiple of `unit` (up to `most` units) is the sum of
 * some subset of `sizes` (each a multiple of `unit`): by bits where they
 * cost less to build than the sorted list of all sums, else by that list;
 * undefined where neither can be built (more than 24 sizes over a range
 * too wide for bits).
 */
export function subsetSumTest(sizes: readonly number[], unit: number, most: number): ((value: number) => boolean) | undefined {
  const bitsCost = sizes.length * (most / 32 + 1);
  const listCost = sizes.length <= MAX_LISTED ? 2 ** sizes.length * (sizes.length + 1) : Infinity;
  if (bitsCost <= listCost && most <= MAX_BITS) {
    const bits = new BitSums(most);
    for (const size of sizes) bits.add(size / unit);
    return (value) => bits.has(value / unit);
  }
  if (listCost === Infinity) return undefined;
  const sums = sortedSums(sizes);
  return (value) => contains(sums, value);
}

/** Subset sums of whole numbers up to `most`, as bits. */
export class BitSums {
  private readonly bits: Uint32Array;
  constructor(private readonly most: number) {
    this.bits = new Uint32Array((most >>> 5) + 1);
    this.bits[0] = 1;
  }

  add(value: number): void {
    const { bits } = this;
    if (value > this.most) return;
    const words = value >>> 5;
    const shift = value & 31;
    countWork(2 * (bits.length - words));
    for (let w = bits.length - 1; w >= words; w--) {
      let v = bits[w - words]! << shift;
      if (shift !== 0 && w - words - 1 >= 0) v |= bits[w - words - 1]! >>> (32 - shift);
      bits[w]! |= v;
    }
  }

  has(value: number): boolean {
    return value <= this.most && ((this.bits[value >>> 5]! >>> (value & 31)) & 1) === 1;
  }
}
