// diffPlans: why plan B is bigger (or smaller) than plan A. Matches buffers
// (match-buffers.ts), marks each grown, shrunk, new, gone, moved, moved off or
// on chip (tiled by a fusion unit on one side only) or same, and
// splits the peak delta into causes ranked by bytes (peak-causes.ts); when
// both plans give bytes moved, ranks the buffers that changed region by the
// bytes they move (moved-bytes.ts).
// Depends only on the planner's plan and plan file types.
//
// The causes account for the delta exactly: per region, peak = bytes the live
// buffers cover at the peak step + the holes and padding under the peak there;
// every byte of the covered change is put down to one buffer's cause, and the
// holes-and-padding change to placement (or to the strategy or target when
// they differ). A plan's peak is the sum of its region peaks, so the causes
// sum to the delta.

import { assert } from '../../shared/assert';
import type { ModelPlan, PlannedBuffer } from '../plan-types';
import type { PlanFile } from '../assembly/plan-file';
import { planRefused } from '../assembly/assumptions';
import { changedDims, dimScalings } from './dim-growth';
import { withFollows } from './dim-follows';
import type { BufferChange, BufferStatus, PlanDiff, RegionDelta } from './diff-types';
import { matchBuffers, type BufferMatch } from './match-buffers';
import { modelsDifferCauses, toCause } from './cause-words';
import { matchModels } from './model-match';
import { causeCounts, peakCauses } from './peak-causes';
import { pairStatusOf } from './pair-status';
import { movedDiff } from './moved-bytes';
import { moveKindOf } from './move-kind';
import { inputChanges } from './input-changes';
import { arenaFigures, runtimeDelta } from './runtime-delta';
import { heldBytes } from '../assembly/plan-records';

export type { BufferChange, BufferStatus, Cause, CauseKind, DimChange, InputChange, PlanDiff, RegionDelta } from './diff-types';
export type { BufferMove, MovedDiff, RegionMovedDelta } from './moved-bytes';
export type { RuntimeArenaFigures, RuntimeDelta } from './runtime-delta';

/** Compares plan A with plan B; see the module header. */
export function diffPlans(a: PlanFile, b: PlanFile): PlanDiff {
  const models = matchModels(a, b);
  const match = matchBuffers(a, b, !models.same);
  const dims = withFollows(changedDims(a.settings.dims, b.settings.dims), a, b);
  const inputs = inputChanges(a, b);
  const { drafts, states } = peakCauses({ a, b, match, dims, inputs, scalings: dimScalings(dims) });
  const regions = regionDeltas(a, b);
  const delta = b.plan.peak - a.plan.peak;
  const explained = regions.reduce((s, r) => s + r.delta, 0);
  const buffers = bufferChanges(a, b, match);
  const resized = resizedMoves(buffers);
  const causes = !models.same
    ? modelsDifferCauses(a, b, regions, models.sharedNames)
    : [...drafts.values()]
        .filter(causeCounts)
        .map((d) => toCause(d, { a, b, dims, inputs, states, resized }))
        .sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes) || x.summary.localeCompare(y.summary));
  assert(causes.reduce((s, c) => s + c.bytes, 0) === explained, 'the causes sum to the region peak deltas');
  const moved = movedDiff(a, b, match);
  const runtime = runtimeDelta(a.plan, b.plan);
  // one side alone a TFLM plan: its arena all the same (a budget on b judges it), the other side declaring none
  const [runtimeA, runtimeB] = runtime === undefined ? [arenaFigures(a.plan), arenaFigures(b.plan)] : [undefined, undefined];
  return {
    peakA: a.plan.peak,
    peakB: b.plan.peak,
    delta,
    completeA: a.plan.complete,
    completeB: b.plan.complete,
    // a plan's own verdict too: a model TensorFlow Lite Micro refuses fits no limited arena, whatever its regions' figures
    fitsA: regions.every((r) => r.overByA === 0) && a.plan.fits !== false,
    fitsB: regions.every((r) => r.overByB === 0) && b.plan.fits !== false,
    // read from each side's own plan, not from `runtime`, which exists only when both sides are TFLM plans
    ...(planRefused(a.plan) && { refusedA: true as const }),
    ...(planRefused(b.plan) && { refusedB: true as const }),
    ...pastLimitOf(a.plan, 'pastLimitA'),
    ...pastLimitOf(b.plan, 'pastLimitB'),
    regions,
    dims,
    ...(inputs.length > 0 && { inputs }),
    strategyA: a.plan.strategy,
    strategyB: b.plan.strategy,
    targetA: a.settings.target,
    targetB: b.settings.target,
    buffers,
    ...(!models.same && { modelsDiffer: true as const }),
    causes,
    ...(moved !== undefined && { moved }),
    ...(runtime !== undefined && { runtime }),
    ...(runtimeA !== undefined && { runtimeA }),
    ...(runtimeB !== undefined && { runtimeB }),
  };
}

