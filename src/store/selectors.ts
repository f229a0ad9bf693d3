// Derived data for the views: the page status, the tensor table's rows (filtered
// and sorted), the model report and the summary published to window.heapscope;
// what reads a tensor's kind as the plan on screen has it is planned-selectors.ts.
// Every selector returns the same object while its inputs are unchanged.

import { pageSettings, type PageSettings } from './page-settings';
import type { InferredModel, ValueKind } from '../model/inferred';
import type { ModelFormat } from '../model/ir';
import { inspectReport, type InspectReport } from '../model/inspect-report';
import type { ModelPlan } from '../planner/plan';
import type { PlanFile } from '../planner/assembly/plan-file';
import { planLowerEstimate } from '../planner/assembly/assumptions';
import { kvCaches } from '../planner/problem/kv-cache';
import { formatShape } from '../shared/format';
import { selectAssumptionLines, type AssumptionLine } from './assumptions';
import { memoLast } from './memo';
import { fitVerdict, planFits, regionOverBy } from './fit-words';
import type { AppState, KindFilter, LoadStatus, TableSort } from './state';

/** One line of the tensor table. */
export interface TensorRow {
  readonly order: number; // position in the model's value list (first appearance)
  readonly name: string;
  readonly op: string; // the producing node's op type; '' for inputs and weights
  readonly kind: ValueKind;
  readonly dtype: string;
  readonly shape: string; // formatted, '?' when unknown
  readonly elements: number | undefined;
  readonly bytes: number | undefined;
  readonly note: string | undefined; // why the size is unknown, or that it is an upper bound
  readonly state: boolean; // kept across runs (a TensorFlow Lite variable tensor): read as an input, live for the whole run
  readonly kv: boolean; // a decoder's KV-cache input or output (planner/problem/kv-cache.ts), whose kind reads "input · KV cache"
  readonly haystack: string; // lower-case name, op and dtype, for the search
}

/** The plan summary published as window.heapscope.summary() (DESIGN.md). */
export interface PageSummary {
  readonly model: string | null; // file name of the model on screen
  readonly format: ModelFormat | null; // the format the model on screen was read as ('onnx' or 'tflite'); null without a model
  readonly nodes: number; // nodes of the main graph
  readonly buffers: number; // buffers of the plan on screen (0 without a plan)
  readonly peak: number | null; // bytes; null without a plan
  readonly lowerBound: number | null; // bytes; null without a plan
  readonly strategy: string | null; // the strategy of the plan on screen; null without a plan
  readonly target: string | null; // the target preset of the plan on screen; null without a plan
  readonly fusionUnits: number;
  readonly error: string | null; // the banner's message, if any
  readonly complete: boolean | null; // false when some run-time tensor's size is unknown (the peak is a lower estimate); null without a plan
  readonly fits: boolean | null; // every region within its size limit; null without a plan
  readonly lowerEstimate: boolean | null; // as plan --json's: the figures fits is judged on are lower estimates (a size or a TFLM kernel's scratch unknown), so it fits only as far as known; null without a plan
  readonly warnings: readonly string[]; // one short sentence per banner line: the "Does not fit" verdict first, then the assumptions banner
  readonly graph: GraphSummary;
  readonly settings: PageSettings | null; // what the plan on screen was made with; null without a model
  readonly regions: readonly RegionSummary[] | null; // the plan's memory map, as `plan --json` gives its regions; null without a plan
}

/** One region of the plan on screen, with the figures `plan --json` gives it. */
export interface RegionSummary {
  readonly name: string;
  readonly peak: number; // bytes
  readonly lowerBound: number; // bytes
  readonly sizeLimit: number | null; // null: no limit
  readonly overBy: number; // bytes above the limit; 0 within it
  readonly spilled: number | null; // bytes placed here that wanted a faster region; null when the target does not spill
  readonly weights: number; // bytes of weights set aside here
  readonly io: number; // bytes of graph inputs and outputs planned here (within peak)
  readonly used: number; // peak + weights
}

/** The graph view's progress (DESIGN.md): pending while laid out, drawn, simple (a fallback layout), none without a model. */
export interface GraphSummary {
  readonly status: 'pending' | 'drawn' | 'simple' | 'none';
  readonly boxes: number; // boxes drawn
  readonly ms: number | null; // from the plan on screen to its graph drawn
  readonly collapsed: readonly string[]; // ids of the groups collapsed now, sorted ('sc:/encoder', 'fu:tfu-0'); [] until the pane reports
}

