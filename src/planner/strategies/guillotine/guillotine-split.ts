// A search for packings that leave no byte free and that straight cuts and
// pinwheels take apart: the span of time × the target, cut along time where
// no buffer crosses, along addresses into a lower and an upper block that
// each cover the whole span, or into five blocks around a centre, and so on
// down to single buffers. Depends only on the planner engine, its lowest
// blocks (lowest-blocks.ts), the pinwheel search (corner-blocks.ts), the
// skyline search it hands small leftovers to, and src/shared (a seeded
// generator, binary search).
//
// - Only where every step of the span has exactly `target` bytes live: there
//   a placement at the target fills every byte, and each part below must too.
// - Cuts along time: a boundary no buffer crosses splits the part into
//   pieces solved on their own.
// - Strips: a buffer live over the whole part goes at its bottom (it and the
//   block under it can always swap places), and the rest is solved above it.
// - Cuts along addresses: a set S of buffers whose bytes live at every step
//   are the same, y, can go below y and the others above it; the sets tried
//   as S are listed and grown in lowest-blocks.ts.
// - Each S found is solved below y and the rest above; both must succeed,
//   else the next S. A part whose sets were all tried without success is
//   remembered as failed (by a hash of its buffers and height). A part
//   where some boundary has too many buffers for its subsets to be listed
//   is handed to the skyline search (skyline-search.ts) for a thousand
//   nodes (more mostly goes to parts it cannot place either).
// - Two searches in turns: one with straight cuts alone (our tilings need
//   nothing else, and it refutes a wrong part soonest), one where a part is
//   first tried as five blocks around a centre (corner-blocks.ts), then cut
//   straight. Each turn restarts its search with four times the nodes of the
//   one before, keeping what it remembers (parts refuted, parts placed), and
//   trying lowest blocks of as many members taller first in every other
//   round (lower first in the rest); the first to place the span ends both. Where the first runs out of parts to
//   try, the second goes on alone; where the second does, nothing is found.
// - It finds placements, it does not refute them: a search that ends without
//   one proves nothing (the packing may need other cuts).

import { seededRandom } from '../../../shared/random';
import { countBelow } from '../../../shared/sorted-search';
import { liveLevels } from '../../engine/live-bytes';
import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { placeByBlocks } from './corner-blocks';
import { Growth, listCandidates, membersOf, type Part } from './lowest-blocks';
import { skylineSearch } from '../search/skyline-search';
import { SEARCH_DEPTH, SearchDepth } from '../search-depth';

/** Spans of more buffers are left to the other searches (this one is for hard problems of hundreds). */
export const GUILLOTINE_MAX_ITEMS = 5_000;
/** Nodes the skyline search gets for a part this search cannot cut (5,000 cost tiling 500 s1 a fifth more time, for no placement more). */
const LEFTOVER_NODES = 1_000;
/** Nodes of each search's first turn. */
const FIRST_TURN_NODES = 100_000;
/** Each round multiplies them by this (restarts redo what was not remembered: few long rounds waste less than many short ones). */
const TURN_GROWTH = 4;
/** Parts whose steps span at most this many per buffer have their sections counted, not sorted. */
const DENSE_TIMES_PER_ITEM = 8;
/** Buffers of the placed parts remembered, at most, in all. */
const MAX_SOLVED_ITEMS = 2_000_000;
/** Failed parts remembered at most. */
const MAX_FAILED = 100_000;

/** How the search ended: offsets by region item when it placed every item at or below the target. */
export interface SplitOutcome {
  readonly offsets: Float64Array | undefined;
  readonly nodes: number;
}

/** True when the search takes these items: at most GUILLOTINE_MAX_ITEMS of them, leaving no byte of `target` free. */
export function guillotineApplies(prep: PreparedRegion, items: readonly number[], target: number): boolean {
  return items.length <= GUILLOTINE_MAX_ITEMS && leavesNoByteFree(prep, items, target);
}

/** True when every step that `items` cover has exactly `target` bytes live. */
export function leavesNoByteFree(prep: PreparedRegion, items: readonly number[], target: number): boolean {
  return items.length > 0 && liveLevels(prep, items).every((live) => live === 0 || live === target);
}

