// The data of the peak chart (small multiples): for each memory region, the
// bytes live at each step in total and per kind of buffer (liveKind in
// buffer-classes.ts: activation, graph I/O, KV cache, scratch, cache, copy),
// with the region's peak, lower bound and peak step, and its headroom: the largest free block at each step (free-blocks.ts).
// Buffers sharing another's bytes (aliases, concat windows) count once.
// Plain functions over a plan; no DOM.

import type { ModelPlan } from '../../planner/plan';
import { LIVE_KINDS, liveKind, type LiveKind } from './buffer-classes';
import { largestFreeBlocks } from './free-blocks';
import { laneLimit } from './lane-limit';
import { laneRegions } from './empty-regions';
import { liveBytes, sharingGroups } from './live-bytes';

/** The kinds the chart tells apart, in drawing order: the live kinds the memory map counts too. */
export const CHART_KINDS = LIVE_KINDS;
/** One kind of the chart. */
export type ChartKind = LiveKind;

/** One region of the chart: a column of small multiples. */
export interface ChartRegion {
  readonly name: string;
  readonly peak: number; // bytes the region's plan spans
  readonly lowerBound: number; // bytes
  readonly sizeLimit: number | undefined;
  readonly peakStep: number | undefined; // the step where live bytes are highest
  readonly total: Float64Array; // bytes live at each step
  readonly byKind: Readonly<Record<ChartKind, Float64Array>>; // bytes live at each step, per kind
  readonly capacity: number; // the bytes the size limit leaves the plan (lane-limit.ts), else the peak: what the largest free block is measured in
  readonly largestFree: Float64Array; // at each step, the largest block of [0, capacity) no live buffer holds
}

/** The whole chart. */
export interface PeakChartData {
  readonly steps: number; // the step axis spans [0, steps)
  readonly kinds: readonly ChartKind[]; // kinds that hold bytes somewhere, activation always
  readonly regions: readonly ChartRegion[];
  readonly complete: boolean; // false when some tensor's size is unknown: peaks and live bytes are lower estimates
}

/** Builds the chart's data for `plan`, the tensors named in `kv` as KV cache; the regions are those the heap draws a lane for. */
export function peakChartData(plan: ModelPlan, kv: ReadonlySet<string> = new Set()): PeakChartData {
  const steps = Math.max(1, plan.steps.length, ...plan.buffers.map((b) => Math.max(b.end, b.start + 1)));
  const present = new Set<ChartKind>(['activation']);
  const regions: ChartRegion[] = [];
  const shared = sharingGroups(plan.buffers);
  // the regions the heap draws a lane for (empty-regions.ts): a region of weights alone, over its limit or not, has its line instead
  for (const name of laneRegions(plan)) {
    const members = plan.buffers.filter((b) => b.region === name && b.size > 0);
    const region = plan.regions.find((r) => r.name === name);
    const byKind = Object.fromEntries(
      CHART_KINDS.map((k) => [k, liveBytes(shared, (root) => root.region === name && liveKind(root, kv) === k, steps)]),
    ) as Record<ChartKind, Float64Array>;
    if (members.length > 0) for (const g of shared.groups) if (g.root.region === name) present.add(liveKind(g.root, kv));
    const total = new Float64Array(steps); // every group is of one kind
    for (const k of CHART_KINDS) byKind[k].forEach((bytes, s) => (total[s]! += bytes));
    const peak = region?.peak ?? Math.max(0, ...members.map((b) => b.offset + b.size));
    // the bytes the limit leaves the plan (less weights at the region's base and a runtime's tail), as the heap's limit line
    const capacity = laneLimit(region)?.arena ?? peak;
    regions.push({
      name,
      peak,
      lowerBound: region?.lowerBound ?? 0,
      sizeLimit: region?.sizeLimit,
      peakStep: region?.peakStep ?? argMax(total),
      total,
      byKind,
      capacity,
      largestFree: largestFreeBlocks(members, capacity, steps),
    });
  }
  return { steps, kinds: CHART_KINDS.filter((k) => present.has(k)), regions, complete: plan.complete };
}

/** The first step of the largest value, or undefined for no steps. */
function argMax(values: Float64Array): number | undefined {
  let best: number | undefined;
  for (let s = 0; s < values.length; s += 1) if (best === undefined || values[s]! > values[best]!) best = s;
  return best;
}

/**
 * At most `columns` points of `values` over [0, values.length): each the
 * largest value of its run of steps (the smallest with `lowest`), so a narrow
 * peak (or dip) is never averaged away.
 */
export function bucketMax(values: Float64Array, columns: number, lowest = false): { step: number; bytes: number }[] {
  const n = values.length;
  const size = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(columns))));
  const out: { step: number; bytes: number }[] = [];
  for (let start = 0; start < n; start += size) {
    let bytes = lowest ? Number.POSITIVE_INFINITY : 0;
    for (let s = start; s < Math.min(n, start + size); s += 1) bytes = lowest ? Math.min(bytes, values[s]!) : Math.max(bytes, values[s]!);
    out.push({ step: start, bytes });
  }
  return out;
}
