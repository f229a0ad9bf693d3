// Derived data that reads a tensor's kind as the plan on screen has it
// (plannedKind): the Tensors table's rows and kind counts, the model card's
// report and weights. A constant TensorFlow Lite Micro runs at each inference
// (a DEQUANTIZE of a weight) is an activation in each, never a constant too.
// Every selector returns the same object while its inputs are unchanged.

import type { InferredModel, ValueKind } from '../model/inferred';
import { inspectReport, type InspectReport } from '../model/inspect-report';
import { bodyWeights } from '../planner/problem/weights';
import { memoLast } from './memo';
import { NO_PLANNED_CONSTANTS, plannedConstants, plannedKind, type PlannedConstants } from './planned-constants';
import { filterRows, KIND_GROUPS, selectPlan, selectReport, sortRows, tensorRows, type TensorRow } from './selectors';
import type { AppState, KindFilter, TableSort } from './state';

/** What the plan on screen runs at each inference of the shown model's constants (none without a model or plan). */
export function selectPlannedConstants(state: AppState): PlannedConstants {
  const model = state.model?.inferred;
  return model === undefined ? NO_PLANNED_CONSTANTS : plannedConstants(model, selectPlan(state));
}

const plannedRowCache = new WeakMap<PlannedConstants, readonly TensorRow[]>();

/**
 * The rows of `model` as the plan on screen has its tensors: a constant the plan places (TensorFlow Lite Micro's
 * DEQUANTIZE of a weight, run at each inference) is an activation.
 */
export function plannedRows(model: InferredModel, planned: PlannedConstants): readonly TensorRow[] {
  const rows = tensorRows(model);
  if (planned.values.size === 0) return rows;
  let cached = plannedRowCache.get(planned);
  if (cached === undefined) {
    cached = rows.map((row) => (plannedKind(row, planned) === row.kind ? row : { ...row, kind: plannedKind(row, planned) }));
    plannedRowCache.set(planned, cached);
  }
  return cached;
}

/** How many tensors each kind filter lists. */
export type KindCounts = Readonly<Record<KindFilter, number>>;

// keyed on the planned constants, not the plan: a replan placing the same ones counts and sorts nothing again
const kindCounts = memoLast((model: InferredModel | undefined, planned: PlannedConstants): KindCounts => {
  const values = model?.values ?? [];
  const count = (group: ReadonlySet<ValueKind>) => values.filter((v) => group.has(plannedKind(v, planned))).length;
  return { all: values.length, runtime: count(KIND_GROUPS.runtime), weights: count(KIND_GROUPS.weights), constants: count(KIND_GROUPS.constants) };
});

/** The number of tensors behind each kind filter of the shown model. */
export function selectKindCounts(state: AppState): KindCounts {
  return kindCounts(state.model?.inferred, selectPlannedConstants(state));
}

// keyed as the counts are, and on the search: typing searches the rows once, not once per kind
const kindMatches = memoLast((model: InferredModel | undefined, planned: PlannedConstants, query: string): KindCounts | undefined => {
  if (model === undefined || query.trim() === '') return undefined;
  const matched = filterRows(plannedRows(model, planned), query);
  const count = (group: ReadonlySet<ValueKind>) => matched.filter((row) => group.has(row.kind)).length;
  return { all: matched.length, runtime: count(KIND_GROUPS.runtime), weights: count(KIND_GROUPS.weights), constants: count(KIND_GROUPS.constants) };
});

/**
 * The number of tensors behind each kind filter that the search lets through: what the table lists when that
 * filter is chosen. Undefined while the search is empty, when each filter lists all its tensors (selectKindCounts).
 */
export function selectKindMatches(state: AppState): KindCounts | undefined {
  return kindMatches(state.model?.inferred, selectPlannedConstants(state), state.query);
}

const visibleRows = memoLast((model: InferredModel | undefined, planned: PlannedConstants, query: string, kinds: KindFilter, sort: TableSort): readonly TensorRow[] =>
  model === undefined ? [] : sortRows(filterRows(plannedRows(model, planned), query, kinds), sort),
);

/** The table's rows after the kind filter, the search and the sort; kinds as the plan on screen has them. */
export function selectRows(state: AppState): readonly TensorRow[] {
  return visibleRows(state.model?.inferred, selectPlannedConstants(state), state.query, state.kinds, state.sort);
}

const plannedReportCache = new WeakMap<PlannedConstants, InspectReport>();

/**
 * The facts of the shown model with its tensors' kinds as the plan on screen has them: a constant the plan places
 * (TensorFlow Lite Micro's DEQUANTIZE of a weight) is an activation, counted among the activations and their bytes
 * (or among those of unknown size), and not among the constants.
 */
export function selectPlannedReport(state: AppState): InspectReport | undefined {
  const model = state.model?.inferred;
  const planned = selectPlannedConstants(state);
  if (model === undefined || planned.values.size === 0) return selectReport(state);
  let report = plannedReportCache.get(planned);
  if (report === undefined) {
    report = inspectReport(model, (v) => plannedKind(v, planned));
    plannedReportCache.set(planned, report);
  }
  return report;
}

/**
 * Count and total bytes of a model's weights as the plan on screen counts them (planner's WeightsSummary):
 * initializers and the tensors computed from constants alone (Constant nodes among them) that the plan does not run,
 * those of every If/Loop/Scan body included, none of which the heap holds; the constants it runs at each inference
 * (TensorFlow Lite Micro's DEQUANTIZE of a weight) are activations, counted apart in `run`.
 */
export interface WeightStats {
  readonly count: number;
  readonly bytes: number; // of the weights whose size is known
  readonly fromConstants: number; // how many of them Constant nodes and constant folding give, not initializers
  readonly unknown: number; // how many have an unknown size: `bytes` is then a lower estimate
  readonly run: number; // tensors computed from constants that the plan runs at each inference, planned with the activations: no weights
}

const weightStats = memoLast((model: InferredModel | undefined, planned: PlannedConstants): WeightStats => {
  const own = model?.values.filter((v) => v.kind === 'initializer' || plannedKind(v, planned) === 'constant') ?? [];
  const weights = model === undefined ? own : [...own, ...bodyWeights(model)];
  return {
    count: weights.length,
    bytes: weights.reduce((sum, v) => sum + (v.bytes ?? 0), 0),
    fromConstants: weights.filter((v) => v.kind === 'constant').length,
    unknown: weights.filter((v) => v.bytes === undefined).length,
    run: planned.values.size,
  };
});

/** The shown model's weights, as the plan on screen has them. */
export function selectWeights(state: AppState): WeightStats {
  return weightStats(state.model?.inferred, selectPlannedConstants(state));
}
