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
  const roots = new Map<number, PlannedBuffer>(); // buffer id -> its root, once known
  const rootOf = (b: PlannedBuffer): PlannedBuffer => {
    const chain: PlannedBuffer[] = [];
    let root = b;
    while (!roots.has(root.id) && root.alias !== undefined && byId.has(root.alias.parent) && chain.length < buffers.length) {
      chain.push(root);
      root = byId.get(root.alias.parent)!;
    }
    root = roots.get(root.id) ?? root;
    for (const link of chain) roots.set(link.id, root); // a chain of in-place nodes is walked once
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
 * at least one step each). Shared bytes count once, for as long as any
 * member of the group holds them (an in-place output can outlive its root):
 * the group's address range is cut where a member starts or ends, and each
 * piece counts over the union of the lifetimes of the members covering it.
 */
function liveBytes(groups: readonly PlannedBuffer[][], steps: number): Float64Array {
  const delta = new Float64Array(steps + 1);
  const add = (bytes: number, start: number, end: number) => {
    delta[start]! += bytes;
    delta[end]! -= bytes;
  };
  for (const group of groups) {
    if (group.length === 1) add(group[0]!.size, ...lifetime(group[0]!));
    else addShared(group, add);
  }
  const live = new Float64Array(steps);
  let running = 0;
  for (let s = 0; s < steps; s += 1) {
    running += delta[s]!;
    live[s] = running;
  }
  return live;
}

/** [start, end) of `b`, at least one step. */
function lifetime(b: PlannedBuffer): [number, number] {
  return [b.start, Math.max(b.end, b.start + 1)];
}

/** Calls `add(bytes, start, end)` for each piece of a group's addresses and each run of steps some member covering it is live. */
function addShared(group: readonly PlannedBuffer[], add: (bytes: number, start: number, end: number) => void): void {
  const cuts = [...new Set(group.flatMap((b) => [b.offset, b.offset + b.size]))].sort((a, b) => a - b);
  for (let c = 0; c + 1 < cuts.length; c += 1) {
    const [low, high] = [cuts[c]!, cuts[c + 1]!];
    const spans = group.filter((b) => b.offset <= low && b.offset + b.size >= high).map(lifetime);
    spans.sort((a, b) => a[0] - b[0]);
    let run: [number, number] | undefined;
    for (const [start, end] of spans) {
      if (run !== undefined && start <= run[1]) run[1] = Math.max(run[1], end);
      else {
        if (run !== undefined) add(high - low, ...run);
        run = [start, end];
      }
    }
    if (run !== undefined) add(high - low, ...run);
  }
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