function regionDeltas(a: PlanFile, b: PlanFile): RegionDelta[] {
  const names = [...new Set([...a.plan.regions.map((r) => r.name), ...b.plan.regions.map((r) => r.name)])];
  return names.map((name) => {
    const regionA = a.plan.regions.find((r) => r.name === name);
    const regionB = b.plan.regions.find((r) => r.name === name);
    const [peakA, peakB] = [regionA?.peak ?? 0, regionB?.peak ?? 0];
    return {
      name,
      peakA,
      peakB,
      delta: peakB - peakA,
      ...(regionA?.sizeLimit !== undefined && { sizeLimitA: regionA.sizeLimit }),
      ...(regionB?.sizeLimit !== undefined && { sizeLimitB: regionB.sizeLimit }),
      overByA: overBy(regionA),
      overByB: overBy(regionB),
    };
  });
}

/** Bytes a region holds beyond its limit: the plan's own figure, else (a plan file saved before it had one) what it holds less the limit. */
function overBy(region: PlanFile['plan']['regions'][number] | undefined): number {
  if (region === undefined) return 0;
  if (typeof region.overBy === 'number') return region.overBy;
  return region.sizeLimit === undefined ? 0 : Math.max(0, (region.used ?? region.peak) - region.sizeLimit);
}

/**
 * Of the matched buffers that changed region, those whose size changed too
 * (listed as grown, shrunk or unknown, not as moved), by `from>to` and status.
 */
function resizedMoves(buffers: readonly BufferChange[]): Map<string, Map<BufferStatus, number>> {
  const out = new Map<string, Map<BufferStatus, number>>();
  for (const c of buffers) {
    if (c.regionA === undefined || c.regionB === undefined || c.regionA === c.regionB) continue;
    if (c.status !== 'grown' && c.status !== 'shrunk' && c.status !== 'unknown') continue;
    const key = `${c.regionA}>${c.regionB}`;
    const counts = out.get(key) ?? new Map<BufferStatus, number>();
    counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    out.set(key, counts);
  }
  return out;
}

/** Every buffer of A and B: matched pairs in B's order, then A's unmatched buffers. */
function bufferChanges(a: PlanFile, b: PlanFile, match: BufferMatch): BufferChange[] {
  const pairStatus = pairStatusOf(a, b);
  const out: BufferChange[] = b.plan.buffers.map((bufB, j) => {
    const i = match.bToA[j];
    const bufA = i === undefined ? undefined : a.plan.buffers[i];
    const sideB = { nameB: bufB.name, idB: bufB.id, sizeB: bufB.size, ...requested('B', bufB), offsetB: bufB.offset, regionB: bufB.region };
    const node = bufB.node ?? bufA?.node;
    if (bufA === undefined) return { status: 'new', ...sideB, ...(node !== undefined && { node }) };
    const sideA = { nameA: bufA.name, idA: bufA.id, sizeA: bufA.size, ...requested('A', bufA), offsetA: bufA.offset, regionA: bufA.region };
    const matchedBy = match.byProducer.has(j) ? 'producer' : 'name';
    const status = pairStatus(bufA, bufB);
    const move = moveKindOf({ status, regionA: bufA.region, regionB: bufB.region });
    return { status, ...sideA, ...sideB, ...(node !== undefined && { node }), matchedBy, ...(move !== undefined && { move }) };
  });
  a.plan.buffers.forEach((bufA, i) => {
    if (match.aToB[i] !== undefined) return;
    out.push({ status: 'gone', nameA: bufA.name, idA: bufA.id, sizeA: bufA.size, ...requested('A', bufA), offsetA: bufA.offset, regionA: bufA.region, ...(bufA.node !== undefined && { node: bufA.node }) });
  });
  return out;
}

/** `requestedA` or `requestedB` of a variable-size scratch buffer given more free space than it asks; nothing for any other. */
function requested(side: 'A' | 'B', buffer: PlannedBuffer): { requestedA?: number; requestedB?: number } {
  const held = heldBytes(buffer);
  return held === buffer.size ? {} : { [`requested${side}`]: held };
}

/** `{ [key]: tensor }` naming the plan's first tensor known to need more than 2^53 − 1 bytes, or nothing. */
function pastLimitOf<K extends 'pastLimitA' | 'pastLimitB'>(plan: ModelPlan, key: K): Partial<Record<K, string>> {
  const first = (plan.assumptions?.unknown ?? []).find((u) => u.pastLimit === true);
  return first === undefined ? {} : ({ [key]: first.tensor } as Partial<Record<K, string>>);
}
