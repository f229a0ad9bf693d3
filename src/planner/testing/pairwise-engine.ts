// The planner engine as it was before the time index: an explicit conflict
// graph of every pair of time-overlapping rectangles, and a placer walking it.
// Kept only as the reference the property tests compare the engine against.


import { InputError } from '../../shared/errors';
import { alignBase, type PreparedRegion } from '../engine/prepared';

/** Compressed adjacency lists: neighbours of rect r are `rects[start[r] .. start[r + 1] - 1]`. */
export interface ConflictGraph {
  readonly start: Int32Array;
  readonly rects: Int32Array;
  readonly itemDegree: Int32Array; // distinct conflicting items per item
  readonly maxItemRectDegree: number; // largest sum of rect degrees over one item's rects
}

/** Adjacency entries beyond which the graph would not fit in memory comfortably. */
const MAX_ENTRIES = 400_000_000;

const cache = new WeakMap<PreparedRegion, ConflictGraph>();

/** The conflict graph of `prep`, built on first use. */
export function pairwiseGraph(prep: PreparedRegion): ConflictGraph {
  let graph = cache.get(prep);
  if (graph === undefined) {
    graph = buildConflictGraph(prep);
    cache.set(prep, graph);
  }
  return graph;
}

/**
 * How it works: rectangles are visited by start step; an "active" list holds
 * those still live at the current start. Every active rectangle of another
 * item overlaps the one being visited (it started no later and ends after),
 * so each conflicting pair is met exactly once. A first sweep counts degrees,
 * a second fills the adjacency arrays. Zero-size rectangles conflict with nothing.
 */
function buildConflictGraph(prep: PreparedRegion): ConflictGraph {
  const n = prep.rectCount;
  // a plain array sorts adaptively: rects usually come nearly in start order
  const byStart = Int32Array.from(
    Array.from({ length: n }, (_, i) => i).sort((a, b) => prep.rectStart[a]! - prep.rectStart[b]! || a - b),
  );
  const degree = new Int32Array(n);
  sweepPairs(prep, byStart, (a, b) => {
    degree[a]!++;
    degree[b]!++;
  });
  const start = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) start[r + 1] = start[r]! + degree[r]!;
  if (start[n]! > MAX_ENTRIES) {
    throw new InputError('too-large', `${start[n]! / 2} pairs of buffers are live together; the planner handles up to ${MAX_ENTRIES / 2}`);
  }
  const rects = new Int32Array(start[n]!);
  const fill = start.slice(0, n);
  sweepPairs(prep, byStart, (a, b) => {
    rects[fill[a]!++] = b;
    rects[fill[b]!++] = a;
  });
  return { start, rects, ...itemDegrees(prep, start, rects) };
}

function sweepPairs(prep: PreparedRegion, byStart: Int32Array, visit: (a: number, b: number) => void): void {
  const active = new Int32Array(byStart.length);
  let activeCount = 0;
  for (const r of byStart) {
    if (prep.rectSize[r] === 0) continue;
    const t = prep.rectStart[r]!;
    let kept = 0;
    for (let k = 0; k < activeCount; k++) {
      const a = active[k]!;
      if (prep.rectEnd[a]! <= t) continue;
      active[kept++] = a;
      if (prep.rectItem[a] !== prep.rectItem[r]) visit(a, r);
    }
    active[kept++] = r;
    activeCount = kept;
  }
}

function itemDegrees(prep: PreparedRegion, start: Int32Array, rects: Int32Array) {
  const itemDegree = new Int32Array(prep.itemCount);
  const seen = new Int32Array(prep.itemCount).fill(-1);
  let maxItemRectDegree = 0;
  for (let i = 0; i < prep.itemCount; i++) {
    let total = 0;
    for (let m = prep.itemRectStart[i]!; m < prep.itemRectStart[i + 1]!; m++) {
      total += start[m + 1]! - start[m]!;
      for (let e = start[m]!; e < start[m + 1]!; e++) {
        const other = prep.rectItem[rects[e]!]!;
        if (seen[other] === i) continue;
        seen[other] = i;
        itemDegree[i]!++;
      }
    }
    maxItemRectDegree = Math.max(maxItemRectDegree, total);
  }
  return { itemDegree, maxItemRectDegree };
}
/**
 * Where an item goes among the already-placed items it conflicts with:
 * - `first`: the lowest base offset that fits (TFLite Micro, first fit);
 * - `best`: the smallest gap that fits, lowest on ties; on top when no gap fits
 *   (TFLite's greedy by size, best fit);
 * - `above`: just above every placed conflicting item, never into a gap (TVM USMP).
 */
type Fit = 'first' | 'best' | 'above';

/** Item offsets under construction: NaN marks an item not placed yet. */
export class PairwisePlacer {
  readonly prep: PreparedRegion;
  readonly graph: ConflictGraph;
  readonly offsets: Float64Array; // base offset per item, NaN when unplaced
  work = 0; // adjacency entries scanned so far: a machine-independent effort measure
  placements = 0;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;

  constructor(prep: PreparedRegion) {
    this.prep = prep;
    this.graph = pairwiseGraph(prep);
    this.offsets = new Float64Array(prep.itemCount);
    this.lo = new Float64Array(this.graph.maxItemRectDegree);
    this.hi = new Float64Array(this.graph.maxItemRectDegree);
    this.reset();
  }

  /** Unplaces everything, then places the items whose base is fixed. */
  reset(): void {
    this.offsets.set(this.prep.itemFixed);
  }

