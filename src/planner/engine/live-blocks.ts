// The blocks [lo, hi) of the items live at one moment of a sweep over time,
// sorted by offset, with the gap queries of first fit and tightest fit, and
// the items leaving them as a sweep passes their end (Departures). Depends
// only on the engine's prepared form.
//
// - Blocks never overlap, so free space is the gaps between neighbours.
// - Blocks are kept in runs of at most 2 × RUN blocks (block-run.ts), each
//   with its inner gaps sorted by width. A run's width is its widest gap:
//   the one below its first block (down to the previous run's last block,
//   or to zero) or an inner one.
// - A max-tree over the runs holds their widths. First fit descends straight
//   to the first run wide enough and scans it; tightest fit visits only the
//   runs wide enough and finds the smallest fitting gap of each by binary
//   search. A query that finds no gap wide enough costs one look at the root.
//   So a query costs O(log runs + RUN) for first fit and O(runs wide enough ×
//   log RUN) for tightest fit, never a step per live block.
// - `gapFrom` is first fit from a given offset up, for callers that must
//   also avoid blocks kept elsewhere (class-sweep.ts).
// - Alignment can make a wide enough gap too narrow: a query then tries the
//   next gap, and gaps up to `modulus - 1` bytes wider than the best so far.
// - Splitting a full run or dropping an empty one rebuilds the tree, once
//   every RUN insertions at most: amortized O(runs / RUN) per update.

import { BlockRun, RUN } from './block-run';
import { alignBase, type PreparedRegion } from './prepared';

/** Live blocks sorted by offset; see the module header. */
export class LiveBlocks {
  private runs: BlockRun[] = [];
  private readonly runOf: (BlockRun | undefined)[]; // item -> the run holding its block
  private readonly spare: BlockRun[] = []; // emptied runs, reused rather than allocated again
  private hintItem = -1; // the item of the last gap query, and the run its block goes into
  private hintRun = -1;
  private leaves = 1; // a power of two >= runs.length
  private width = new Float64Array(2); // max-tree over runs: node -> widest gap of a run below it (-1 for no run)
  private bestSlack = Infinity; // tightest fit: bytes of the best fitting gap so far
  private bestBase = NaN; // tightest fit: its base
  /** Runs read by queries so far: a machine-independent effort measure. */
  visited = 0;

  /** An empty list for items numbered below `itemCount`. */
  constructor(itemCount: number) {
    this.runOf = new Array<BlockRun | undefined>(itemCount);
  }

  /**
   * The lowest (or, with `tightest`, the smallest fitting; the lowest on ties)
   * aligned base where `extent` bytes overlap no block.
   */
  gap(prep: PreparedRegion, item: number, extent: number, tightest: boolean): number {
    const count = this.runs.length;
    const top = alignBase(prep, item, count === 0 ? 0 : this.lastHi(count - 1));
    this.hintItem = item;
    this.hintRun = count - 1;
    if (count === 0 || this.width[1]! < extent) return top;
    return tightest ? this.tightestGap(prep, item, extent, top) : this.firstGap(prep, item, extent, top);
  }

  /**
   * The lowest aligned base at or above `from` where `extent` bytes overlap
   * no block (first fit over the blocks, starting the walk at `from`).
   */
  gapFrom(prep: PreparedRegion, item: number, extent: number, from: number): number {
    const count = this.runs.length;
    this.hintItem = item;
    this.hintRun = count - 1;
    if (count === 0) return alignBase(prep, item, from);
    const top = alignBase(prep, item, Math.max(from, this.lastHi(count - 1)));
    if (this.width[1]! < extent) return top;
    for (let r = this.nextWide(this.runAt(from, -1), extent); r >= 0; r = this.nextWide(r + 1, extent)) {
      this.visited++;
      const run = this.runs[r]!;
      const { lo, hi } = run;
      const below = alignBase(prep, item, Math.max(from, r === 0 ? 0 : this.lastHi(r - 1)));
      if (lo[0]! >= below + extent) {
        this.hintRun = r === 0 ? 0 : r - 1;
        return below;
      }
      for (let k = 1; k < run.size; k++) {
        if (lo[k]! - hi[k - 1]! < extent || lo[k]! < from + extent) continue;
        const base = alignBase(prep, item, Math.max(from, hi[k - 1]!));
        if (lo[k]! >= base + extent) {
          this.hintRun = r;
          return base;
        }
      }
    }
    return top;
  }

