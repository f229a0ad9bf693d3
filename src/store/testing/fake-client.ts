// A model client for store tests: decodes the fake format of worker/testing on
// the spot, records its calls, and can hold answers until the test releases them.

import type { ClientOutcome, CompareOutcome, GrowthAsk, GrowthOutcome, GrowthPointListener, ModelClient, PlannedTfliteAsk, PlannedTfliteOutcome, PlanOutcome, ProgressListener, SuggestOutcome } from '../../worker/client';
import { sweepDim } from '../../planner/sweep/dim-sweep';
import { growthAxisName } from '../../worker/growth-axes';
import { inferOptions } from '../../worker/handler';
import { growthPoint } from '../../worker/plan/growth';
import { COMPARED_STRATEGIES, strategyPeak } from '../../worker/plan/compare';
import type { DimValues, InputValues, ModelBindings, PlanResult, PlanSettings, ShapeValues } from '../../worker/protocol';
import type { InferOptions } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import type { IrModel } from '../../model/ir';
import { toErrorData } from '../../shared/errors';
import { planForSettings } from '../../worker/plan/settings';
import { fakeDecode, fakeInfer } from '../../worker/testing/fakes';

/** Plans with the real planner, as the worker does. */
function planOf(model: InferredModel, settings: PlanSettings): PlanResult {
  try {
    return { status: 'planned', settings, plan: planForSettings(model, settings, { suggest: false }), ms: 1 };
  } catch (error) {
    return { status: 'failed', settings, error: toErrorData(error) };
  }
}

/** The bindings of a call as the call log keeps them: dims always, the others when given. */
function recorded(bindings: ModelBindings): { dims: DimValues; shapes?: ShapeValues; inputValues?: InputValues } {
  const { dims, shapes, inputValues } = bindings;
  return {
    dims,
    ...(shapes !== undefined && Object.keys(shapes).length > 0 && { shapes }),
    ...(inputValues !== undefined && Object.keys(inputValues).length > 0 && { inputValues }),
  };
}

/** A fake client and its controls. */
export interface FakeClient extends ModelClient {
  readonly calls: {
    kind: 'open' | 'reinfer' | 'replan' | 'cancel';
    name?: string;
    dims?: DimValues;
    shapes?: ShapeValues; // only when some are given
    inputValues?: InputValues; // only when some are given
    bytes?: number;
    settings?: PlanSettings;
  }[];
  /** Settings of every strategy comparison asked for, in order. */
  readonly compares: PlanSettings[];
  /** Settings of every suggestion evaluation asked for, in order. */
  readonly suggests: PlanSettings[];
  /** Every planned .tflite asked for, in order. */
  readonly plannedFiles: PlannedTfliteAsk[];
  /** Every growth curve asked for, in order. */
  readonly growths: GrowthAsk[];
  /** How many times cancelGrowth was called. */
  growthCancels: number;
  /** While true, answers wait for release(). */
  hold: boolean;
  /** What stopSearch answers: true as a worker that can stop its search does. */
  stoppable: boolean;
  /** How many times stopSearch was called. */
  stops: number;
  /** Answers every held call, in order. */
  release(): Promise<void>;
  /** Forgets the decoded model, as a restarted worker would. */
  forget(): void;
}