/**
 * Searches for a placement of `items` (one rectangle each, alignment 1, not
 * fixed) with every byte of `target` used at every step; stops after
 * `nodeLimit` nodes or when `stop()` says so.
 */
export function guillotineSplit(prep: PreparedRegion, items: readonly number[], target: number, nodeLimit: number, stop: () => boolean): SplitOutcome {
  if (!guillotineApplies(prep, items, target)) return { offsets: undefined, nodes: 0 };
  // straight cuts alone, then pinwheels first, in turns of growing nodes; each keeps its memory of parts refuted and placed
  const searches = [new Split(prep, stop, false), new Split(prep, stop, true)];
  const exhausted = [false, false];
  let nodes = 0;
  for (let allowance = FIRST_TURN_NODES, round = 0; nodes < nodeLimit && !exhausted[1]; allowance *= TURN_GROWTH, round++) {
    for (const [k, search] of searches.entries()) {
      if (exhausted[k] || nodes >= nodeLimit) continue;
      const before = search.nodes;
      search.tallFirst = round % 2 === 0; // orders alternate: a wrong early choice one makes, the other may not
      const found = search.run(items, target, before + Math.min(allowance, nodeLimit - nodes));
      nodes += search.nodes - before;
      if (found !== undefined) return { offsets: offsetsOf(prep, found), nodes };
      if (search.stopped) return { offsets: undefined, nodes };
      exhausted[k] = !search.aborted; // searched to the end: nothing more to find there
    }
  }
  return { offsets: undefined, nodes };
}

function offsetsOf(prep: PreparedRegion, found: Map<number, number>): Float64Array {
  const offsets = new Float64Array(prep.itemCount).fill(NaN);
  for (const [i, offset] of found) offsets[i] = offset;
  return offsets;
}

class Split {
  nodes = 0;
  private readonly depth = new SearchDepth(SEARCH_DEPTH.guillotine); // past it, `solve` throws TooDeep
  aborted = false; // the current run ran out of nodes or was stopped
  stopped = false; // the caller said stop (or the stack ran out): no more runs
  private nodeLimit = 0; // of the current run, counted from the first
  tallFirst = false; // of lowest blocks with as many members, the taller first (else the lower)
  private readonly failed = new Set<string>();
  private readonly solved = new Map<string, [number, number][]>(); // parts placed before (in an earlier run, or another branch), by key
  private solvedItems = 0;

  private readonly hashes: Int32Array; // two random words per item, for keyOf
  // Sections of the items of the part built last, by region item. A part
  // reads them only before it solves a part inside it (time cuts, strips and
  // candidates are all listed first), so one pair serves every part.
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly bySize = (a: number, b: number) => this.prep.itemExtent[b]! - this.prep.itemExtent[a]! || a - b; // largest first

  constructor(
    readonly prep: PreparedRegion,
    private readonly stop: () => boolean,
    private readonly pinwheels: boolean, // parts no straight cut takes apart are tried as blocks (corner-blocks.ts)
  ) {
    const random = seededRandom(0x2545f491);
    this.from = new Int32Array(prep.itemCount);
    this.to = new Int32Array(prep.itemCount);
    this.hashes = Int32Array.from({ length: 2 * prep.itemCount }, () => Math.floor(random() * 2 ** 32) | 0);
  }

  /**
   * The placement of the whole span, unless the search ran out of nodes
   * (`nodeLimit` in all its runs), was stopped or found none. Parts refuted
   * in earlier runs stay refuted.
   */
  run(items: readonly number[], target: number, nodeLimit: number): Map<number, number> | undefined {
    this.nodeLimit = nodeLimit;
    this.aborted = false;
    try {
      const found = this.solve(items, target);
      return this.aborted ? undefined : found;
    } catch (error) {
      // a nesting deeper than its limit (search-depth.ts) or, failing that, the call stack: no placement, nothing proven
      if (!(error instanceof RangeError)) throw error;
      this.aborted = this.stopped = true;
      return undefined;
    }
  }