  /** Adds the block [low, high) of `item`. */
  insert(low: number, high: number, item: number): void {
    if (this.runs.length === 0) {
      const run = this.spare.pop() ?? new BlockRun();
      run.insertAt(0, low, high, item);
      this.runOf[item] = run;
      this.runs.push(run);
      this.rebuild();
      return;
    }
    // the gap query that found `low` for this item already knows the run
    const r = this.hintItem === item ? this.hintRun : this.runAt(low, item);
    this.hintItem = -1;
    const run = this.runs[r]!;
    const at = run.position(low, item);
    run.insertAt(at, low, high, item);
    this.runOf[item] = run;
    if (run.size > 2 * RUN) {
      const tail = run.split(this.spare.pop() ?? new BlockRun());
      for (let k = 0; k < tail.size; k++) this.runOf[tail.item[k]!] = tail;
      this.runs.splice(r + 1, 0, tail);
      this.rebuild();
      return;
    }
    this.refresh(r);
    if (at === run.size - 1) this.refresh(r + 1); // the gap below the next run shrank
  }

  /** Removes the block of `item` that starts at `low`. */
  remove(low: number, item: number): void {
    const run = this.runOf[item]!;
    const r = run.index;
    const at = run.position(low, item);
    const last = at === run.size - 1;
    run.removeAt(at);
    this.runOf[item] = undefined;
    if (run.size === 0) {
      this.runs.splice(r, 1);
      this.spare.push(run);
      this.rebuild();
      return;
    }
    this.refresh(r);
    if (last) this.refresh(r + 1); // the gap below the next run grew
  }

  /** First fit: the first run wide enough (in address order) that really holds an aligned fit. */
  private firstGap(prep: PreparedRegion, item: number, extent: number, top: number): number {
    for (let r = this.nextWide(0, extent); r >= 0; r = this.nextWide(r + 1, extent)) {
      this.visited++;
      const run = this.runs[r]!;
      const { lo, hi } = run;
      const below = alignBase(prep, item, r === 0 ? 0 : this.lastHi(r - 1));
      if (lo[0]! >= below + extent) {
        this.hintRun = r === 0 ? 0 : r - 1; // the block goes after the previous run's last
        return below;
      }
      if (run.widestGap() < extent) continue;
      for (let k = 1; k < run.size; k++) {
        if (lo[k]! - hi[k - 1]! < extent) continue;
        const base = alignBase(prep, item, hi[k - 1]!);
        if (lo[k]! >= base + extent) {
          this.hintRun = r;
          return base;
        }
      }
    }
    return top;
  }

  /** Tightest fit: every run wide enough is read, keeping the smallest slack (the lowest base on ties). */
  private tightestGap(prep: PreparedRegion, item: number, extent: number, top: number): number {
    this.bestSlack = Infinity;
    this.bestBase = NaN;
    const slop = prep.itemModulus[item]! - 1; // alignment shrinks a gap by at most this
    for (let r = this.nextWide(0, extent); r >= 0; r = this.nextWide(r + 1, extent)) {
      this.visited++;
      const run = this.runs[r]!;
      const below = alignBase(prep, item, r === 0 ? 0 : this.lastHi(r - 1));
      if (run.lo[0]! >= below + extent) this.consider(below, run.lo[0]! - below, r === 0 ? 0 : r - 1);
      for (let j = run.firstGapAtLeast(extent); j < run.gaps; j++) {
        const raw = run.gapWidth[j]!;
        if (raw > this.bestSlack + slop) break; // cannot beat the best once aligned; nor can any wider gap
        const above = run.gapAbove[j]!;
        const base = alignBase(prep, item, above - raw);
        if (above >= base + extent) this.consider(base, above - base, r);
      }
      if (this.bestSlack === extent) break; // nothing fits tighter, and runs further up lie higher
    }
    if (this.bestBase !== this.bestBase) this.hintRun = this.runs.length - 1;
    return this.bestBase === this.bestBase ? this.bestBase : top;
  }

