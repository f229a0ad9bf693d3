// The conflict graph of a prepared region: for every rectangle, the rectangles
// of other items whose lifetimes overlap it. Built once by a sweep over start
// steps and shared by every placement run. Depends only on the prepared form.

import { InputError } from '../../shared/errors';
import type { PreparedRegion } from './prepared';

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
export function conflictGraph(prep: PreparedRegion): ConflictGraph {
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