  tick(): boolean {
    if (this.aborted) return true;
    countWork(180);
    if (++this.nodes > this.nodeLimit) this.aborted = true;
    else if ((this.nodes & 1023) === 0 && this.stop()) this.aborted = this.stopped = true;
    return this.aborted;
  }

  /** Offsets (from 0) of `items` packed into `height` with no byte free, or undefined. */
  solve(items: readonly number[], height: number): Map<number, number> | undefined {
    this.depth.enter();
    try {
      return this.solveHere(items, height);
    } finally {
      this.depth.leave();
    }
  }

  /** One level of `solve`. */
  private solveHere(items: readonly number[], height: number): Map<number, number> | undefined {
    if (items.length === 0) return new Map();
    if (this.tick()) return undefined;
    countWork(4000 * items.length); // its key and sections
    if (items.length === 1) return this.prep.itemExtent[items[0]!] === height ? new Map([[items[0]!, 0]]) : undefined;
    const key = this.keyOf(items, height);
    if (this.failed.has(key)) return undefined;
    const known = this.solved.get(key);
    if (known !== undefined) return new Map(known);
    const complete = { value: true };
    const result = this.solvePart(items, height, complete);
    if (result === undefined && complete.value && !this.aborted && this.failed.size < MAX_FAILED) this.failed.add(key);
    if (result !== undefined && this.solvedItems + items.length <= MAX_SOLVED_ITEMS) {
      this.solved.set(key, [...result]); // a copy: callers add to the maps they are given
      this.solvedItems += items.length;
    }
    return result;
  }

  private solvePart(items: readonly number[], height: number, complete: { value: boolean }): Map<number, number> | undefined {
    const { prep } = this;
    const part = this.sectionsOf(items);
    const m = part.sections;
    countWork(470 * (items.length + m));
    const load = new Float64Array(m);
    const crossing = new Int32Array(m + 1);
    for (const i of items) {
      for (let s = part.from[i]!; s < part.to[i]!; s++) load[s]! += prep.itemExtent[i]!;
      for (let s = part.from[i]! + 1; s < part.to[i]!; s++) crossing[s]!++;
    }
    for (let s = 0; s < m; s++) if (load[s] !== 0 && load[s] !== height) return undefined;
    // cuts along time: every boundary no buffer crosses
    const cuts: number[] = [];
    for (let s = 1; s < m; s++) if (crossing[s] === 0) cuts.push(s);
    if (cuts.length > 0) {
      const pieces: number[][] = Array.from({ length: cuts.length + 1 }, () => []);
      for (const i of items) {
        let p = 0;
        while (p < cuts.length && cuts[p]! <= part.from[i]!) p++;
        pieces[p]!.push(i);
      }
      const out = new Map<number, number>();
      for (const piece of pieces) {
        const placed = this.solve(piece, height);
        if (placed === undefined) return undefined;
        for (const [i, offset] of placed) out.set(i, offset);
      }
      return out;
    }
    // strips: buffers over the whole part go at its bottom
    const strips: number[] = [];
    const rest: number[] = [];
    for (const i of items) (part.from[i] === 0 && part.to[i] === m ? strips : rest).push(i);
    if (strips.length > 0) {
      let base = 0;
      const out = new Map<number, number>();
      for (const i of strips) {
        out.set(i, base);
        base += prep.itemExtent[i]!;
      }
      const above = this.solve(rest, height - base);
      if (above === undefined) return undefined;
      for (const [i, offset] of above) out.set(i, base + offset);
      return out;
    }
    if (!this.pinwheels) return this.cutAlongAddresses(items, height, part, complete);
    const blocks = placeByBlocks(this, items, height, part);
    if (blocks !== undefined || this.aborted) return blocks;
    return this.cutAlongAddresses(items, height, this.sectionsOf(items), complete); // the parts tried inside rebuilt the shared sections
  }

  /**
   * The memory's key of a part: two 32-bit hashes of its set of items (a
   * sum of random words per item, so the order does not matter), its size
   * and its height. Two sets sharing a key would make the second count as
   * failed: a placement missed, never a wrong one.
   */
  private keyOf(items: readonly number[], height: number): string {
    let a = 0;
    let b = 0;
    for (const i of items) {
      a = (a + this.hashes[2 * i]!) | 0;
      b = (b + this.hashes[2 * i + 1]!) | 0;
    }
    return `${height}:${items.length}:${a}:${b}`;
  }

