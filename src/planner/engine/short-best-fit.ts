// The best fit of an item whose one member with bytes has a lifetime too
// short to reach the occupancy tree's `whole` unions (occupancy-tree.ts):
// around such a lifetime one list is long and the rest short, and the gap
// walk (Placer.findGap) goes over the long one's holes merged on the fly with
// the union of the rest, itself merged piece by piece as the walk reaches
// it, without building the whole union. Answers equal those of the rectangle
// walk. Depends only on the engine's prepared form, the tree, the piece-list
// tools and the work clock.

import type { OccupancyTree } from './occupancy-tree';
import { alignBase, type PreparedRegion } from './prepared';
import { countWork } from './work-clock';
import { appendSolos, grownFloats, grownInts, PIECE_WORK, UNION_QUERY_WORK } from './piece-lists';

/** Best fits of short lifetimes from one region's occupancy tree, with their scratch. */
export class ShortBestFit {
  private readonly prep: PreparedRegion;
  private lo = new Float64Array(64); // every piece but the long list's, as ascending runs
  private hi = new Float64Array(64);
  private runEnds = new Int32Array(64); // ends of the ascending runs gathered from the tree

  constructor(prep: PreparedRegion) {
    this.prep = prep;
  }

  /**
   * Best fit of member `m`, the only one of `item` that holds bytes, by
   * walking the union's gaps in address order as Placer.findGap does, without
   * building it. Around a short lifetime one list is long (the `throughout`
   * union of its node, about 200 pieces on a 62k training trace, each hole a
   * candidate for a small item) and the others are few and short: their
   * union is merged a piece at a time as the walk reaches it, the long one's
   * holes between. Building the whole union first, shifted, and walking it
   * took about twice as long; merging the rest whole first (unionOfRuns in
   * sort-pairs.ts) made a greedy-breadth pass on a 62k-buffer crowded trace
   * take 1.15 times as long.
   */
  bestFit(tree: OccupancyTree, item: number, m: number): number {
    const { prep } = this;
    const rel = prep.rectRel[m]!;
    const size = prep.rectSize[m]!;
    const plain = prep.itemModulus[item] === 1;
    const lists = tree.collect(m);
    const pieces = tree.pieces();
    const { listFrom, listTo } = tree;
    let longest = -1;
    let needed = tree.soloCount;
    for (let u = 0; u < lists; u++) {
      needed += (listTo[u]! - listFrom[u]!) >>> 1;
      if (longest < 0 || listTo[u]! - listFrom[u]! > listTo[longest]! - listFrom[longest]!) longest = u;
    }
    // the longest list's entries [bigFrom, bigEnd) of `pieces`
    const bigFrom = longest < 0 ? 0 : listFrom[longest]!;
    const bigEnd = longest < 0 ? 0 : listTo[longest]!;
    needed -= (bigEnd - bigFrom) >>> 1;
    // the rest: single pieces and the other lists, as ascending runs, merged into one union
    if (needed > this.lo.length) {
      this.lo = grownFloats(this.lo, needed);
      this.hi = grownFloats(this.hi, needed);
    }
    if (lists + 1 > this.runEnds.length) this.runEnds = grownInts(this.runEnds, lists + 1);
    const { lo, hi, runEnds } = this;
    let count = appendSolos(tree.soloFrom, tree.soloTo, tree.soloCount, lo, hi, 0, 1, 0); // the pieces themselves: a range of one byte forbids only its start
    let runs = 0;
    if (count > 0) runEnds[runs++] = count;
    for (let u = 0; u < lists; u++) {
      if (u === longest) continue;
      for (let k = listFrom[u]!; k < listTo[u]!; k += 2) {
        lo[count] = pieces[k]!;
        hi[count] = pieces[k + 1]!;
        count++;
      }
      runEnds[runs++] = count;
    }
    // the rest's union, a piece at a time as the walk reaches it ([pieceLo, pieceHi), pieceLo Infinity once used up):
    // the walk stops at the tightest gap before using all of it, and most of the rest's pieces are in no other's
    // way (a 62k crowded trace's 72 pieces in six runs are 68 in the union), so merging it whole first cost more
    this.startRest(runs, count);
    // the gap walk over the ranges of bases each piece forbids, [start - rel - size + 1, end - rel), in order: the
    // long list's pieces up to the next of the merged rest, then that one (each piece read counts as work, the one
    // an exact fit ends the walk at too)
    const reach = rel + size - 1;
    let from = 0;
    let bestBase = NaN;
    let bestSlack = Infinity;
    let i = bigFrom;
    let j = 0;
    walk: for (;;) {
      const stop = this.pieceLo;
      if (plain) {
        // the hot loop: most holes of a crowded step are in the long list
        while (i < bigEnd && pieces[i]! <= stop) {
          const slack = pieces[i]! - reach - from;
          if (slack > 0 && slack < bestSlack) {
            bestSlack = slack;
            bestBase = from;
            if (slack === 1) {
              i += 2; // read (the work counted below)
              break walk; // an exact fit: none is tighter, and later ones are higher
            }
          }
          const high = pieces[i + 1]! - rel;
          if (high > from) from = high;
          i += 2;
        }
      } else {
        while (i < bigEnd && pieces[i]! <= stop) {
          if (this.fitsBelow(item, from, pieces[i]! - reach, bestSlack)) {
            bestSlack = this.slack;
            bestBase = this.base;
            if (bestSlack === 1) {
              i += 2;
              break walk;
            }
          }
          const high = pieces[i + 1]! - rel;
          if (high > from) from = high;
          i += 2;
        }
      }
      if (stop === Infinity) break;
      if (this.fitsBelow(item, from, stop - reach, bestSlack)) {
        bestSlack = this.slack;
        bestBase = this.base;
        if (bestSlack === 1) {
          j++;
          break;
        }
      }
      const high = this.pieceHi - rel;
      if (high > from) from = high;
      j++;
      this.nextPiece();
    }
    countWork(UNION_QUERY_WORK + PIECE_WORK * (((i - bigFrom) >>> 1) + j + count));
    if (bestBase === bestBase) return bestBase;
    return plain ? from : alignBase(prep, item, from);
  }

