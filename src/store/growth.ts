// The growth curve of the shown model: asked of the worker once the plan is on
// screen and the Growth view is open, its points put in the `growth` slice as
// they come. A curve is kept while what it depends on stays (the model, the
// axis and values, the other bindings, the settings), so planning a point of
// it keeps it; a Cancel keeps the points so far; a newer plan the curve does
// not hold for drops it.

import type { Grown, ModelClient } from '../worker/client';
import { growthAxisName, growthCurrent, refusedGrowthAxis } from '../worker/growth-axes';
import { growthSettings } from '../worker/plan/growth';
import type { GrowthAxis, GrowthPoint, ModelBindings } from '../worker/protocol';
import { decodeStepDim, withDecodeStep, type SweepAssumedDim } from '../planner/sweep/decode-step';
import { sweepAssumptionLines } from '../planner/sweep/sweep-assumptions';
import { memoLast } from './memo';
import type { StateAccess } from './model-loader';
import type { AppState, GrowthState, LoadedModel } from './state';

/**
 * What a curve depends on, as one string: the model file, the axis (a fixed
 * input's shape without the swept axes), the values, the bindings other than
 * the axis, and the settings at the default search budget.
 */
export function growthKey(model: LoadedModel, axis: GrowthAxis, values: readonly number[], bindings: ModelBindings): string {
  const settings = model.plan.settings;
  const dims = { ...bindings.dims };
  const shapes = { ...bindings.shapes };
  if (axis.kind === 'dim') delete dims[axis.name];
  else delete shapes[axis.input];
  const shown = axis.kind === 'dim' ? axis : { ...axis, shape: axis.shape.map((d, i) => (axis.axes.includes(i) ? 0 : d)) };
  return JSON.stringify([model.name, model.size, model.url ?? '', shown, values, dims, shapes, bindings.inputValues ?? {}, growthSettings(settings)]);
}

/** The dim a curve along `axis` binds beyond the page's bindings: a decode step's sequence length on a decoder's cache length (planner/sweep/decode-step.ts). */
export function growthAssumedDim(model: LoadedModel, axis: GrowthAxis): SweepAssumedDim | undefined {
  return axis.kind === 'dim' ? decodeStepDim(model.inferred, axis.name) : undefined;
}

/** The bindings a curve along `axis` is planned with: the shown model's, as the worker re-infers them, and the decode step's when there is one. */
function growthBindings(state: AppState, model: LoadedModel, axis: GrowthAxis): ModelBindings {
  return { dims: withDecodeStep(state.dims, growthAssumedDim(model, axis)), shapes: state.shapes, inputValues: state.inputValues };
}

/** The curve of the plan on screen, if one was asked for and still holds for it. */
export function currentGrowth(state: AppState): GrowthState | undefined {
  const { growth, model } = state;
  if (growth === undefined || model === undefined || model.plan.status !== 'planned' || growth.file !== model.file) return undefined;
  return growth.key === growthKey(model, growth.axis, growth.values, growthBindings(state, model, growth.axis)) ? growth : undefined;
}

/** The curve as window.heapscope.summary().growth gives it. */
export interface GrowthSummary {
  readonly dim: string; // the dim, or INPUT:AXIS[,AXIS] for a fixed input's axes (as `sweep --dim` names it); '' when the pane offers nothing to vary
  readonly status: GrowthState['status'];
  readonly current: number | null; // the value of the plan on screen
  readonly points: readonly { readonly value: number; readonly peak: number; readonly lowerBound: number; readonly complete: boolean; readonly fits: boolean }[];
  readonly fitsUpTo: number | null; // the largest value whose plan is known to fit every size limit (a plan with a size unknown is not); null: none is, no limit, or not done
  readonly monotonic: boolean | null; // null until done
  readonly assumed: readonly { readonly name: string; readonly value: number }[]; // dims bound at every point beyond the page's (a decode step's sequence length)
  readonly assumes: readonly string[]; // what the points rest on, as `sweep` and `plan` say it: default dims, If branches, the past inputs reused, graph I/O outside the arena (planner/sweep/sweep-assumptions.ts)
  readonly rangeError: string | null; // why the range typed in the pane is refused: the pane shows this instead of the curve, whose points are of the last range planned
  readonly error: string | null; // why the curve failed or was refused (an axis the graph ties to other dims), else null
}

