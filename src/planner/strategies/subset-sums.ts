// Subset sums for the guillotine split (guillotine-split.ts): the subsets of
// a short list that add up to a given number of bytes, the sums of every
// subset of a few sizes, and the sums reachable from many whole-number sizes
// as bits. Depends only on src/shared/sorted-search.ts.

import { countBelow } from '../../shared/sorted-search';

/** Every subset of `list` (at most `limit` of them) whose sizes add up to `need`, in the order of `list`'s entries taken first. */
export function exactSums(list: readonly number[], size: (i: number) => number, need: number, limit: number): number[][] {
  const out: number[][] = [];
  if (need === 0) return [[]];
  const suffix = new Float64Array(list.length + 1);
  for (let k = list.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1]! + size(list[k]!);
  const chosen: number[] = [];
  const walk = (k: number, left: number): void => {
    if (out.length >= limit) return;
    if (left === 0) {
      out.push(chosen.slice());
      return;
    }
    if (k === list.length || suffix[k]! < left) return;
    const i = list[k]!;
    if (size(i) <= left) {
      chosen.push(i);
      walk(k + 1, left - size(i));
      chosen.pop();
    }
    walk(k + 1, left);
  };
  walk(0, need);
  return out;
}

/** The sum of every subset of `sizes` (at most 30 of them), by the bit mask of its members. */
export function allSums(sizes: readonly number[]): Float64Array {
  const sums = new Float64Array(1 << sizes.length);
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
