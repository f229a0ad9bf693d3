// The placer's questions to the occupancy tree (occupancy-tree.ts) during a
// greedy pass: the union of the bases forbidden to an item (for the gap
// walks), the first and best fits found over the tree's lists without
// building that union, and the top of what an item meets (for "above all").
// Answers equal those of the rectangle walk; the scratch arrays are kept
// between calls. A best fit of a lifetime too short for the tree's `whole`
// unions is short-best-fit.ts's. Depends only on the engine's prepared form,
// the tree, the pair merge, the piece-list tools and the work clock.

import type { OccupancyTree } from './occupancy-tree';
import { alignBase, type PreparedRegion } from './prepared';
import { unionOfRuns } from './sort-pairs';
import { countWork } from './work-clock';
import { appendSolos, firstEndingAbove, grownFloats, grownInts, PIECE_WORK, UNION_QUERY_WORK } from './piece-lists';
import { ShortBestFit } from './short-best-fit';
/** Work of a first fit from the tree (engine/work-clock.ts): the query, per list it meets, and per piece it reads or leaps past. */
const FIRST_QUERY_WORK = 1300;
const LIST_WORK = 30;
const LEAP_WORK = 20;

/** Queries of one region's occupancy tree, with their scratch. */
export class TreeQueries {
  private readonly prep: PreparedRegion;
  /** The forbidden ranges `forbidden` filled: [lo[i], hi[i]) for i below its count. */
  lo = new Float64Array(64);
  hi = new Float64Array(64);
  private runEnds: Int32Array = new Int32Array(64); // ends of the ascending runs gathered from the tree
  private cursors: Int32Array = new Int32Array(64); // per list of the tree, the entry of the first piece first fit has not passed
  private keys: Float64Array = new Float64Array(64); // per list, where its first piece ending above the candidate's first byte starts
  // the query `leap` answers, set by `begin`
  private item = 0;
  private plain = true;
  private rel = 0;
  private size = 0;
  private lists = 0;
  private leaps = 0;
  private reads = 0;
  private lowest = Infinity; // the lowest key when `leap` returned: where the lowest list piece above the candidate starts (Infinity: none)
  private readonly short: ShortBestFit;

  constructor(prep: PreparedRegion) {
    this.prep = prep;
    this.short = new ShortBestFit(prep);
  }

