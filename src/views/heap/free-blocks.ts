// The headroom of a plan's region: at each step, the largest block of
// addresses no live buffer holds, below the region's capacity (its size limit,
// else the arena its plan spans) — the largest tensor that could still be
// placed there at that step without growing the arena. Buffers sharing
// another's bytes lie inside it and change nothing. Plain functions; no DOM.

/** What the headroom needs of a planned buffer. */
export interface PlacedSpan {
  readonly offset: number;
  readonly size: number;
  readonly start: number; // first step live
  readonly end: number; // first step no longer live
}

/**
 * The largest free block at each step of [0, steps) among `spans` in an arena
 * of `capacity` bytes. Keeps the live spans sorted by offset as they start and
 * end, and scans them once per step: O(steps × live) in all.
 */
export function largestFreeBlocks(spans: readonly PlacedSpan[], capacity: number, steps: number): Float64Array {
  const held = spans.filter((b) => b.size > 0 && b.end > b.start);
  const starts = held.map((_, i) => i).sort((a, b) => held[a]!.start - held[b]!.start);
  const live: PlacedSpan[] = []; // sorted by offset
  const out = new Float64Array(steps);
  let next = 0;
  for (let s = 0; s < steps; s += 1) {
    for (let i = live.length - 1; i >= 0; i -= 1) if (live[i]!.end <= s) live.splice(i, 1);
    while (next < starts.length && held[starts[next]!]!.start <= s) {
      const span = held[starts[next++]!]!;
      if (span.end > s) live.splice(insertionPoint(live, span.offset), 0, span);
    }
    out[s] = largestGap(live, capacity);
  }
  return out;
}

/** The first index of `live` whose offset is above `offset`. */
function insertionPoint(live: readonly PlacedSpan[], offset: number): number {
  let lo = 0;
  let hi = live.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (live[mid]!.offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The largest run of [0, capacity) that no span of `live` (sorted by offset, possibly nested) covers. */
function largestGap(live: readonly PlacedSpan[], capacity: number): number {
  let covered = 0; // every byte below this is held or already measured
  let largest = 0;
  for (const span of live) {
    if (span.offset >= capacity) break;
    if (span.offset > covered) largest = Math.max(largest, span.offset - covered);
    covered = Math.max(covered, span.offset + span.size);
  }
  return Math.max(largest, capacity - covered);
}
