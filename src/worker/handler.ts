// The worker's request handler: decodes, infers and plans models; keeps the
// decoded IR so a dim change re-infers without decoding again, the inferred
// model so a settings change re-plans without inferring again, and the last
// plan's suggestion steps, evaluated after the plan is shown, and a .tflite
// file's bytes, to write a plan into; reports and stops the search of a plan
// with a budget; drops superseded requests. Pure of any
// worker or DOM API (the stop probe is a dependency), so it runs in Node and on the main thread.

import { decodeModel, type ModelDecodeOptions } from '../model/decode-model';
import { inferShapes, type InferOptions } from '../model/infer/shapes';
import type { InferredModel } from '../model/inferred';
import type { IrModel } from '../model/ir';
import { sweepSteps } from '../planner/sweep/dim-sweep';
import { InputError, toErrorData } from '../shared/errors';
import { growthAxisName } from './growth-axes';
import { plansFileShapes } from '../settings/target';
import { openedBytes } from './open-bytes';
import { COMPARED_STRATEGIES, strategyPeak, type PlanFunction } from './plan/compare';
import { growthPoint } from './plan/growth';
import { holdsFile, plannedTfliteBytes, type HeldModel } from './planned-tflite';
import { searchHooks, type PlanHooks } from './plan/search';
import { planForSettings, planStepsForSettings, type PlanWithSteps } from './plan/settings';
import { planKey, runSuggestionSteps, type LastPlan } from './plan/suggest';
import { NO_STOP_PROBE, type StopProbe } from './stop-signal';
import {
  COMPARE_LABEL,
  DECODE_LABEL,
  GROWTH_LABEL,
  INFER_LABEL,
  NO_MODEL_CODE,
  PLAN_LABEL,
  SEARCH_LABEL,
  SUPERSEDED_CODE,
  type CompareRequest,
  type GrowthPoint,
  type GrowthRequest,
  type ModelBindings,
  type OpenRequest,
  type PlannedTfliteRequest,
  type PlanResult,
  type PlanSettings,
  type ReinferRequest,
  type ReplanRequest,
  type SearchProgress,
  type StopUrl,
  type StrategyPeak,
  type SuggestRequest,
  type WorkerRequest,
  type WorkerResponse,
} from './protocol';

/** What the handler needs from the outside; tests replace any of these. */
export interface HandlerDeps {
  readonly decode: (bytes: Uint8Array, options: ModelDecodeOptions) => IrModel;
  readonly infer: (model: IrModel, options: InferOptions) => InferredModel;
  /** Plans for the strategy comparison and the growth curve (their figures only). */
  readonly plan: PlanFunction;
  /** Plans for the page: the plan, and the steps that evaluate its suggestions afterwards; `hooks` follow a budgeted search. */
  readonly planSteps: (model: InferredModel, settings: PlanSettings, hooks?: PlanHooks) => PlanWithSteps;
  /** Asks whether the page revoked a request's stop URL (stop-signal.ts); the worker entry passes probeStopUrl. */
  readonly probeStop: StopProbe;
  /** Milliseconds from a monotonic clock. */
  readonly now: () => number;
  /** Resolves after messages already queued for the handler had a chance to arrive. */
  readonly yieldToQueue: () => Promise<void>;
}

/** Sends one response to the page, moving the buffers in `transfer` rather than copying them. */
export type PostResponse = (response: WorkerResponse, transfer?: Transferable[]) => void;

/** Handles one request; resolves when the request is answered or dropped. */
export type RequestHandler = (request: WorkerRequest) => Promise<void>;

const DEFAULT_DEPS: HandlerDeps = {
  decode: decodeModel,
  infer: inferShapes,
  plan: planForSettings,
  planSteps: planStepsForSettings,
  probeStop: NO_STOP_PROBE,
  now: () => performance.now(),
  yieldToQueue: () => new Promise((resolve) => setTimeout(resolve, 0)),
};

/** Share of the progress bar that decoding takes; inference and planning take the rest. */
const DECODE_SHARE = 0.7;
/** Where planning starts on the progress bar of an open. */
const PLAN_START = 0.85;
/** Smallest progress step worth a message. */
const PROGRESS_STEP = 0.01;

interface DecodedModel extends HeldModel {
  inferred: InferredModel; // the newest inference of `ir`, which a replan plans again
}

/**
 * Creates the handler of one worker. Only the newest open/reinfer request is
 * live: an older one still waiting, or one cancelled, is dropped between phases
 * without an answer. The decoded model is replaced only by a successful open,
 * so a bad file leaves the previous model ready for re-inference.
 */
