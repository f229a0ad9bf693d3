// The data of the peak chart (small multiples): for each memory region, the
// bytes live at each step in total and per kind of buffer (activation,
// scratch, cache, copy), with the region's peak, lower bound and peak step.
// Buffers sharing another's bytes (aliases, concat windows) count once.
// Plain functions over a plan; no DOM.

import type { ModelPlan, PlannedBuffer } from '../../planner/plan';

/** The kinds the chart tells apart, in drawing order. */
export const CHART_KINDS = ['activation', 'scratch', 'cache', 'copy'] as const;
/** One kind of the chart. */
export type ChartKind = (typeof CHART_KINDS)[number];

/** Graph inputs and outputs and subgraph buffers are activations to the chart. */
const KIND_OF: Readonly<Record<PlannedBuffer['kind'], ChartKind>> = {
  activation: 'activation',
  input: 'activation',
  output: 'activation',
  subgraph: 'activation',
  scratch: 'scratch',
  cache: 'cache',
  copy: 'copy',
};

/** One region of the chart: a column of small multiples. */
export interface ChartRegion {
  readonly name: string;
  readonly peak: number; // bytes the region's plan spans
  readonly lowerBound: number; // bytes
  readonly sizeLimit: number | undefined;
  readonly peakStep: number | undefined; // the step where live bytes are highest
  readonly total: Float64Array; // bytes live at each step
  readonly byKind: Readonly<Record<ChartKind, Float64Array>>; // bytes live at each step, per kind
}

/** The whole chart. */
export interface PeakChartData {
  readonly steps: number; // the step axis spans [0, steps)
  readonly kinds: readonly ChartKind[]; // kinds that hold bytes somewhere, activation always
  readonly regions: readonly ChartRegion[];
}

/** Builds the chart's data for `plan`; regions without buffers or bytes are left out. */
export function peakChartData(plan: ModelPlan): PeakChartData {
  const steps = Math.max(1, plan.steps.length, ...plan.buffers.map((b) => Math.max(b.end, b.start + 1)));
  const names = plan.regions.map((r) => r.name);
  for (const b of plan.buffers) if (!names.includes(b.region)) names.push(b.region);
  const present = new Set<ChartKind>(['activation']);
  const regions: ChartRegion[] = [];
  const groups = sharingGroups(plan.buffers.filter((b) => b.size > 0));
  for (const name of names) {
    const members = groups.filter((g) => g[0]!.region === name);
    const region = plan.regions.find((r) => r.name === name);
    if (members.length === 0 && (region?.peak ?? 0) === 0) continue;
    const byKind = Object.fromEntries(CHART_KINDS.map((k) => [k, liveBytes(members.filter((g) => KIND_OF[g[0]!.kind] === k), steps)])) as Record<ChartKind, Float64Array>;
    for (const g of members) present.add(KIND_OF[g[0]!.kind]);
    const total = liveBytes(members, steps);
    regions.push({
      name,
      peak: region?.peak ?? Math.max(0, ...members.flat().map((b) => b.offset + b.size)),
      lowerBound: region?.lowerBound ?? 0,
      sizeLimit: region?.sizeLimit,
      peakStep: region?.peakStep ?? argMax(total),
      total,
      byKind,
    });
  }
  return { steps, kinds: CHART_KINDS.filter((k) => present.has(k)), regions };
}

/**
 * The buffers grouped by whose bytes they share: each group's first entry is
 * the root (the buffer no alias of which it is), then the buffers placed in
 * its bytes (alias chains followed to it). The root's kind is the group's.
 */
function sharingGroups(buffers: readonly PlannedBuffer[]): PlannedBuffer[][] {
  const byId = new Map(buffers.map((b) => [b.id, b]));
  const rootOf = (b: PlannedBuffer): PlannedBuffer => {
    let root = b;
    for (let hops = 0; root.alias !== undefined && byId.has(root.alias.parent) && hops < buffers.length; hops += 1) root = byId.get(root.alias.parent)!;
    return root;
  };
  const groups = new Map<number, PlannedBuffer[]>();
  for (const b of buffers) {
    const root = rootOf(b);
    if (!groups.has(root.id)) groups.set(root.id, [root]);
    if (b !== root) groups.get(root.id)!.push(b);
  }
  return [...groups.values()];
}

/**
 * Bytes live at each step of [0, steps) for `groups` (half-open lifetimes,
 * at least one step each). A group's bytes at a step are the union of the
 * address ranges of its members live then: shared bytes count once, for as
 * long as any member holds them (an in-place output can outlive its root).
 */
function liveBytes(groups: readonly PlannedBuffer[][], steps: number): Float64Array {
  const delta = new Float64Array(steps + 1);
  const live = new Float64Array(steps);
  const span = (b: PlannedBuffer): [number, number] => [b.start, Math.max(b.end, b.start + 1)];
  for (const group of groups) {
    if (group.length === 1) {
      const [start, end] = span(group[0]!);
      delta[start]! += group[0]!.size;
      delta[end]! -= group[0]!.size;
      continue;
    }
    const first = Math.min(...group.map((b) => span(b)[0]));
    const last = Math.min(steps, Math.max(...group.map((b) => span(b)[1])));
    for (let s = first; s < last; s += 1) live[s]! += unionLength(group.filter((b) => span(b)[0] <= s && span(b)[1] > s));
  }
  let running = 0;
  for (let s = 0; s < steps; s += 1) {
    running += delta[s]!;
    live[s]! += running;
  }
  return live;
}

/** Bytes covered by the address ranges [offset, offset + size) of `buffers`. */
function unionLength(buffers: readonly PlannedBuffer[]): number {
  const ranges = buffers.map((b) => [b.offset, b.offset + b.size] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [low, high] of ranges) {
    if (high <= reach) continue;
    total += high - Math.max(low, reach);
    reach = high;
  }
  return total;
}

/** The first step of the largest value, or undefined for no steps. */
function argMax(values: Float64Array): number | undefined {
  let best: number | undefined;
  for (let s = 0; s < values.length; s += 1) if (best === undefined || values[s]! > values[best]!) best = s;
  return best;
}

/**
 * At most `columns` points of `values` over [0, values.length): each the
 * largest value of its run of steps, so a narrow peak is never averaged away.
 */
export function bucketMax(values: Float64Array, columns: number): { step: number; bytes: number }[] {
  const n = values.length;
  const size = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(columns))));
  const out: { step: number; bytes: number }[] = [];
  for (let start = 0; start < n; start += size) {
    let bytes = 0;
    for (let s = start; s < Math.min(n, start + size); s += 1) bytes = Math.max(bytes, values[s]!);
    out.push({ step: start, bytes });
  }
  return out;
}
