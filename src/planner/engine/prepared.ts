// One region of a placement problem in the typed-array form the strategies
// work on: items (alias groups) made of rectangles (step range × byte range
// relative to the item's base). Depends only on planner problem types.

import type { AliasGroup } from '../problem/alias-groups';
import type { PlacementProblem } from '../problem/problem';

/**
 * A region ready for placement. Item `i` is `groups[i]`; its rectangles are
 * `itemRectStart[i] .. itemRectStart[i + 1] - 1`. Rectangles of one item with
 * the same bytes and touching lifetimes are merged, so a chain of removable
 * ops over one tensor is a single rectangle.
 */
export interface PreparedRegion {
  readonly name: string;
  readonly problem: PlacementProblem;
  readonly groups: readonly AliasGroup[];
  readonly itemCount: number;
  readonly itemRectStart: Int32Array;
  readonly itemExtent: Float64Array; // bytes from the base to the item's top (zero-size members left out, as the peak leaves them out)
  readonly itemStart: Float64Array; // first step any member is live
  readonly itemEnd: Float64Array; // step after the last one any member is live
  readonly itemModulus: Float64Array; // base ≡ itemPhase (mod itemModulus)
  readonly itemPhase: Float64Array;
  readonly itemFixed: Float64Array; // fixed base, or NaN when the strategy chooses
  readonly freeItems: Int32Array; // items without a fixed base, ascending
  readonly rectCount: number;
  readonly rectItem: Int32Array;
  readonly rectRel: Float64Array;
  readonly rectSize: Float64Array;
  readonly rectStart: Float64Array;
  readonly rectEnd: Float64Array;
}

interface Rect {
  rel: number;
  size: number;
  start: number;
  end: number;
}

/** Builds the typed-array form of one region's alias groups. */
export function prepareRegion(problem: PlacementProblem, name: string, groups: readonly AliasGroup[]): PreparedRegion {
  const itemCount = groups.length;
  const rectsPerItem = groups.map((group) => mergedRects(problem, group));
  const rectCount = rectsPerItem.reduce((sum, rects) => sum + rects.length, 0);
  const prep = {
    name,
    problem,
    groups,
    itemCount,
    itemRectStart: new Int32Array(itemCount + 1),
    itemExtent: new Float64Array(itemCount),
    itemStart: new Float64Array(itemCount),
    itemEnd: new Float64Array(itemCount),
    itemModulus: Float64Array.from(groups, (g) => g.modulus),
    itemPhase: Float64Array.from(groups, (g) => g.phase),
    itemFixed: Float64Array.from(groups, (g) => g.fixedBase ?? NaN),
    freeItems: Int32Array.from(groups.keys()).filter((i) => groups[i]!.fixedBase === undefined),
    rectCount,
    rectItem: new Int32Array(rectCount),
    rectRel: new Float64Array(rectCount),
    rectSize: new Float64Array(rectCount),
    rectStart: new Float64Array(rectCount),
    rectEnd: new Float64Array(rectCount),
  };
  fillRects(prep, rectsPerItem);
  return prep;
}

/** Lays the rectangles out item by item and derives each item's extent and lifetime. */
function fillRects(prep: PreparedRegion, rectsPerItem: readonly Rect[][]): void {
  let r = 0;
  for (let i = 0; i < prep.itemCount; i++) {
    prep.itemRectStart[i] = r;
    let extent = 0;
    let start = Infinity;
    let end = -Infinity;
    for (const rect of rectsPerItem[i]!) {
      prep.rectItem[r] = i;
      prep.rectRel[r] = rect.rel;
      prep.rectSize[r] = rect.size;
      prep.rectStart[r] = rect.start;
      prep.rectEnd[r] = rect.end;
      if (rect.size > 0) extent = Math.max(extent, rect.rel + rect.size); // a zero-size member holds no byte, so no room
      start = Math.min(start, rect.start);
      end = Math.max(end, rect.end);
      r++;
    }
    prep.itemExtent[i] = extent;
    prep.itemStart[i] = start;
    prep.itemEnd[i] = end;
  }
  prep.itemRectStart[prep.itemCount] = r;
}

/** The member rectangles of a group, merging equal byte ranges whose lifetimes touch. */
function mergedRects(problem: PlacementProblem, group: AliasGroup): Rect[] {
  const rects: Rect[] = group.members.map((b, i) => {
    const buffer = problem.buffers[b]!;
    return { rel: group.rel[i]!, size: buffer.size, start: buffer.start, end: buffer.end };
  });
  if (rects.length === 1) return rects;
  rects.sort((a, b) => a.rel - b.rel || a.size - b.size || a.start - b.start);
  const merged: Rect[] = [];
  for (const rect of rects) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.rel === rect.rel && last.size === rect.size && rect.start <= last.end) {
      last.end = Math.max(last.end, rect.end);
    } else {
      merged.push({ ...rect });
    }
  }
  return merged;
}

/** Offset of the first aligned base at or above `value` for item `item`. */
export function alignBase(prep: PreparedRegion, item: number, value: number): number {
  const modulus = prep.itemModulus[item]!;
  const phase = prep.itemPhase[item]!;
  const v = value > 0 ? value : 0;
  if (modulus === 1) return v;
  if (v <= phase) return phase;
  return phase + Math.ceil((v - phase) / modulus) * modulus;
}
