// Pure helpers of the comparison view: one address scale for both heap
// diagrams (each region's axis spans the larger of A's and B's extents), the
// buffers a cause or a buffer change points at on each side and the region
// that holds them, and byte deltas as text.

import type { BufferChange, Cause, PlanDiff } from '../../planner/diff/diff-plans';
import type { CauseKind } from '../../planner/diff/diff-types';
import { formatSignedBytes } from '../../shared/format';
import type { ModelPlan } from '../../planner/plan';
import type { HeapData, HeapLane } from '../heap/heap-data';
import type { CompareFocus } from '../../store/compare-store';

/** `a` and `b` with every lane of a region present in both spanning the same bytes. */
export function sharedScale(a: HeapData, b: HeapData): [HeapData, HeapData] {
  const extents = laneExtents([a, b]);
  return [widenLanes(a, extents), widenLanes(b, extents)];
}

/** The bytes each region's axis spans: the largest extent of its lanes in `data`. */
export function laneExtents(data: readonly HeapData[]): ReadonlyMap<string, number> {
  const extents = new Map<string, number>();
  for (const lane of data.flatMap((d) => d.lanes)) extents.set(lane.name, Math.max(extents.get(lane.name) ?? 0, lane.extent));
  return extents;
}

/** `data` with each lane spanning at least its region's bytes in `extents` (a region drawn alone keeps the scale it has beside the other side). */
export function widenLanes(data: HeapData, extents: ReadonlyMap<string, number>): HeapData {
  return { ...data, lanes: data.lanes.map((lane): HeapLane => ({ ...lane, extent: Math.max(lane.extent, extents.get(lane.name) ?? 0) })) };
}

/** 1 for each buffer of `data` whose name is in `names`; undefined when `names` is undefined. */
export function highlightOf(data: HeapData, names: readonly string[] | undefined): Uint8Array | undefined {
  if (names === undefined) return undefined;
  const wanted = new Set(names);
  const out = new Uint8Array(data.count);
  data.plan.buffers.forEach((b, i) => {
    if (wanted.has(b.name)) out[i] = 1;
  });
  return out;
}

/**
 * The region holding the most bytes of the buffers named (a cause's or a
 * changed buffer's), for a side that draws one region at a time to show
 * them; undefined when none is named or none is in the plan.
 */
export function focusedRegion(plan: ModelPlan, names: readonly string[] | undefined): string | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const wanted = new Set(names);
  const bytes = new Map<string, number>();
  for (const b of plan.buffers) if (wanted.has(b.name)) bytes.set(b.region, (bytes.get(b.region) ?? 0) + b.size);
  return [...bytes].sort((x, y) => y[1] - x[1])[0]?.[0];
}

/**
 * A cause's kind as the comparison labels it, in words that say which side
 * did what: `fusion-added` is a fusion unit of B taking tensors off the
 * region, `fusion-undone` one of A that B lacks.
 */
export const CAUSE_LABELS: Readonly<Record<CauseKind, string>> = {
  'dim-changed': 'dim changed',
  'input-changed': 'input changed',
  'tensor-grew': 'tensor grew',
  'tensor-shrunk': 'tensor shrank',
  'alignment-changed': 'alignment padding',
  'new-buffer-at-peak': 'new at the peak',
  'buffer-gone': 'gone from the peak',
  'fusion-added': 'fused in B',
  'fusion-undone': 'fusion of A undone',
  'region-moved': 'region moved',
  'peak-moved': 'peak moved',
  'lifetime-changed': 'lifetime changed',
  'size-unknown': 'size unknown',
  'placement-worse': 'placement worse',
  'placement-better': 'placement better',
  'strategy-changed': 'strategy changed',
  'target-changed': 'target changed',
  'models-differ': 'different models',
};

/** What a cause points at: its buffers on each side (a matched B name brings its A name) and its nodes. */
export function causeFocus(diff: PlanDiff, cause: Cause): CompareFocus {
  const named = new Set(cause.buffers);
  const buffersA = new Set<string>();
  const buffersB = new Set<string>();
  for (const change of diff.buffers) {
    if ((change.nameB !== undefined && named.has(change.nameB)) || (change.nameA !== undefined && named.has(change.nameA))) {
      if (change.nameA !== undefined) buffersA.add(change.nameA);
      if (change.nameB !== undefined) buffersB.add(change.nameB);
    }
  }
  return { label: cause.summary, buffersA: [...buffersA], buffersB: [...buffersB], nodes: cause.nodes };
}

/** What a buffer change points at. */
export function changeFocus(change: BufferChange): CompareFocus {
  const name = change.nameB ?? change.nameA ?? '';
  return {
    label: `${name}: ${change.status}`,
    buffersA: change.nameA === undefined ? [] : [change.nameA],
    buffersB: change.nameB === undefined ? [] : [change.nameB],
    nodes: change.node === undefined ? [] : [change.node],
  };
}

/**
 * The colour of B − A's peak change: 'diff-up' (worse) when B is larger,
 * 'diff-down' (better) when smaller, none when equal, and none either when
 * the side that is smaller is the one over its limits while the other fits:
 * a plan that does not fit is not an improvement however low its peak.
 */
export function deltaTone(delta: number, fitsA: boolean, fitsB: boolean): '' | 'diff-up' | 'diff-down' {
  if (delta > 0) return fitsB && !fitsA ? '' : 'diff-up';
  if (delta < 0) return fitsA && !fitsB ? '' : 'diff-down';
  return '';
}

/** A signed byte count: "+1.50 MiB", "−300 KiB", "0 B". */
export function signedBytes(delta: number): string {
  return delta === 0 ? '0 B' : formatSignedBytes(delta);
}

/**
 * The size change of a buffer change in bytes (B minus A; a new buffer counts
 * its size, a gone one minus its size); a scratch buffer given free space
 * counts what it asks.
 */
export function sizeDelta(change: BufferChange): number {
  return (change.requestedB ?? change.sizeB ?? 0) - (change.requestedA ?? change.sizeA ?? 0);
}
