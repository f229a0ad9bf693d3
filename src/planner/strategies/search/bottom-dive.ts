// The dive from the bottom: MiniMalloc's first path (minimalloc-search.ts)
// without its checks or backtracking, for regions of any size. Depends only
// on the planner engine.
//
// - Every unplaced buffer has a minimum offset: the highest top of the placed
//   buffers live with it. The dive places, again and again, the unplaced
//   buffer with the lowest minimum offset (on ties the largest, or the one
//   of most bytes × steps, then the lowest index) right there, and raises
//   the minimum offsets of the unplaced buffers live with it to its top.
//   Which tie-break places a trace at its bound varies (Tiny-BERT: by size;
//   a training-like trace of 3,000 buffers: by area only), so the probe runs
//   both.
// - So offsets never go down along the dive, and every buffer rests on 0 or
//   on a buffer placed before it: a canonical placement, as the search's.
//   Real traces it often places at their lower bound (MindSpore's Tiny-BERT,
//   training-like traces of thousands of buffers), which proves them optimal.
// - No pair of buffers is stored: the unplaced buffers live with the one
//   placed come from a time index (engine/time-index.ts), and the lowest
//   minimum offset from a heap indexed by buffer, so memory stays linear and
//   the time is that of walking every conflict once.
// - Handles items of one rectangle with alignment 1 and no fixed offset
//   (where `skylineApplies`).

import type { PreparedRegion } from '../../engine/prepared';
import { TimeIndex } from '../../engine/time-index';

/** What breaks ties between equal minimum offsets: the larger first, or the larger bytes × steps first. */
export type DiveTie = 'size' | 'area';

/** Offsets of `items` (by region item; NaN for the others) from the dive. */
export function bottomDive(prep: PreparedRegion, items: readonly number[], tie: DiveTie): Float64Array {
  const { itemExtent, itemRectStart, rectItem, rectStart, rectEnd } = prep;
  const offsets = new Float64Array(prep.itemCount).fill(NaN);
  const member = new Uint8Array(prep.itemCount);
  for (const i of items) member[i] = 1;
  const index = new TimeIndex(prep);
  index.rebuild((r) => member[rectItem[r]!] === 1);
  const priority = tie === 'size' ? itemExtent : prep.itemExtent.map((size, i) => size * (prep.itemEnd[i]! - prep.itemStart[i]!));
  const heap = new LowestFirst(prep.itemCount, items, priority);
  const found = new Int32Array(prep.rectCount);
  for (let k = heap.pop(); k >= 0; k = heap.pop()) {
    const at = heap.minOffset[k]!;
    offsets[k] = at;
    const rect = itemRectStart[k]!;
    index.deactivate(rect);
    const top = at + itemExtent[k]!;
    const count = index.collect(rectStart[rect]!, rectEnd[rect]!, found, 0);
    for (let f = 0; f < count; f++) heap.raise(rectItem[found[f]!]!, top);
  }
  return offsets;
}

/** The unplaced items in a binary heap by (minimum offset, higher priority first, index), positions kept per item so a raise moves one entry. */
class LowestFirst {
  readonly minOffset: Float64Array; // per region item
  private readonly heap: Int32Array; // items
  private readonly at: Int32Array; // per region item: its place in `heap`, -1 once popped
  private size: number;

  constructor(
    itemCount: number,
    items: readonly number[],
    private readonly priority: Float64Array, // per region item
  ) {
    this.minOffset = new Float64Array(itemCount);
    this.at = new Int32Array(itemCount).fill(-1);
    // all minimum offsets start at 0: sorted by the rest of the key, the list is a heap already
    this.heap = Int32Array.from(items).sort((a, b) => priority[b]! - priority[a]! || a - b);
    this.size = this.heap.length;
    this.heap.forEach((k, p) => (this.at[k] = p));
  }

  /** The item with the lowest minimum offset, taken out of the heap; -1 when none is left. */
  pop(): number {
    if (this.size === 0) return -1;
    const { heap, at } = this;
    const first = heap[0]!;
    at[first] = -1;
    this.size--;
    if (this.size > 0) {
      heap[0] = heap[this.size]!;
      at[heap[0]!] = 0;
      this.siftDown(0);
    }
    return first;
  }

  /** Raises k's minimum offset to `top` when k is still in the heap and below it. */
  raise(k: number, top: number): void {
    const p = this.at[k]!;
    if (p < 0 || this.minOffset[k]! >= top) return;
    this.minOffset[k] = top;
    this.siftDown(p);
  }

  private before(a: number, b: number): boolean {
    const { minOffset, priority } = this;
    return minOffset[a]! < minOffset[b]! || (minOffset[a] === minOffset[b] && (priority[a]! > priority[b]! || (priority[a] === priority[b] && a < b)));
  }

  private siftDown(p: number): void {
    const { heap, at, size } = this;
    const k = heap[p]!;
    for (;;) {
      const left = 2 * p + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[child]!, k)) break;
      heap[p] = heap[child]!;
      at[heap[p]!] = p;
      p = child;
    }
    heap[p] = k;
    at[k] = p;
  }
}