/** Kinds of value that live in activation memory at run time. */
const RUNTIME_KINDS: ReadonlySet<ValueKind> = new Set(['input', 'output', 'activation']);

/** The page status: loading while a task runs, error while the banner shows, else ready or idle. */
export function selectStatus(state: AppState): LoadStatus {
  if (state.task !== undefined) return 'loading';
  if (state.error !== undefined) return 'error';
  return state.model !== undefined ? 'ready' : 'idle';
}

const rowCache = new WeakMap<InferredModel, readonly TensorRow[]>();

/** Every value of a model as a table row, in the model's order. */
export function tensorRows(model: InferredModel): readonly TensorRow[] {
  const cached = rowCache.get(model);
  if (cached) return cached;
  const persistent = new Set(model.persistent ?? []);
  const caches = kvCaches(model);
  const rows = model.values.map((v, order): TensorRow => {
    const producer = v.producer === undefined ? undefined : model.nodes[v.producer];
    const op = producer?.opType ?? '';
    const elements = v.shape?.reduce((a, b) => a * b, 1);
    const note = v.bytes === undefined ? (v.unknownReason ?? 'shape unknown') : v.upperBound ? 'upper bound: size depends on the data' : undefined;
    return { order, name: v.name, op, kind: v.kind, dtype: v.dtypeName, shape: formatShape(v.shape), elements, bytes: v.bytes, note, state: persistent.has(v.name), kv: caches.byPast.has(v.name) || caches.byPresent.has(v.name), haystack: `${v.name}\n${op}\n${producer?.name ?? ''}\n${v.dtypeName}`.toLowerCase() };
  });
  rowCache.set(model, rows);
  return rows;
}

/** Kinds of value each kind filter lets through. */
export const KIND_GROUPS: Readonly<Record<Exclude<KindFilter, 'all'>, ReadonlySet<ValueKind>>> = {
  runtime: RUNTIME_KINDS,
  weights: new Set(['initializer']),
  constants: new Set(['constant']),
};

/**
 * Keeps the rows of the filter's kinds whose name, op, producing node's name
 * or dtype contain every word of `query` (case-insensitive): a model whose
 * tensors are numbered ("252") is searched by its nodes ("Conv_4").
 */
export function filterRows(rows: readonly TensorRow[], query: string, kinds: KindFilter = 'all'): readonly TensorRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const group = kinds === 'all' ? undefined : KIND_GROUPS[kinds];
  if (words.length === 0 && group === undefined) return rows;
  return rows.filter((row) => (group === undefined || group.has(row.kind)) && words.every((w) => row.haystack.includes(w)));
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const KIND_ORDER: readonly ValueKind[] = ['input', 'activation', 'output', 'initializer', 'constant'];

type Compare = (a: TensorRow, b: TensorRow) => number;
// By the kind the cell reads: "input · KV cache" and "state" are groups of their own after the plain "input".
const kindCell = (row: TensorRow): number => (row.state ? 2 : row.kv ? 1 : 0);
const byKindText: Compare = (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || kindCell(a) - kindCell(b);
const COMPARE: Record<TableSort['column'], Compare> = {
  order: (a, b) => a.order - b.order,
  name: (a, b) => collator.compare(a.name, b.name),
  op: (a, b) => collator.compare(a.op, b.op),
  kind: byKindText,
  dtype: (a, b) => collator.compare(a.dtype, b.dtype),
  shape: (a, b) => (a.elements ?? 0) - (b.elements ?? 0) || collator.compare(a.shape, b.shape),
  bytes: (a, b) => (a.bytes ?? 0) - (b.bytes ?? 0),
};
/** Values whose sort key is unknown; they go last in either direction. */
const UNKNOWN_KEY: Partial<Record<TableSort['column'], (row: TensorRow) => boolean>> = {
  shape: (row) => row.elements === undefined,
  bytes: (row) => row.bytes === undefined,
  op: (row) => row.op === '',
};

/** Sorts rows by a column; ties keep the model's order, unknown keys go last. */
export function sortRows(rows: readonly TensorRow[], sort: TableSort): readonly TensorRow[] {
  const compare = COMPARE[sort.column];
  const unknown = UNKNOWN_KEY[sort.column];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const ua = unknown?.(a) ?? false;
    const ub = unknown?.(b) ?? false;
    if (ua !== ub) return ua ? 1 : -1;
    return sign * compare(a, b) || a.order - b.order;
  });
}

/** How many rows the table has before the search. */
export function selectRowTotal(state: AppState): number {
  return state.model?.inferred.values.length ?? 0;
}