/** Creates a fake client; `infer` stands for the worker's inference (default: the fake model's). */
export function createFakeClient(infer: (ir: IrModel, options: InferOptions) => InferredModel = fakeInfer): FakeClient {
  let held: { ir: IrModel; name: string; model: InferredModel } | undefined;
  let cancelGrowthNow: (() => void) | undefined;
  const waiting: (() => void)[] = [];
  const gate = (): Promise<void> => (client.hold ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve());
  // Plans every point with the real sweep and planner, over the fake inference, after the gate.
  const planGrowth = async (ask: GrowthAsk, onPoint: GrowthPointListener): Promise<GrowthOutcome> => {
    await gate();
    if (held === undefined) return { status: 'failed', error: { code: 'no-model', message: 'no model is loaded in the worker' } };
    const input = { ir: held.ir, axis: ask.axis, bindings: ask.bindings, settings: ask.settings };
    const deps = { infer, plan: planForSettings, inferOptions };
    const planAt = (value: number) => {
      const point = growthPoint(input, value, deps, value === ask.values[ask.values.length - 1]);
      onPoint(point, !ask.values.includes(value));
      return point;
    };
    try {
      return { status: 'done', result: sweepDim(growthAxisName(ask.axis), ask.values, planAt, ask.findFit ? (p) => p.fits : undefined) };
    } catch (error) {
      return { status: 'failed', error: toErrorData(error) };
    }
  };

  const client: FakeClient = {
    calls: [],
    compares: [],
    suggests: [],
    plannedFiles: [],
    growths: [],
    growthCancels: 0,
    hold: false,
    stoppable: true,
    stops: 0,
    async open(source: ArrayBuffer | Blob, name: string, bindings: ModelBindings, settings: PlanSettings, onProgress?: ProgressListener): Promise<ClientOutcome> {
      client.calls.push({ kind: 'open', name, ...recorded(bindings), bytes: source instanceof Blob ? source.size : source.byteLength });
      onProgress?.(0.5, 'Decoding');
      await gate();
      try {
        // A dropped file arrives as a Blob, which the real worker reads itself.
        const bytes = source instanceof Blob ? await source.arrayBuffer() : source;
        const ir = fakeDecode(new Uint8Array(bytes));
        const model = infer(ir, bindings);
        held = { ir, name, model };
        return { status: 'done', result: { name, model, timings: { decodeMs: 1, inferMs: 1 }, plan: planOf(model, settings) } };
      } catch (error) {
        return { status: 'failed', error: toErrorData(error) };
      }
    },
    async reinfer(bindings: ModelBindings, settings: PlanSettings): Promise<ClientOutcome> {
      client.calls.push({ kind: 'reinfer', ...recorded(bindings) });
      await gate();
    if (held === undefined) return { status: 'failed', error: { code: 'no-model', message: 'no model is loaded in the worker' } };
      try {
        held.model = infer(held.ir, bindings);
      } catch (error) {
        return { status: 'failed', error: toErrorData(error) };
      }
      const result = { name: held.name, model: held.model, timings: { decodeMs: undefined, inferMs: 1 }, plan: planOf(held.model, settings) };
      return { status: 'done', result };
    },
    async replan(settings: PlanSettings, onProgress?: ProgressListener): Promise<PlanOutcome> {
      client.calls.push({ kind: 'replan', settings });
      // A budgeted plan reports its search, as the worker does, stoppable when the fake says so.
      const budgetMs = settings.budgetMs;
      if (budgetMs !== undefined) onProgress?.(0.1, 'Searching for a smaller plan', { elapsedMs: budgetMs / 10, budgetMs, peak: 900, bound: 800, stoppable: client.stoppable });
      await gate();
    if (held === undefined) return { status: 'failed', error: { code: 'no-model', message: 'no model is loaded in the worker' } };
      return { status: 'done', result: planOf(held.model, settings) };
    },
    async compare(settings: PlanSettings, onProgress?: ProgressListener): Promise<CompareOutcome> {
      client.compares.push(settings);
      onProgress?.(0, 'Comparing strategies');
      await gate();
    if (held === undefined) return { status: 'failed', error: { code: 'no-model', message: 'no model is loaded in the worker' } };
      const model = held.model;
      const peaks = COMPARED_STRATEGIES.map((strategy) => strategyPeak(planForSettings, model, settings, strategy, () => 0));
      return { status: 'done', result: { settings, peaks } };
    },
    async suggest(settings: PlanSettings, onProgress?: ProgressListener): Promise<SuggestOutcome> {
      client.suggests.push(settings);
      onProgress?.(0, 'Evaluating suggestions');
      await gate();
    if (held === undefined) return { status: 'failed', error: { code: 'no-model', message: 'no model is loaded in the worker' } };
      try {
        return { status: 'done', result: { settings, suggestions: planForSettings(held.model, settings, { suggest: true }).suggestions ?? [] } };
      } catch (error) {
        return { status: 'failed', error: toErrorData(error) };
      }
    },
    // The fake format is no .tflite: the "file" names what it was asked to write, as text.
    async plannedTflite(ask: PlannedTfliteAsk): Promise<PlannedTfliteOutcome> {
      client.plannedFiles.push(ask);
      await gate();
      if (held === undefined || held.name !== ask.name) return { status: 'failed', error: { code: 'no-model', message: `the worker does not hold ${ask.name}` } };
      const text = new TextEncoder().encode(`${ask.name}:${ask.offsets.join(',')}`);
      return { status: 'done', result: text.buffer };
    },
    growth(ask: GrowthAsk, onPoint: GrowthPointListener): Promise<GrowthOutcome> {
      client.growths.push(ask);
      const cancelled = new Promise<GrowthOutcome>((resolve) => (cancelGrowthNow = () => resolve({ status: 'cancelled' })));
      return Promise.race([planGrowth(ask, onPoint), cancelled]);
    },
    cancelGrowth() {
      client.growthCancels += 1;
      cancelGrowthNow?.();
    },
    cancel() {
      client.calls.push({ kind: 'cancel' });
    },
    stopSearch() {
      client.stops += 1;
      return client.stoppable;
    },
    dispose() {},
    async release() {
      for (const resolve of waiting.splice(0)) resolve();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    forget() {
      held = undefined;
    },
  };
  return client;
}
