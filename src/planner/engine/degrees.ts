// Conflict degrees: for every item, how many other items it conflicts with
// (share a step while both hold bytes). Counted without listing pairs.
// Depends only on the engine's prepared form and time index.
//
// - Items made of one rectangle ("singles") are counted against the other
//   singles by two binary searches: those starting before the item ends,
//   minus those ending at or before it starts.
// - Items made of several rectangles (alias groups whose windows differ) are
//   few; their conflicts are listed through a time index holding every
//   rectangle, each other item counted once.

import { countAtOrBelow, countBelow } from '../../shared/sorted-search';
import type { PreparedRegion } from './prepared';
import { TimeIndex } from './time-index';

const cache = new WeakMap<PreparedRegion, Int32Array>();

/** Distinct conflicting items per item, computed on first use. */
export function itemDegrees(prep: PreparedRegion): Int32Array {
  let degrees = cache.get(prep);
  if (degrees === undefined) {
    degrees = countDegrees(prep);
    cache.set(prep, degrees);
  }
  return degrees;
}

function countDegrees(prep: PreparedRegion): Int32Array {
  const degree = new Int32Array(prep.itemCount);
  const single = (i: number) => prep.itemRectStart[i + 1]! - prep.itemRectStart[i]! === 1;
  const singles: number[] = [];
  const multis: number[] = [];
  for (let i = 0; i < prep.itemCount; i++) {
    if (!single(i)) multis.push(i);
    else if (prep.rectSize[prep.itemRectStart[i]!]! > 0) singles.push(i);
  }
  const starts = Float64Array.from(singles, (i) => prep.itemStart[i]!).sort();
  const ends = Float64Array.from(singles, (i) => prep.itemEnd[i]!).sort();
  for (const i of singles) {
    degree[i] = countBelow(starts, prep.itemEnd[i]!) - countAtOrBelow(ends, prep.itemStart[i]!) - 1;
  }
  if (multis.length > 0) addMultiDegrees(prep, multis, degree);
  return degree;
}

/** Adds the conflicts that involve a several-rectangle item, each pair of items once. */
function addMultiDegrees(prep: PreparedRegion, multis: readonly number[], degree: Int32Array): void {
  const index = new TimeIndex(prep);
  index.rebuild(() => true);
  const found = new Int32Array(prep.rectCount);
  const stamp = new Int32Array(prep.itemCount).fill(-1);
  const isMulti = new Uint8Array(prep.itemCount);
  for (const i of multis) isMulti[i] = 1;
  for (const i of multis) {
    for (let m = prep.itemRectStart[i]!; m < prep.itemRectStart[i + 1]!; m++) {
      if (prep.rectSize[m] === 0) continue;
      const n = index.collect(prep.rectStart[m]!, prep.rectEnd[m]!, found, 0);
      for (let k = 0; k < n; k++) {
        const other = prep.rectItem[found[k]!]!;
        if (other === i || stamp[other] === i) continue;
        stamp[other] = i;
        degree[i]!++;
        // a single meets each multi once here; two multis meet twice, once from each side
        if (isMulti[other] === 0) degree[other]!++;
      }
    }
  }
}

/**
 * The sum of all items' conflict degrees (twice the conflicting pairs),
 * without the per-item array when every item is one rectangle: two sorts and
 * a merge, so deciding how to place a region costs little more than reading it.
 */
export function conflictTotal(prep: PreparedRegion): number {
  const known = cache.get(prep);
  if (known !== undefined) return sum(known);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < prep.itemCount; i++) {
    const first = prep.itemRectStart[i]!;
    if (prep.itemRectStart[i + 1]! - first !== 1) return sum(itemDegrees(prep)); // an item of several rectangles: count them all
    if (prep.rectSize[first]! === 0) continue;
    starts.push(prep.itemStart[i]!);
    ends.push(prep.itemEnd[i]!);
  }
  const s = Float64Array.from(starts).sort();
  const e = Float64Array.from(ends).sort();
  const n = s.length;
  // per item: the items starting before it ends, minus those ending at or before it starts, minus itself
  let total = 0;
  for (let k = 0, p = 0; k < n; k++) {
    while (p < n && s[p]! < e[k]!) p++;
    total += p;
  }
  for (let k = 0, q = 0; k < n; k++) {
    while (q < n && e[q]! <= s[k]!) q++;
    total -= q;
  }
  return total - n;
}

function sum(values: Int32Array): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