const reportCache = new WeakMap<InferredModel, InspectReport>();

/** The facts of the shown model (producer, counts, unknown shapes, diagnostics). */
export function selectReport(state: AppState): InspectReport | undefined {
  const model = state.model?.inferred;
  if (model === undefined) return undefined;
  let report = reportCache.get(model);
  if (report === undefined) {
    report = inspectReport(model);
    reportCache.set(model, report);
  }
  return report;
}

const pageSummary = memoLast((model: AppState['model'], error: AppState['error'], lines: readonly AssumptionLine[], graph: AppState['graph'], groups: AppState['groups']): PageSummary => {
  const plan = model?.plan.status === 'planned' ? model.plan.plan : undefined;
  return {
    model: model?.name ?? null,
    format: model === undefined ? null : (model.inferred.format ?? 'onnx'),
    nodes: model?.inferred.nodes.length ?? 0,
    buffers: plan?.buffers.length ?? 0,
    peak: plan?.peak ?? null,
    lowerBound: plan?.lowerBound ?? null,
    strategy: plan?.strategy ?? null,
    target: plan?.target ?? null,
    fusionUnits: plan?.fusionUnits.length ?? 0,
    error: error?.message ?? (model?.plan.status === 'failed' ? model.plan.error.message : null),
    complete: plan === undefined || model === undefined ? null : plan.complete,
    fits: plan === undefined ? null : planFits(plan),
    lowerEstimate: plan === undefined ? null : planLowerEstimate(plan),
    warnings: fitWarnings(plan, lines),
    graph: graphSummary(model, graph, groups),
    settings: pageSettings(model),
    regions: plan === undefined ? null : regionSummaries(plan),
  };
});

/** The plan's memory map, as `plan --json` gives its regions. */
function regionSummaries(plan: ModelPlan): RegionSummary[] {
  return plan.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound, sizeLimit: r.sizeLimit ?? null, overBy: regionOverBy(r), spilled: r.spilled ?? null, weights: r.weights ?? 0, io: r.io ?? 0, used: r.used ?? r.peak }));
}

/**
 * summary() of a saved plan on screen (the plan viewer, with no comparison): the model it was made from and
 * the figures it was saved with. Its format is what the model's name says, null when the name does not; it has
 * no graph drawn and no page settings (it keeps those it was saved with); warnings carry its "Does not fit" verdict.
 */
export function savedPlanSummary(file: PlanFile): PageSummary {
  const { plan } = file;
  const format = /\.tflite$/i.test(file.model) ? 'tflite' : /\.onnx$/i.test(file.model) ? 'onnx' : null;
  return {
    model: file.model,
    format,
    nodes: file.nodes.length,
    buffers: plan.buffers.length,
    peak: plan.peak,
    lowerBound: plan.lowerBound,
    strategy: plan.strategy,
    target: plan.target,
    fusionUnits: plan.fusionUnits.length,
    error: null,
    complete: plan.complete,
    fits: planFits(plan),
    lowerEstimate: planLowerEstimate(plan),
    warnings: fitWarnings(plan, []),
    graph: { status: 'none', boxes: 0, ms: null, collapsed: [] },
    settings: null,
    regions: regionSummaries(plan),
  };
}

/** summary().warnings: the "Does not fit" line the heap header shows, then the assumptions banner's lines. */
function fitWarnings(plan: ModelPlan | undefined, lines: readonly AssumptionLine[]): string[] {
  const verdict = plan === undefined ? undefined : fitVerdict(plan);
  return [...(verdict === undefined ? [] : [verdict]), ...lines.map((l) => l.text)];
}

function graphSummary(model: AppState['model'], graph: AppState['graph'], groups: AppState['groups']): GraphSummary {
  const collapsed = model !== undefined && groups.model === model.inferred ? groups.collapsed : [];
  if (model === undefined) return { status: 'none', boxes: 0, ms: null, collapsed };
  if (graph.model !== model.inferred || graph.plan !== model.plan) return { status: 'pending', boxes: 0, ms: null, collapsed };
  return { status: graph.status, boxes: graph.boxes, ms: graph.ms, collapsed };
}

/** The plan on screen, if the shown model has one. */
export function selectPlan(state: AppState): ModelPlan | undefined {
  const plan = state.model?.plan;
  return plan?.status === 'planned' ? plan.plan : undefined;
}

/** The summary of window.heapscope.summary(). */
export function selectPageSummary(state: AppState): PageSummary {
  return pageSummary(state.model, state.error, selectAssumptionLines(state), state.graph, state.groups);
}