const growthSummary = memoLast((growth: GrowthState | undefined, model: LoadedModel | undefined, rangeError: string | undefined): GrowthSummary | null => {
  if (growth === undefined || model === undefined) return null;
  return {
    dim: growthAxisName(growth.axis),
    status: growth.status,
    current: growthCurrent(model.inferred, growth.axis) ?? null,
    points: growth.points.map((p) => ({ value: p.value, peak: p.peak, lowerBound: p.lowerBound, complete: p.complete, fits: p.fits })),
    fitsUpTo: growth.result?.fitsUpTo ?? null,
    monotonic: growth.result?.monotonic ?? null,
    assumed: [growthAssumedDim(model, growth.axis)].flatMap((d) => (d === undefined ? [] : [{ name: d.name, value: d.value }])),
    assumes: growthAssumes(growth.points, growthAxisName(growth.axis)),
    rangeError: rangeError ?? null,
    error: growth.error?.message ?? null,
  };
});

/** The Growth pane's refusal to draw any curve, as summary().growth gives it: status failed, the pane's reason as the error. */
const refusedSummary = memoLast(
  (error: string): GrowthSummary => ({ dim: '', status: 'failed', current: null, points: [], fitsUpTo: null, monotonic: null, assumed: [], assumes: [], rangeError: null, error }),
);

/** What the points of a curve of `dim` rest on, one sentence each, labelled as `sweep`'s text labels them ("assumes batch_size=1 at every value (…)"). */
export function growthAssumes(points: readonly GrowthPoint[], dim: string): string[] {
  return sweepAssumptionLines(points, dim).map((line) => `${line.label} ${line.text}`);
}

/** summary().growth: the curve of the plan on screen, the open pane's refusal when it offers nothing to vary, or null. */
export function selectGrowthSummary(state: AppState): GrowthSummary | null {
  if (state.model !== undefined && state.growthRefused !== undefined) return refusedSummary(state.growthRefused);
  return growthSummary(currentGrowth(state), state.model, state.growthRangeError);
}

/** `points` with `point` in value order (replacing one of the same value). */
function withPoint(points: readonly GrowthPoint[], point: GrowthPoint): readonly GrowthPoint[] {
  return [...points.filter((p) => p.value !== point.value), point].sort((a, b) => a.value - b.value);
}

/** Starts, keeps and cancels the growth curves of one store. */
export class GrowthSweeper {
  private generation = 0;
  private cancelled: number | undefined; // the generation the user cancelled

  constructor(
    private readonly state: StateAccess,
    private readonly client: ModelClient,
  ) {}

  /**
   * Asks the worker for the curve of the plan on screen over `values` of
   * `axis`, unless that curve is already there (running, done or cancelled) and
   * `again` is false, or a task runs.
   */
  async sweep(axis: GrowthAxis, values: readonly number[], again = false): Promise<void> {
    const state = this.state.get();
    const { model, task } = state;
    if (model === undefined || task !== undefined || model.plan.status !== 'planned' || values.length === 0) return;
    const bindings = growthBindings(state, model, axis);
    const key = growthKey(model, axis, values, bindings);
    const old = currentGrowth(state);
    if (!again && old?.key === key && old.status !== 'failed') return;
    const mine = ++this.generation;
    const refused = refusedGrowthAxis(model.inferred, axis);
    if (refused !== undefined) {
      // Not planned: every point would be a length no run has (a total apart from its parts).
      this.state.set({ growth: { key, file: model.file, axis, values, status: 'failed', points: [], result: undefined, progress: undefined, error: { code: 'tied-dim', message: refused } } });
      return;
    }
    const base: GrowthState = { key, file: model.file, axis, values, status: 'running', points: [], result: undefined, progress: { fraction: 0, label: 'Planning' }, error: undefined };
    this.state.set({ growth: base });
    const update = (change: Partial<GrowthState>): void => {
      const now = this.state.get().growth;
      if (mine === this.generation && now !== undefined) this.state.set({ growth: { ...now, ...change } });
    };
    const findFit = model.plan.plan.regions.some((r) => r.sizeLimit !== undefined);
    const outcome = await this.client.growth(
      { axis, values, bindings, settings: model.plan.settings, findFit },
      (point, probe) => {
        if (!probe) update({ points: withPoint(this.state.get().growth?.points ?? [], point) });
      },
      (fraction, label) => update({ progress: { fraction, label } }),
    );
    if (mine !== this.generation) return;
    if (outcome.status === 'cancelled') {
      // The user's Cancel keeps the points so far; a newer plan's cancel drops the curve, to be asked again for that plan.
      if (this.cancelled === mine) update({ status: 'cancelled', progress: undefined });
      else this.state.set({ growth: undefined });
    } else if (outcome.status === 'failed') update({ status: 'failed', progress: undefined, error: outcome.error });
    else update({ status: 'done', progress: undefined, result: outcome.result as Grown });
  }

  /** Stops the curve in flight; its points so far stay on screen. */
  cancel(): void {
    if (this.state.get().growth?.status !== 'running') return;
    this.cancelled = this.generation;
    this.client.cancelGrowth();
  }
}