  private sectionsOf(items: readonly number[]): Part {
    const { prep, from, to } = this;
    let low = Infinity;
    let high = -Infinity;
    for (const i of items) {
      low = Math.min(low, prep.itemStart[i]!);
      high = Math.max(high, prep.itemEnd[i]!);
    }
    let m: number;
    if (Number.isSafeInteger(low) && Number.isSafeInteger(high) && high - low <= DENSE_TIMES_PER_ITEM * items.length) {
      // steps over a short range: each time's section by counting, no sort
      const index = new Int32Array(high - low + 1);
      for (const i of items) index[prep.itemStart[i]! - low] = index[prep.itemEnd[i]! - low] = 1;
      m = -1;
      for (let t = 0; t < index.length; t++) if (index[t] === 1) index[t] = ++m;
      for (const i of items) {
        from[i] = index[prep.itemStart[i]! - low]!;
        to[i] = index[prep.itemEnd[i]! - low]!;
      }
    } else {
      const all = new Float64Array(2 * items.length);
      items.forEach((i, k) => {
        all[2 * k] = prep.itemStart[i]!;
        all[2 * k + 1] = prep.itemEnd[i]!;
      });
      all.sort();
      m = -1;
      for (let k = 0; k < all.length; k++) if (m < 0 || all[k] !== all[m]) all[++m] = all[k]!; // keeps each time once, in place
      const times = all.subarray(0, m + 1); // distinct, ascending: m sections between them
      for (const i of items) {
        from[i] = countBelow(times, prep.itemStart[i]!);
        to[i] = countBelow(times, prep.itemEnd[i]!);
      }
    }
    const startingAt: number[][] = Array.from({ length: m }, () => []);
    const lastAt: number[][] = Array.from({ length: m }, () => []);
    for (const i of items) {
      startingAt[from[i]!]!.push(i);
      lastAt[to[i]! - 1]!.push(i);
    }
    for (const list of startingAt) if (list.length > 1) list.sort(this.bySize);
    for (const list of lastAt) if (list.length > 1) list.sort(this.bySize);
    return { sections: m, from, to, startingAt, lastAt };
  }

  /** Tries each lowest block S (see the module header): S below its y, the rest above. */
  private cutAlongAddresses(items: readonly number[], height: number, part: Part, complete: { value: boolean }): Map<number, number> | undefined {
    const { candidates, listedAll } = listCandidates(this.prep, items, height, part, this.tallFirst);
    const inS = new Uint8Array(this.prep.itemCount); // by region item: in S (a walk that ends leaves only its seed)
    for (const c of candidates) {
      const seed = membersOf(c);
      for (const i of seed) inS[i] = 1;
      const growth = new Growth(this, part, c, inS, complete);
      while (growth.next()) {
        const below = this.solve(
          items.filter((i) => inS[i] === 1),
          c.y,
        );
        if (below === undefined) continue;
        const above = this.solve(
          items.filter((i) => inS[i] === 0),
          height - c.y,
        );
        if (above === undefined) continue;
        for (const [i, offset] of above) below.set(i, c.y + offset);
        return below;
      }
      if (this.aborted) return undefined;
      for (const i of seed) inS[i] = 0;
    }
    if (listedAll) return undefined;
    complete.value = false;
    return this.leftover(items, height);
  }

  /** A part with too many buffers at every boundary to list: the skyline search, briefly. */
  private leftover(items: readonly number[], height: number): Map<number, number> | undefined {
    const nodes = Math.min(LEFTOVER_NODES, this.nodeLimit - this.nodes);
    if (nodes <= 0) return undefined;
    const outcome = skylineSearch(this.prep, items, height, nodes, this.stop);
    this.nodes += outcome.nodes;
    if (outcome.offsets === undefined || outcome.peak > height) return undefined;
    return new Map(items.map((i) => [i, outcome.offsets![i]!]));
  }
}
