// The blocks [lo, hi) of the items live at one moment of a sweep over time,
// sorted by offset, with the gap queries of first fit and tightest fit.
// Depends only on the engine's prepared form.
//
// - Blocks never overlap, so free space is the gaps between neighbours.
// - Blocks are kept in runs of at most 2 × RUN blocks; each run knows its
//   largest inner gap, so a query skips every run where no gap is wide enough
//   and reads blocks only in runs that may hold a fit. With thousands of live
//   blocks and few wide gaps, a query costs about live / RUN + RUN steps
//   instead of one step per live block; inside a run, only gaps wide
//   enough (and, for tightest fit, narrow enough to beat the best so far)
//   are aligned and tried.

import { alignBase, type PreparedRegion } from './prepared';

const RUN = 64;

/** One run of blocks, sorted by (lo, item). */
interface Run {
  lo: number[];
  hi: number[];
  item: number[];
  maxGap: number; // at least the largest lo[k + 1] - hi[k] inside the run (removals may leave it above: it only makes queries look inside)
}

/** Live blocks sorted by offset; see the module header. */
export class LiveBlocks {
  private runs: Run[] = [];

  /**
   * The lowest (or, with `tightest`, the smallest fitting; the lowest on ties)
   * aligned base where `extent` bytes overlap no block.
   */
  gap(prep: PreparedRegion, item: number, extent: number, tightest: boolean): number {
    const slop = prep.itemModulus[item]! - 1; // alignment shrinks a gap by at most this
    let from = alignBase(prep, item, 0); // the lowest base above every block passed
    let best = NaN;
    let bestSlack = Infinity; // bytes of the best fitting gap so far
    for (const { lo, hi, maxGap } of this.runs) {
      const n = lo.length;
      if (lo[0]! >= from + extent) {
        if (!tightest) return from;
        if (lo[0]! - from < bestSlack) {
          bestSlack = lo[0]! - from;
          best = from;
          if (bestSlack === extent) return best; // nothing fits tighter
        }
      }
      if (maxGap >= extent) {
        for (let k = 1; k < n; k++) {
          const raw = lo[k]! - hi[k - 1]!;
          if (raw < extent || raw >= bestSlack + slop) continue; // too narrow, or cannot beat the best once aligned
          const base = alignBase(prep, item, hi[k - 1]!);
          if (lo[k]! < base + extent) continue;
          if (!tightest) return base;
          if (lo[k]! - base < bestSlack) {
            bestSlack = lo[k]! - base;
            best = base;
            if (bestSlack === extent) return best;
          }
        }
      }
      if (hi[n - 1]! > from) from = alignBase(prep, item, hi[n - 1]!);
    }
    return best === best ? best : from;
  }

  /** Adds the block [low, high) of `item`. */
  insert(low: number, high: number, item: number): void {
    if (this.runs.length === 0) {
      this.runs.push({ lo: [low], hi: [high], item: [item], maxGap: 0 });
      return;
    }
    const r = this.runAt(low, item);
    const run = this.runs[r]!;
    const at = position(run, low, item);
    run.lo.splice(at, 0, low);
    run.hi.splice(at, 0, high);
    run.item.splice(at, 0, item);
    if (run.lo.length > 2 * RUN) {
      const tail: Run = { lo: run.lo.splice(RUN), hi: run.hi.splice(RUN), item: run.item.splice(RUN), maxGap: 0 };
      tail.maxGap = innerGap(tail);
      this.runs.splice(r + 1, 0, tail);
      run.maxGap = innerGap(run);
    } else {
      afterInsert(run, at);
    }
  }

  /** Removes the block of `item` that starts at `low`. */
  remove(low: number, item: number): void {
    const r = this.runAt(low, item);
    const run = this.runs[r]!;
    const at = position(run, low, item);
    run.lo.splice(at, 1);
    run.hi.splice(at, 1);
    run.item.splice(at, 1);
    if (run.lo.length === 0) this.runs.splice(r, 1);
    else if (at > 0 && at < run.lo.length) run.maxGap = Math.max(run.maxGap, run.lo[at]! - run.hi[at - 1]!); // two gaps became one
  }

  /** The last run whose first block is not above (low, item); the first run when none is. */
  private runAt(low: number, item: number): number {
    let a = 0;
    let b = this.runs.length - 1;
    while (a < b) {
      const mid = (a + b + 1) >>> 1;
      const run = this.runs[mid]!;
      if (run.lo[0]! < low || (run.lo[0] === low && run.item[0]! <= item)) a = mid;
      else b = mid - 1;
    }
    return a;
  }
}

/** First position in the run whose (lo, item) is not below (low, item). */
function position(run: Run, low: number, item: number): number {
  let a = 0;
  let b = run.lo.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (run.lo[mid]! < low || (run.lo[mid] === low && run.item[mid]! < item)) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** Keeps `maxGap` an upper bound after a block went in at `at`: a gap it split may have been the widest. */
function afterInsert(run: Run, at: number): void {
  const { lo, hi } = run;
  const last = lo.length - 1;
  if (at > 0 && at < last) {
    if (lo[at + 1]! - hi[at - 1]! >= run.maxGap) run.maxGap = innerGap(run);
  } else if (last > 0) {
    const k = at === 0 ? 1 : last; // the one new inner gap, before block k
    run.maxGap = Math.max(run.maxGap, lo[k]! - hi[k - 1]!);
  }
}

function innerGap(run: Run): number {
  let gap = 0;
  for (let k = 1; k < run.lo.length; k++) gap = Math.max(gap, run.lo[k]! - run.hi[k - 1]!);
  return gap;
}