export function createRequestHandler(post: PostResponse, deps: Partial<HandlerDeps> = {}): RequestHandler {
  const worker = new ModelWorker(post, { ...DEFAULT_DEPS, ...deps });
  return (request) => worker.handle(request);
}

/** The state of one worker: the newest request ids, the decoded model and its last plan. */
class ModelWorker {
  private latest: number | undefined;
  private latestCompare: number | undefined;
  private latestSuggest: number | undefined;
  private latestGrowth: number | undefined;
  private decoded: DecodedModel | undefined;
  private lastPlan: LastPlan | undefined;

  constructor(
    private readonly post: PostResponse,
    private readonly deps: HandlerDeps,
  ) {}

  async handle(request: WorkerRequest): Promise<void> {
    if (request.type === 'cancel') {
      if (this.isLive(request.id)) this.latest = undefined;
      if (request.id === this.latestCompare) this.latestCompare = undefined;
      if (request.id === this.latestSuggest) this.latestSuggest = undefined;
      if (request.id === this.latestGrowth) this.latestGrowth = undefined;
      return;
    }
    try {
      if (request.type === 'compare') await this.compare(request);
      else if (request.type === 'growth') await this.growth(request);
      else if (request.type === 'suggest') await this.suggest(request);
      else if (request.type === 'planned-tflite') this.plannedTflite(request);
      else if (request.type === 'open') await this.open(request);
      else if (request.type === 'reinfer') await this.reinfer(request);
      else await this.replan(request);
    } catch (error) {
      const live =
        request.type === 'suggest'
          ? request.id === this.latestSuggest
          : request.type === 'growth'
            ? request.id === this.latestGrowth
            : request.type === 'planned-tflite' || this.isLive(request.id);
      if (live) this.post({ type: 'error', id: request.id, error: toErrorData(describe(error, request)) });
    }
  }

  private isLive(id: number): boolean {
    return id === this.latest;
  }

  private async open(request: OpenRequest): Promise<void> {
    this.latest = request.id;
    await this.deps.yieldToQueue();
    if (!this.isLive(request.id)) return;
    const progress = progressPoster(this.post, request.id);
    const bytes = await openedBytes(request.bytes, request.name);
    if (!this.isLive(request.id)) return;
    const started = this.deps.now();
    const ir = this.deps.decode(bytes, {
      name: request.name,
      onProgress: (fraction, label) => progress(fraction * DECODE_SHARE, label || DECODE_LABEL),
    });
    const decodeMs = this.deps.now() - started;
    await this.deps.yieldToQueue();
    if (!this.isLive(request.id)) return;
    progress(DECODE_SHARE, INFER_LABEL);
    const { model, ms } = this.inferTimed(ir, request, request.settings);
    // The IR of a .tflite file keeps views of its bytes anyway; holding them costs nothing and lets a plan be written in.
    this.decoded = { ir, name: request.name, bytes: ir.format === 'tflite' ? bytes : undefined, inferred: model };
    await this.deps.yieldToQueue();
    if (!this.isLive(request.id)) return;
    progress(PLAN_START, PLAN_LABEL);
    const plan = this.planTimed(model, request);
    this.post({ type: 'result', id: request.id, name: request.name, model, timings: { decodeMs, inferMs: ms }, plan });
  }

  /**
   * Makes `request` the latest, lets queued messages run, and returns the
   * loaded model when the request is still live; answers 'no model' when none is.
   */
  private async loadedFor(request: ReinferRequest | ReplanRequest): Promise<DecodedModel | undefined> {
    this.latest = request.id;
    await this.deps.yieldToQueue();
    if (!this.isLive(request.id)) return undefined;
    if (this.decoded === undefined) {
      this.post({ type: 'error', id: request.id, error: { code: NO_MODEL_CODE, message: 'no model is loaded in the worker' } });
    }
    return this.decoded;
  }

  private async reinfer(request: ReinferRequest): Promise<void> {
    const decoded = await this.loadedFor(request);
    if (decoded === undefined) return;
    this.post({ type: 'progress', id: request.id, fraction: 0, label: INFER_LABEL });
    const { model, ms } = this.inferTimed(decoded.ir, request, request.settings);
    decoded.inferred = model;
    this.post({ type: 'progress', id: request.id, fraction: 0.5, label: PLAN_LABEL });
    const plan = this.planTimed(model, request);
    this.post({ type: 'result', id: request.id, name: decoded.name, model, timings: { decodeMs: undefined, inferMs: ms }, plan });
  }