  /**
   * Fills lo/hi with the union of the bases forbidden to `item` (as
   * Placer.findGap reads them), from the merged pieces of the bytes held
   * during each member's lifetime: their forbidden ranges have
   * the same union, which is all the gap walks read (see occupancy-tree.ts).
   */
  forbidden(tree: OccupancyTree, item: number, whole: boolean): number {
    const { prep } = this;
    const { rectRel, rectSize } = prep;
    const { listFrom, listTo } = tree;
    let count = 0;
    let runs = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (rectSize[m] === 0) continue;
      const relM = whole ? 0 : rectRel[m]!;
      const sizeM = whole ? prep.itemExtent[item]! : rectSize[m]!;
      const n = tree.collect(m);
      const pieces = tree.pieces();
      let needed = count + tree.soloCount;
      for (let u = 0; u < n; u++) needed += (listTo[u]! - listFrom[u]!) >>> 1;
      if (needed > this.lo.length) {
        this.lo = grownFloats(this.lo, needed);
        this.hi = grownFloats(this.hi, needed);
      }
      if (runs + n + 1 > this.runEnds.length) this.runEnds = grownInts(this.runEnds, runs + n + 1);
      const { lo, hi, runEnds } = this;
      // every list is ascending, and so is its shift for a member: the gap walk's order comes from merging them
      const solos = count;
      count = appendSolos(tree.soloFrom, tree.soloTo, tree.soloCount, lo, hi, relM, sizeM, count);
      if (count > solos) runEnds[runs++] = count;
      for (let u = 0; u < n; u++) {
        for (let k = listFrom[u]!; k < listTo[u]!; k += 2) {
          lo[count] = pieces[k]! - relM - sizeM + 1;
          hi[count] = pieces[k + 1]! - relM;
          count++;
        }
        runEnds[runs++] = count;
      }
    }
    countWork(UNION_QUERY_WORK + PIECE_WORK * count);
    return unionOfRuns(this.lo, this.hi, this.runEnds, runs);
  }

  /**
   * First fit from the tree for an item with one member that holds bytes
   * (NaN for several): the lowest aligned base at or above `floor` where the
   * member's bytes (for `whole`, the item's whole extent) are clear of the
   * union, as the gap walk finds it, without building the union (see `leap`).
   */
  firstFit(tree: OccupancyTree, item: number, floor: number, whole: boolean): number {
    const m = this.soleMember(item);
    if (m === -2) return NaN;
    const base = alignBase(this.prep, item, floor);
    if (m < 0) return base;
    this.begin(tree, item, m, whole);
    const fit = this.leap(tree, base);
    this.countLeaps();
    return fit;
  }

  /**
   * Best fit from the tree for an item with one member that holds bytes (NaN
   * for several): the gap walk's answer (the aligned base at the bottom of the
   * tightest gap that fits, the lowest on ties; above everything when none
   * fits), without building the union. A lifetime that reaches the tree's
   * `whole` unions leaps from each fitting gap to the next; a shorter one
   * walks every hole of its step (short-best-fit.ts). A gap the item fills
   * exactly ends either walk: none is tighter.
   */
  bestFit(tree: OccupancyTree, item: number): number {
    const m = this.soleMember(item);
    if (m === -2) return NaN;
    const { prep } = this;
    let base = alignBase(prep, item, 0);
    if (m < 0) return base;
    if (!tree.reachesWhole(m)) return this.short.bestFit(tree, item, m);
    this.begin(tree, item, m, false);
    const { rel, size } = this;
    let bestBase = NaN;
    let bestSlack = Infinity;
    for (;;) {
      base = this.leap(tree, base);
      // the gap's top: the lowest piece above the candidate's bytes (none is inside them, and every list's key is exact)
      let next = this.lowest;
      for (let j = 0; j < tree.soloCount; j++) {
        if (tree.soloTo[j]! > base + rel && tree.soloFrom[j]! < next) next = tree.soloFrom[j]!;
      }
      this.reads += tree.soloCount;
      if (next === Infinity) break; // above everything: the open space, taken only when no gap fits
      const slack = next - (base + rel + size) + 1; // as the gap walk measures it: its forbidden range's low end less the base
      if (slack < bestSlack) {
        bestSlack = slack;
        bestBase = base;
        if (slack === 1) break; // an exact fit
      }
      base = alignBase(prep, item, next - rel); // into the piece above: the next fitting gap lies past it
    }
    this.countLeaps();
    return bestBase === bestBase ? bestBase : base;
  }

  /** The one member of `item` that holds bytes: -1 when none does, -2 when several do. */
  private soleMember(item: number): number {
    const { prep } = this;
    let m = -1;
    for (let k = prep.itemRectStart[item]!; k < prep.itemRectStart[item + 1]!; k++) {
      if (prep.rectSize[k] === 0) continue;
      if (m >= 0) return -2;
      m = k;
    }
    return m;
  }

  /** Sets up `leap` for member `m` of `item` (for `whole`, with the item's whole extent). */
  private begin(tree: OccupancyTree, item: number, m: number, whole: boolean): void {
    const { prep } = this;
    this.item = item;
    this.plain = prep.itemModulus[item] === 1;
    this.rel = whole ? 0 : prep.rectRel[m]!;
    this.size = whole ? prep.itemExtent[item]! : prep.rectSize[m]!;
    const lists = tree.collect(m);
    const pieces = tree.pieces();
    if (this.cursors.length < lists) {
      this.cursors = grownInts(this.cursors, lists);
      this.keys = new Float64Array(this.cursors.length);
    }
    const { cursors, keys } = this;
    // every list's key: where its first piece ending above the candidate's first byte starts (Infinity: none)
    for (let k = 0; k < lists; k++) {
      cursors[k] = tree.listFrom[k]!;
      keys[k] = pieces[tree.listFrom[k]!]!;
    }
    this.lists = lists;
    this.leaps = 0;
    this.reads = 0;
  }

  /**
   * The lowest aligned base at or above `base` whose bytes are clear of the
   * union: the candidate leaps past each piece its bytes would meet. Each
   * round goes through the lists in turn and takes every one whose key (the
   * start of its first piece ending above the candidate, as last seen) is
   * below the candidate's bytes' end: it passes the pieces that end at or
   * below the candidate, then leaps along the ones that meet it; the rounds
   * end when none would be taken (the lowest key, kept as a round passes each
   * list, is at or above the candidate's bytes' end: no round that only
   * confirms it, which was a third of the key comparisons on a 62k-buffer
   * trace, and a best fit reads the gap's top from it), then the single
   * pieces are checked the same way.
   * Every leap passes only bases that overlap a piece, so the answer is the
   * lowest clear base whatever order the lists are taken in. On crowded
   * traces the fit lies above a stretch held by pieces of many interleaved
   * lists: a round takes several of them in one pass over about ten keys,
   * where a heap by key took one per sift (on a 62k-buffer trace the rounds
   * took 0.6 of the heap's list reads, and leap 0.7 of its time). Called
   * again with a higher base, it goes on from where it stopped. On return
   * every list's key is the start of its first piece above the candidate's bytes.
   */
  private leap(tree: OccupancyTree, base: number): number {
    const { prep, cursors, keys, rel, size, plain, item } = this;
    const pieces = tree.pieces();
    const lists = this.lists;
    const { listTo, soloFrom, soloTo } = tree;
    const solos = tree.soloCount;
    // the counts in locals, written back once: the loops below are the hottest of a best-fit pass
    let reads = this.reads;
    let leaps = this.leaps;
    for (;;) {
      // a round takes every list blocked at the candidate as it stands; the lowest key after it (every list's key is
      // final for the round once passed) says whether the next round would take any, without a round that takes none
      let lowest: number;
      do {
        lowest = Infinity;
        for (let k = 0; k < lists; k++) {
          if (!(keys[k]! < base + rel + size)) {
            if (keys[k]! < lowest) lowest = keys[k]!;
            continue;
          }
          const end = listTo[k]!;
          let c = firstEndingAbove(pieces, cursors[k]!, end, base + rel);
          reads++;
          while (c < end && pieces[c]! < base + rel + size) {
            const next = pieces[c + 1]! - rel;
            base = plain ? next : alignBase(prep, item, next);
            leaps++;
            c = plain ? c + 2 : firstEndingAbove(pieces, c + 2, end, base + rel);
          }
          cursors[k] = c;
          const key = c < end ? pieces[c]! : Infinity;
          keys[k] = key;
          if (key < lowest) lowest = key;
        }
      } while (lowest < base + rel + size);
      this.lowest = lowest;
      let moved = false;
      for (let j = 0; j < solos; j++) {
        if (soloTo[j]! > base + rel && soloFrom[j]! < base + rel + size) {
          const next = soloTo[j]! - rel;
          base = plain ? next : alignBase(prep, item, next);
          moved = true;
          leaps++;
        }
      }
      reads += solos;
      if (!moved) {
        this.reads = reads;
        this.leaps = leaps;
        return base;
      }
    }
  }

  /** Counts the work of the last first or best fit. */
  private countLeaps(): void {
    countWork(FIRST_QUERY_WORK + LIST_WORK * this.lists + LEAP_WORK * (this.leaps + this.reads));
  }

  /** The highest byte, relative to the item's base, held by a placed rectangle live with one of its members (at least 0). */
  top(tree: OccupancyTree, item: number): number {
    const { prep } = this;
    let top = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (prep.rectSize[m] === 0) continue;
      const n = tree.collect(m);
      const pieces = tree.pieces();
      for (let u = 0; u < n; u++) {
        const high = pieces[tree.listTo[u]! - 1]! - prep.rectRel[m]!;
        if (high > top) top = high;
      }
      for (let k = 0; k < tree.soloCount; k++) {
        const high = tree.soloTo[k]! - prep.rectRel[m]!;
        if (high > top) top = high;
      }
    }
    countWork(UNION_QUERY_WORK);
    return top;
  }
}
