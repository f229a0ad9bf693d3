// Exhaustive branch-and-bound search for small regions: finds a placement with
// a lower peak than a given one, or proves none exists. Depends only on the
// planner engine.
//
// - Any placement can be pushed into a canonical form without raising its
//   peak: taking items from the lowest offset up, drop each one to the lowest
//   aligned offset where it fits among the items below it (nothing above can
//   collide: a conflicting item above started at or past its old top).
// - So the search builds placements bottom-up: at each node, every unplaced
//   item may come next, at the lowest offset where it fits among the placed
//   items - provided that offset is not below the previous item's (the
//   canonical order is by offset).
// - Two items at the same offset never conflict (they would overlap), so
//   placing them in the other order gives the same placement: items at the
//   same offset are only tried in id order.
// - Bound: everything unplaced goes at or above the current offset, so the
//   peak is at least that offset plus the most unplaced bytes live at one
//   step; a branch that cannot beat the best peak so far is cut.
// - The argument needs every item to be one rectangle, so alias groups with
//   windows that differ in bytes or lifetime are not searched.

import { Placer } from '../../engine/placer';
import type { PreparedRegion } from '../../engine/prepared';

/** Outcome of `searchExact`. */
export interface ExactOutcome {
  readonly offsets: Float64Array | undefined; // a placement with a lower peak, when found
  readonly peak: number; // the lowest peak known (the input's, or the one found)
  readonly proven: boolean; // the search finished: `peak` is optimal
  readonly nodes: number;
}

/** True when the exhaustive search can handle the region. */
export function exactSearchApplies(prep: PreparedRegion, maxItems: number): boolean {
  if (prep.freeItems.length > maxItems) return false;
  for (let i = 0; i < prep.itemCount; i++) {
    if (prep.itemRectStart[i + 1]! - prep.itemRectStart[i]! !== 1) return false;
  }
  return true;
}

/** Searches for a placement peaking below `upperBound`; stops after `nodeLimit` nodes. */
export function searchExact(prep: PreparedRegion, upperBound: number, lowerBound: number, nodeLimit: number): ExactOutcome {
  const search = new Search(prep, upperBound, nodeLimit);
  if (upperBound > lowerBound) search.run();
  const proven = search.nodes <= nodeLimit;
  return { offsets: search.bestOffsets, peak: search.upperBound, proven, nodes: search.nodes };
}

class Search {
  readonly placer: Placer;
  readonly free: Int32Array;
  readonly placed: Uint8Array; // by item
  readonly cuts: Float64Array; // distinct start steps of the free items
  bestOffsets: Float64Array | undefined;
  nodes = 0;

  constructor(
    readonly prep: PreparedRegion,
    public upperBound: number,
    readonly nodeLimit: number,
  ) {
    this.placer = new Placer(prep);
    this.free = prep.freeItems;
    this.placed = new Uint8Array(prep.itemCount);
    this.cuts = Float64Array.from(new Set(this.free.map((i) => prep.itemStart[i]!))).sort();
  }

  run(): void {
    let top = 0;
    for (let i = 0; i < this.prep.itemCount; i++) {
      if (!Number.isNaN(this.prep.itemFixed[i]!)) top = Math.max(top, this.prep.itemFixed[i]! + this.prep.itemExtent[i]!);
    }
    this.descend(0, -1, 0, top);
  }

  /** How it works: see the module header; `floor` is the offset of the last item placed. */
  private descend(floor: number, last: number, placedCount: number, top: number): void {
    if (++this.nodes > this.nodeLimit) return;
    if (placedCount === this.free.length) {
      this.upperBound = top;
      this.bestOffsets = this.placer.offsets.slice();
      return;
    }
    if (Math.max(top, floor + this.unplacedLiveMax()) >= this.upperBound) return;
    for (const [item, base] of this.candidates(floor, last)) {
      if (base + this.prep.itemExtent[item]! >= this.upperBound) continue;
      this.placer.set(item, base);
      this.placed[item] = 1;
      this.descend(base, item, placedCount + 1, Math.max(top, base + this.prep.itemExtent[item]!));
      this.placer.set(item, NaN);
      this.placed[item] = 0;
      if (this.nodes > this.nodeLimit) return;
    }
  }

  /** Unplaced items that may come next, with their offsets, lowest offset (then largest) first. */
  private candidates(floor: number, last: number): [number, number][] {
    const result: [number, number][] = [];
    for (const item of this.free) {
      if (this.placed[item] === 1) continue;
      const base = this.placer.lowestFit(item, 0);
      if (base < floor) continue;
      if (base === floor && item < last) continue;
      result.push([item, base]);
    }
    const size = this.prep.itemExtent;
    return result.sort((a, b) => a[1] - b[1] || size[b[0]]! - size[a[0]]! || a[0] - b[0]);
  }

  /** Most bytes of unplaced free items live at one step. */
  private unplacedLiveMax(): number {
    const { itemStart, itemEnd, itemExtent } = this.prep;
    let most = 0;
    for (const t of this.cuts) {
      let live = 0;
      for (const item of this.free) {
        if (this.placed[item] === 0 && itemStart[item]! <= t && t < itemEnd[item]!) live += itemExtent[item]!;
      }
      most = Math.max(most, live);
    }
    return most;
  }
}