  private async replan(request: ReplanRequest): Promise<void> {
    const decoded = await this.loadedFor(request);
    if (decoded === undefined) return;
    this.post({ type: 'progress', id: request.id, fraction: 0, label: PLAN_LABEL });
    this.post({ type: 'planned', id: request.id, plan: this.planTimed(decoded.inferred, request) });
  }

  /**
   * Plans the inferred model with every strategy, yielding between them so a
   * replan can run in between; a newer open, reinfer or compare drops it.
   */
  private async compare(request: CompareRequest): Promise<void> {
    this.latestCompare = request.id;
    const model = this.decoded?.inferred;
    if (model === undefined) {
      this.post({ type: 'error', id: request.id, error: { code: NO_MODEL_CODE, message: 'no model is loaded in the worker' } });
      return;
    }
    const live = (): boolean => this.latestCompare === request.id && this.decoded?.inferred === model;
    // Every strategy at the default budget: the comparison never waits out a long search.
    const { budgetMs: _budget, ...settings } = request.settings;
    const peaks: StrategyPeak[] = [];
    for (const [k, strategy] of COMPARED_STRATEGIES.entries()) {
      await this.deps.yieldToQueue();
      if (!live()) {
        this.post({ type: 'error', id: request.id, error: { code: SUPERSEDED_CODE, message: 'the comparison was superseded' } });
        return;
      }
      const label = `${COMPARE_LABEL}: ${strategy} (${k + 1} of ${COMPARED_STRATEGIES.length})`;
      this.post({ type: 'progress', id: request.id, fraction: k / COMPARED_STRATEGIES.length, label });
      peaks.push(strategyPeak(this.deps.plan, model, settings, strategy, this.deps.now));
    }
    this.post({ type: 'compared', id: request.id, settings: request.settings, peaks });
  }

  /**
   * Evaluates the suggestions of the last plan (planned again when it was made
   * for other settings), a step at a time; a newer plan or suggest drops it.
   */
  private async suggest(request: SuggestRequest): Promise<void> {
    this.latestSuggest = request.id;
    const model = this.decoded?.inferred;
    if (model === undefined) {
      this.post({ type: 'error', id: request.id, error: { code: NO_MODEL_CODE, message: 'no model is loaded in the worker' } });
      return;
    }
    const key = planKey(request.settings);
    let last = this.lastPlan;
    if (last === undefined || last.model !== model || last.key !== key) {
      last = { model, key, steps: this.deps.planSteps(model, request.settings).steps };
      this.lastPlan = last;
    }
    const mine = last;
    const suggestions = await runSuggestionSteps(mine.steps, {
      yieldToQueue: this.deps.yieldToQueue,
      live: () => this.latestSuggest === request.id && this.lastPlan === mine && this.decoded?.inferred === model,
      progress: (fraction, label) => this.post({ type: 'progress', id: request.id, fraction, label }),
    });
    if (suggestions === undefined) {
      this.post({ type: 'error', id: request.id, error: { code: SUPERSEDED_CODE, message: 'the suggestions were superseded by a newer plan' } });
      return;
    }
    this.post({ type: 'suggested', id: request.id, settings: request.settings, suggestions });
  }

  /**
   * Plans the held model at each value of the request's axis, one point at a
   * time with a yield before each (so a newer request gets in), posting every
   * point; then, with `findFit`, bisects to where the plan stops fitting. A
   * newer growth, or a new inference of the model, drops it.
   */
  private async growth(request: GrowthRequest): Promise<void> {
    this.latestGrowth = request.id;
    const decoded = this.decoded;
    if (decoded === undefined) {
      this.post({ type: 'error', id: request.id, error: { code: NO_MODEL_CODE, message: 'no model is loaded in the worker' } });
      return;
    }
    const model = decoded.inferred;
    const live = (): boolean => this.latestGrowth === request.id && this.decoded?.inferred === model;
    const input = { ir: decoded.ir, axis: request.axis, bindings: request.bindings, settings: request.settings };
    const deps = { infer: this.deps.infer, plan: this.deps.plan, inferOptions };
    const name = growthAxisName(request.axis);
    const steps = sweepSteps<GrowthPoint>(name, request.values, request.findFit ? (p) => p.fits : undefined);
    const total = request.values.length;
    let planned = 0;
    for (let step = steps.next(); ; ) {
      if (step.done) {
        this.post({ type: 'grown', id: request.id, result: step.value });
        return;
      }
      await this.deps.yieldToQueue();
      if (!live()) {
        this.post({ type: 'error', id: request.id, error: { code: SUPERSEDED_CODE, message: 'the growth curve was superseded' } });
        return;
      }
      const probe = planned >= total;
      const label = probe ? `Finding where it stops fitting: ${name}=${step.value}` : `${GROWTH_LABEL} ${name}=${step.value} (${planned + 1} of ${total})`;
      this.post({ type: 'progress', id: request.id, fraction: Math.min(1, planned / total), label });
      const point = growthPoint(input, step.value, deps, step.value === request.values[request.values.length - 1]);
      planned += 1;
      this.post({ type: 'growth-point', id: request.id, point, probe });
      step = steps.next(point);
    }
  }

