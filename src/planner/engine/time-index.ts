// A time index over the rectangles of a prepared region: which active
// rectangles are live somewhere in a step range. Memory is linear in the
// number of rectangles; no pair of rectangles is ever stored. Depends only on
// the engine's prepared form.
//
// - Rectangles are ranked by start step once. A max-tree over the ranks holds
//   each active rectangle's end step (and -Infinity for an inactive one).
// - A rectangle [s', e') meets the range [s, e) exactly when s' < e and
//   e' > s: the ranks with s' < e are a prefix, and the tree finds the leaves
//   of that prefix whose end exceeds s by descending only into subtrees whose
//   maximum does. A query costs O((k + 1) log n) for k rectangles found.
// - Activating or deactivating a rectangle updates one leaf and its ancestors.

import { countBelow } from '../../shared/sorted-search';
import type { PreparedRegion } from './prepared';
import { countWork } from './work-clock';

/** Subtrees of at most this many leaves are scanned leaf by leaf instead of descended. */
const LEAF_SCAN = 16;
/** Work of a query (engine/work-clock.ts), with what its caller does per query (a greedy placement sorts and walks the gaps), and per rectangle found. */
const QUERY_WORK = 1300;
const FOUND_WORK = 35;

/** Active rectangles of one region, indexed by lifetime. */
export class TimeIndex {
  private readonly leaves: number; // a power of two >= rectCount
  private readonly max: Float64Array; // node -> largest end step below it
  private readonly rankOf: Int32Array; // rect -> leaf position
  private readonly rectAt: Int32Array; // leaf position -> rect
  private readonly startAt: Float64Array; // leaf position -> start step, ascending
  private readonly stack: Int32Array;
  /** Leaves visited by queries so far: a machine-independent effort measure. */
  visited = 0;

  constructor(readonly prep: PreparedRegion) {
    const n = prep.rectCount;
    let leaves = 1;
    while (leaves < n) leaves *= 2;
    this.leaves = leaves;
    this.max = new Float64Array(2 * leaves).fill(-Infinity);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => prep.rectStart[a]! - prep.rectStart[b]! || a - b);
    this.rectAt = Int32Array.from(order);
    this.rankOf = new Int32Array(n);
    this.startAt = new Float64Array(n);
    order.forEach((r, rank) => {
      this.rankOf[r] = rank;
      this.startAt[rank] = prep.rectStart[r]!;
    });
    this.stack = new Int32Array(4 * 66);
  }

  /** Deactivates every rectangle. */
  clear(): void {
    this.max.fill(-Infinity);
  }

  /** Activates rectangle `r` (a no-op for zero-size rectangles, which conflict with nothing). */
  activate(r: number): void {
    if (this.prep.rectSize[r] === 0) return;
    this.update(this.rankOf[r]!, this.prep.rectEnd[r]!);
  }

  /** Deactivates rectangle `r`. */
  deactivate(r: number): void {
    this.update(this.rankOf[r]!, -Infinity);
  }

  /** Activates exactly the rectangles `active(r)` holds for, in O(n). */
  rebuild(active: (r: number) => boolean): void {
    const { leaves, max, prep } = this;
    max.fill(-Infinity);
    for (let rank = 0; rank < this.rectAt.length; rank++) {
      const r = this.rectAt[rank]!;
      if (prep.rectSize[r]! > 0 && active(r)) max[leaves + rank] = prep.rectEnd[r]!;
    }
    for (let node = leaves - 1; node >= 1; node--) max[node] = Math.max(max[2 * node]!, max[2 * node + 1]!);
  }

  /**
   * Writes the active rectangles live somewhere in [start, end) into `out`
   * from position `at`; returns the position after the last one written.
   * `out` must have room (see `activeCountBound`).
   */
  collect(start: number, end: number, out: Int32Array, at: number): number {
    const { max, stack, leaves, rectAt } = this;
    countWork(QUERY_WORK);
    const limit = countBelow(this.startAt, end); // ranks below it start before `end`
    if (limit === 0 || max[1]! <= start) return at;
    const first = at;
    let top = 0;
    stack[top++] = 1;
    stack[top++] = 0;
    const leafDepth = 31 - Math.clz32(leaves);
    // iterative descent; each stack entry is (node, first leaf), the width follows from the node's depth
    while (top > 0) {
      const lo = stack[--top]!;
      const node = stack[--top]!;
      const width = 1 << (leafDepth - (31 - Math.clz32(node)));
      if (lo >= limit || max[node]! <= start) continue;
      if (width <= LEAF_SCAN) {
        // the last levels by a plain scan of the leaves: on crowded traces most of them qualify
        const last = Math.min(lo + width, limit);
        for (let r = lo; r < last; r++) {
          if (max[leaves + r]! > start) {
            out[at++] = rectAt[r]!;
            this.visited++;
          }
        }
        continue;
      }
      const half = width >>> 1;
      stack[top++] = 2 * node + 1;
      stack[top++] = lo + half;
      stack[top++] = 2 * node;
      stack[top++] = lo;
    }
    countWork(FOUND_WORK * (at - first));
    return at;
  }

  private update(rank: number, value: number): void {
    const { max } = this;
    let node = rank + this.leaves;
    max[node] = value;
    for (node >>= 1; node >= 1; node >>= 1) {
      const m = Math.max(max[2 * node]!, max[2 * node + 1]!);
      if (max[node] === m) break;
      max[node] = m;
    }
  }
}