  /** Places `order`'s items one after another with `fit`; returns the region's peak. */
  placeAll(order: Int32Array, fit: Fit): number {
    this.reset();
    for (let k = 0; k < order.length; k++) this.place(order[k]!, fit);
    return this.peak();
  }

  /** max(base + extent) over placed items. */
  peak(): number {
    let peak = 0;
    const { itemExtent } = this.prep;
    for (let i = 0; i < this.offsets.length; i++) {
      const top = this.offsets[i]! + itemExtent[i]!;
      if (top > peak) peak = top;
    }
    return peak;
  }

  /** The lowest base at or above `floor` where the item fits among the placed items. */
  lowestFit(item: number, floor: number): number {
    return this.findGap(item, false, floor);
  }

  /** Places one item with `fit` and returns its base offset. */
  place(item: number, fit: Fit): number {
    const x = fit === 'above' ? this.aboveAll(item) : this.findGap(item, fit === 'best');
    this.offsets[item] = x;
    this.placements++;
    return x;
  }

  /**
   * Each placed rectangle r that conflicts with a member m of the item
   * forbids the half-open range of bases [lo, hi) that would make m overlap r
   * (lo = r.offset − m.rel − m.size + 1, hi = r.offset + r.size − m.rel).
   * Worked out differently from the engine's walk, so the property tests
   * compare two methods: a base is free when no range holds it (the largest
   * `hi` of the ranges starting at or below it is at most it), and the lowest
   * free base is the floor or the end of some range, aligned up; so only those
   * candidates are tried. First fit takes the lowest free candidate; best fit
   * the free candidate with the least room below the next range above it
   * (lowest on ties), else the lowest free one with no range above.
   */
  private findGap(item: number, best: boolean, floor = 0): number {
    const count = this.gatherForbidden(item);
    const { prep } = this;
    const ranges = Array.from({ length: count }, (_, i) => [this.lo[i]!, this.hi[i]!] as const).sort((x, y) => x[0] - y[0]);
    const lows = ranges.map((r) => r[0]);
    const reach: number[] = []; // reach[i]: the largest hi of ranges[0..i]
    ranges.forEach((r, i) => reach.push(Math.max(r[1], i > 0 ? reach[i - 1]! : -Infinity)));
    const startingAtOrBelow = (x: number): number => {
      let [a, b] = [0, lows.length];
      while (a < b) {
        const m = (a + b) >> 1;
        if (lows[m]! <= x) a = m + 1;
        else b = m;
      }
      return a; // ranges[0..a) start at or below x
    };
    const free = (c: number): boolean => {
      const n = startingAtOrBelow(c);
      return n === 0 || reach[n - 1]! <= c;
    };
    const align = (x: number): number => (prep.itemModulus[item] === 1 ? x : alignBase(prep, item, x));
    const candidates = [...new Set([floor, ...ranges.map((r) => Math.max(r[1], floor))].map(align))].filter(free).sort((x, y) => x - y);
    if (!best) return candidates[0]!;
    let chosen = NaN;
    let room = Infinity;
    for (const c of candidates) {
      const above = startingAtOrBelow(c);
      if (above === lows.length) continue; // nothing above: open space
      if (lows[above]! - c < room) [chosen, room] = [c, lows[above]! - c];
    }
    return Number.isNaN(chosen) ? candidates.find((c) => startingAtOrBelow(c) === lows.length)! : chosen;
  }

  /**
   * Calls `visit(lo, hi, other)` for every placed rectangle conflicting with a
   * member of `item`: bases in [lo, hi) would make them overlap.
   */
  forEachPlacedConflict(item: number, visit: (lo: number, hi: number, other: number) => void): void {
    const { prep, graph, offsets } = this;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      for (let e = graph.start[m]!; e < graph.start[m + 1]!; e++) {
        const r = graph.rects[e]!;
        const other = prep.rectItem[r]!;
        const base = offsets[other]!;
        if (Number.isNaN(base)) continue;
        const at = base + prep.rectRel[r]! - prep.rectRel[m]!;
        visit(at - prep.rectSize[m]! + 1, at + prep.rectSize[r]!, other);
      }
      this.work += graph.start[m + 1]! - graph.start[m]!;
    }
  }

  /** Fills lo/hi with the bases forbidden by placed conflicting rectangles; returns the count. */
  private gatherForbidden(item: number): number {
    const { prep, graph, offsets, lo, hi } = this;
    const { rectItem, rectRel, rectSize } = prep;
    let count = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      const relM = rectRel[m]!;
      const sizeM = rectSize[m]!;
      const endEdge = graph.start[m + 1]!;
      for (let e = graph.start[m]!; e < endEdge; e++) {
        const r = graph.rects[e]!;
        const base = offsets[rectItem[r]!]!;
        if (base !== base) continue; // NaN: not placed yet
        const at = base + rectRel[r]! - relM;
        lo[count] = at - sizeM + 1;
        hi[count] = at + rectSize[r]!;
        count++;
      }
      this.work += endEdge - graph.start[m]!;
    }
    return count;
  }

  /** The lowest aligned base above every placed rectangle the item conflicts with. */
  private aboveAll(item: number): number {
    const { prep, graph, offsets } = this;
    let top = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      for (let e = graph.start[m]!; e < graph.start[m + 1]!; e++) {
        const r = graph.rects[e]!;
        const base = offsets[prep.rectItem[r]!]!;
        if (base !== base) continue;
        top = Math.max(top, base + prep.rectRel[r]! + prep.rectSize[r]! - prep.rectRel[m]!);
      }
      this.work += graph.start[m + 1]! - graph.start[m]!;
    }
    return alignBase(prep, item, top);
  }
}