  /** Answers the held .tflite file with the request's offsets written in, transferred; NO_MODEL_CODE when it holds another file or none. */
  private plannedTflite(request: PlannedTfliteRequest): void {
    if (!holdsFile(this.decoded, request)) {
      this.post({ type: 'error', id: request.id, error: { code: NO_MODEL_CODE, message: `the worker does not hold ${request.name}` } });
      return;
    }
    const bytes = plannedTfliteBytes(this.decoded, request);
    this.post({ type: 'planned-tflite', id: request.id, bytes }, [bytes]);
  }

  /**
   * Plans `model` for the request's settings, keeping its suggestion steps; a
   * budgeted plan reports its search and stops when the page revokes the
   * request's stop URL. A failure is part of the answer, so the model still opens.
   */
  private planTimed(model: InferredModel, { id, settings, stop }: { id: number; settings: PlanSettings; stop?: StopUrl }): PlanResult {
    const started = this.deps.now();
    this.lastPlan = undefined;
    const search = settings.budgetMs === undefined ? undefined : this.searchHooks(id, settings.budgetMs, stop);
    try {
      const { plan, steps } = search === undefined ? this.deps.planSteps(model, settings) : this.deps.planSteps(model, settings, search.hooks);
      this.lastPlan = { model, key: planKey(settings), steps };
      return { status: 'planned', settings, plan, ms: this.deps.now() - started };
    } catch (error) {
      return { status: 'failed', settings, error: toErrorData(error) };
    } finally {
      search?.finish();
    }
  }

  private searchHooks(id: number, budgetMs: number, stop: StopUrl | undefined) {
    const post = (search: SearchProgress): void => {
      this.post({ type: 'progress', id, fraction: Math.min(1, search.elapsedMs / budgetMs), label: SEARCH_LABEL, search });
    };
    return searchHooks({ budgetMs, stop, probe: this.deps.probeStop, now: this.deps.now, post });
  }

  private inferTimed(ir: IrModel, bindings: ModelBindings, settings: PlanSettings): { model: InferredModel; ms: number } {
    const started = this.deps.now();
    const model = this.deps.infer(ir, inferOptions(bindings, settings));
    return { model, ms: this.deps.now() - started };
  }
}

/** Inference options of a request's bindings (a .tflite at its file's shapes where `settings` plan for TensorFlow Lite Micro); absent shapes and input values stay absent. */
export function inferOptions(bindings: ModelBindings, settings?: PlanSettings): InferOptions {
  return {
    dims: bindings.dims,
    ...(settings !== undefined && plansFileShapes(settings) && { fileShapes: true }),
    ...(bindings.shapes !== undefined && Object.keys(bindings.shapes).length > 0 && { shapes: bindings.shapes }),
    ...(bindings.inputValues !== undefined && Object.keys(bindings.inputValues).length > 0 && { inputValues: bindings.inputValues }),
  };
}

/** Messages of the RangeErrors engines throw when an allocation does not fit. */
const OUT_OF_MEMORY = /allocation failed|invalid (typed )?array length|out of memory/i;

/** Turns an allocation failure while opening a file into a 'too-large' error naming the file. */
function describe(error: unknown, request: Exclude<WorkerRequest, { type: 'cancel' }>): unknown {
  if (error instanceof InputError || request.type !== 'open') return error;
  if (error instanceof RangeError && OUT_OF_MEMORY.test(error.message)) {
    return new InputError('too-large', `${request.name} is too large to decode in this browser (${error.message})`);
  }
  return error;
}

/** A progress sender that skips steps too small to see. */
function progressPoster(post: PostResponse, id: number): (fraction: number, label: string) => void {
  let lastFraction = -1;
  let lastLabel = '';
  return (fraction, label) => {
    const clamped = Math.min(1, Math.max(0, fraction));
    if (label === lastLabel && clamped - lastFraction < PROGRESS_STEP) return;
    lastFraction = clamped;
    lastLabel = label;
    post({ type: 'progress', id, fraction: clamped, label });
  };
}