  /** Keeps the gap at `base` of `slack` bytes, whose block would go into run `r`, when it beats the best so far. */
  private consider(base: number, slack: number, r: number): void {
    if (slack < this.bestSlack || (slack === this.bestSlack && base < this.bestBase)) {
      this.bestSlack = slack;
      this.bestBase = base;
      this.hintRun = r;
    }
  }

  /** The first run at or after `from` whose width reaches `extent`, or -1. */
  private nextWide(from: number, extent: number): number {
    const { width, leaves } = this;
    if (from >= this.runs.length) return -1;
    let node = from + leaves;
    if (width[node]! >= extent) return from;
    // climb until a right sibling holds a wide enough run, then descend to its leftmost such leaf
    for (;;) {
      if (node === 1) return -1;
      if ((node & 1) === 0 && width[node + 1]! >= extent) {
        node++;
        break;
      }
      node >>= 1;
    }
    while (node < leaves) node = width[2 * node]! >= extent ? 2 * node : 2 * node + 1;
    return node - leaves;
  }

  /** Sets run r's leaf from its width and updates its ancestors. */
  private refresh(r: number): void {
    if (r >= this.runs.length) return;
    const { width } = this;
    let node = r + this.leaves;
    width[node] = this.runWidth(r);
    for (node >>= 1; node >= 1; node >>= 1) {
      const m = Math.max(width[2 * node]!, width[2 * node + 1]!);
      if (width[node] === m) break;
      width[node] = m;
    }
  }

  private rebuild(): void {
    const count = this.runs.length;
    let leaves = 1;
    while (leaves < count) leaves *= 2;
    if (leaves !== this.leaves) {
      this.leaves = leaves;
      this.width = new Float64Array(2 * leaves);
    }
    const { width } = this;
    width.fill(-1);
    for (let r = 0; r < count; r++) {
      this.runs[r]!.index = r;
      width[leaves + r] = this.runWidth(r);
    }
    for (let node = leaves - 1; node >= 1; node--) width[node] = Math.max(width[2 * node]!, width[2 * node + 1]!);
  }

  /** The widest gap of run r: below its first block, or inside it. */
  private runWidth(r: number): number {
    const run = this.runs[r]!;
    return Math.max(run.widestGap(), run.lo[0]! - (r === 0 ? 0 : this.lastHi(r - 1)));
  }

  private lastHi(r: number): number {
    const run = this.runs[r]!;
    return run.hi[run.size - 1]!;
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

/**
 * The items of a sweep in the order they end (`byEnd`, sorted by `itemEnd`,
 * which a backward sweep mirrors), taken out of the live blocks as the sweep
 * passes their end.
 */
export class Departures {
  private next = 0; // the first item of byEnd still live

  constructor(
    private readonly byEnd: ArrayLike<number>,
    private readonly itemEnd: ArrayLike<number>,
    private readonly itemExtent: ArrayLike<number>,
    private readonly offsets: Float64Array,
  ) {}

  /** Removes from `live` every item not yet removed that ends at or before `step`. */
  releaseUpTo(step: number, live: LiveBlocks): void {
    const { byEnd, itemEnd, itemExtent, offsets } = this;
    while (this.next < byEnd.length && itemEnd[byEnd[this.next]!]! <= step) {
      const gone = byEnd[this.next++]!;
      if (itemExtent[gone]! > 0) live.remove(offsets[gone]!, gone);
    }
  }
}
