// What each buffer contributes to a region's occupied bytes at one step: the
// union of the live buffers' address ranges, with bytes shared by an alias
// and its parent counted once (for the parent). A variable-size scratch
// buffer (M4) holds the bytes its rule asks for; the rest of what it was
// given is free space it took, part of the gap like any hole (a plan with
// more free space gives it more, and that is the placement's doing, not the
// tensor's). Depends only on plan types.

import type { ModelPlan, PlannedBuffer } from '../plan-types';
import { heldBytes } from '../assembly/plan-records';

/** A region at its peak step: occupied bytes per buffer and the rest of the peak. */
export interface RegionAtPeak {
  readonly name: string;
  readonly peak: number;
  readonly step: number | undefined;
  readonly occupied: number; // bytes covered by live buffers at `step`
  readonly gap: number; // peak - occupied: holes and padding under the peak at `step`
  readonly contributions: ReadonlyMap<number, number>; // buffer index -> bytes it alone covers there
}

/** Every region of `plan` at its peak step (the explanation's, else the busiest step). */
export function regionsAtPeak(plan: ModelPlan): Map<string, RegionAtPeak> {
  const out = new Map<string, RegionAtPeak>();
  for (const region of plan.regions) {
    const members = plan.buffers.map((b, i) => [b, i] as const).filter(([b]) => b.region === region.name);
    const step = region.peakStep ?? busiestStep(members.map(([b]) => b));
    const contributions = step === undefined ? new Map<number, number>() : contributionsAt(members, step);
    const occupied = [...contributions.values()].reduce((s, c) => s + c, 0);
    out.set(region.name, { name: region.name, peak: region.peak, step, occupied, gap: region.peak - occupied, contributions });
  }
  return out;
}

/** Bytes each buffer live at `step` covers that no buffer before it covers; parents before aliases. */
function contributionsAt(members: readonly (readonly [PlannedBuffer, number])[], step: number): Map<number, number> {
  const live = members.filter(([b]) => b.start <= step && step < b.end && b.size > 0);
  live.sort(([x], [y]) => Number(x.alias !== undefined) - Number(y.alias !== undefined) || x.id - y.id);
  const covered: [number, number][] = []; // disjoint, sorted [lo, hi)
  const out = new Map<number, number>();
  for (const [b, i] of live) {
    const added = cover(covered, b.offset, b.offset + heldBytes(b));
    if (added > 0) out.set(i, added);
  }
  return out;
}

/** Adds [lo, hi) to the disjoint sorted intervals; returns the bytes newly covered. */
function cover(intervals: [number, number][], lo: number, hi: number): number {
  let added = hi - lo;
  let newLo = lo;
  let newHi = hi;
  const kept: [number, number][] = [];
  for (const [x, y] of intervals) {
    if (y < lo || x > hi) {
      kept.push([x, y]);
      continue;
    }
    added -= Math.max(0, Math.min(y, hi) - Math.max(x, lo));
    newLo = Math.min(newLo, x);
    newHi = Math.max(newHi, y);
  }
  kept.push([newLo, newHi]);
  kept.sort((p, q) => p[0] - q[0]);
  intervals.splice(0, intervals.length, ...kept);
  return added;
}

/** The step where the union of live buffers covers the most bytes (ties: earliest). */
function busiestStep(buffers: readonly PlannedBuffer[]): number | undefined {
  let best: number | undefined;
  let bestBytes = -1;
  const starts = [...new Set(buffers.map((b) => b.start))].sort((x, y) => x - y);
  for (const step of starts) {
    const covered: [number, number][] = [];
    let bytes = 0;
    for (const b of buffers) if (b.start <= step && step < b.end && b.size > 0) bytes += cover(covered, b.offset, b.offset + heldBytes(b));
    if (bytes > bestBytes) {
      bestBytes = bytes;
      best = step;
    }
  }
  return best;
}