  // the rest's union as `nextPiece` hands it out: with one run or none, its ranges as they are (the walk reads them
  // unmerged then, as it always has); with more, merged on the fly from the lowest of each run's next range
  private pieceLo = Infinity; // the piece the walk is at: [pieceLo, pieceHi), Infinity once there is none
  private pieceHi = Infinity;
  private restRuns = 0;
  private restCount = 0; // ranges in lo/hi
  private next = 0; // with one run or none: the next range of lo/hi
  private heads = new Int32Array(64); // per run, its next range in lo/hi
  private headLo = new Float64Array(64); // its low end, Infinity once the run is used up
  private lowestRun = -1; // the run whose head is lowest (-1: all used up), and that head's low end
  private lowestLo = Infinity;

  /** Starts handing out the union of the `runs` ascending runs (ends in runEnds) of lo/hi's first `count` ranges, and takes its first piece. */
  private startRest(runs: number, count: number): void {
    this.restRuns = runs;
    this.restCount = count;
    this.next = 0;
    if (runs > 1) {
      if (runs > this.heads.length) {
        this.heads = grownInts(this.heads, runs);
        this.headLo = grownFloats(this.headLo, runs);
      }
      const { heads, headLo, runEnds, lo } = this;
      this.lowestRun = -1;
      this.lowestLo = Infinity;
      for (let r = 0; r < runs; r++) {
        heads[r] = r === 0 ? 0 : runEnds[r - 1]!;
        headLo[r] = heads[r]! < runEnds[r]! ? lo[heads[r]!]! : Infinity;
        if (headLo[r]! < this.lowestLo) {
          this.lowestLo = headLo[r]!;
          this.lowestRun = r;
        }
      }
    }
    this.nextPiece();
  }

  /**
   * Moves to the next piece of the rest's union: the lowest range left in
   * any run, with every range that overlaps or touches it (the union
   * unionOfRuns builds, piece by piece).
   */
  private nextPiece(): void {
    const { lo, hi } = this;
    const runs = this.restRuns;
    if (runs <= 1) {
      const k = this.next++;
      this.pieceLo = k < this.restCount ? lo[k]! : Infinity;
      this.pieceHi = k < this.restCount ? hi[k]! : Infinity;
      return;
    }
    const { heads, headLo, runEnds } = this;
    // the lowest head, as the scan that ended the last piece found it
    let r = this.lowestRun;
    let l = this.lowestLo;
    if (r < 0) {
      this.pieceLo = Infinity;
      this.pieceHi = Infinity;
      return;
    }
    const low = l;
    let high = -Infinity;
    do {
      const at = heads[r]!;
      if (hi[at]! > high) high = hi[at]!;
      heads[r] = at + 1;
      headLo[r] = at + 1 < runEnds[r]! ? lo[at + 1]! : Infinity;
      r = -1;
      l = Infinity;
      for (let k = 0; k < runs; k++) {
        if (headLo[k]! < l) {
          l = headLo[k]!;
          r = k;
        }
      }
    } while (r >= 0 && l <= high); // overlapping or touching: the same piece
    this.lowestRun = r;
    this.lowestLo = l;
    this.pieceLo = low;
    this.pieceHi = high;
  }

  /** The aligned base and its slack `fitsBelow` found last. */
  private base = 0;
  private slack = 0;

  /** Whether `item`'s aligned base at or above `from` fits below `low` more tightly than `bestSlack` (then in `base` and `slack`). */
  private fitsBelow(item: number, from: number, low: number, bestSlack: number): boolean {
    if (!(low > from)) return false;
    const base = alignBase(this.prep, item, from);
    if (!(base < low && low - base < bestSlack)) return false;
    this.base = base;
    this.slack = low - base;
    return true;
  }
}
