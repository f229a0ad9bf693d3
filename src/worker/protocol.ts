// The messages between the page and the model worker: plain, structured-cloneable
// data only. Depends on model types and shared errors, never on the DOM or UI.

import type { InferredModel } from '../model/inferred';
import type { ModelPlan, Suggestion } from '../planner/plan';
import type { SweepPoint, SweepResult } from '../planner/sweep/dim-sweep';
import type { ErrorData } from '../shared/errors';
import type { DimValues, InputValues, ModelBindings, PlanSettings, ShapeValues } from '../settings/types';

export type { DimValues, InputValues, ModelBindings, PlanSettings, RegionEdit, ShapeValues, TargetEdits } from '../settings/types';

/**
 * A blob: URL the page revokes to stop the search of a plan request: the
 * worker cannot read messages while it plans, but it can ask, synchronously,
 * whether the URL still resolves (stop-signal.ts).
 */
export type StopUrl = string;

/**
 * Decode a model file, infer its shapes and plan it. An ArrayBuffer is
 * transferred, not copied; a Blob (a dropped File) is read in the worker, so no
 * buffer near 2 GiB has to cross postMessage.
 */
export interface OpenRequest {
  readonly type: 'open';
  readonly id: number;
  readonly bytes: ArrayBuffer | Blob;
  readonly name: string; // the file name, for messages
  readonly dims: DimValues;
  readonly shapes?: ShapeValues;
  readonly inputValues?: InputValues;
  readonly settings: PlanSettings;
  readonly stop?: StopUrl; // revoked by the page to stop the search and keep the best plan so far
}

/** Infer the shapes of the model already decoded by the worker again, with other bindings, and plan it. */
export interface ReinferRequest {
  readonly type: 'reinfer';
  readonly id: number;
  readonly dims: DimValues;
  readonly shapes?: ShapeValues;
  readonly inputValues?: InputValues;
  readonly settings: PlanSettings;
  readonly stop?: StopUrl;
}

/** Plan the model already inferred by the worker again, with other settings. */
export interface ReplanRequest {
  readonly type: 'replan';
  readonly id: number;
  readonly settings: PlanSettings;
  readonly stop?: StopUrl;
}

/**
 * Plan the model already inferred by the worker with every strategy of the
 * registry for `settings` (its strategy and budget are ignored: each strategy
 * plans with the default budget, so a long search never holds up the worker twice). Runs beside a replan; a newer
 * open, reinfer or compare drops it.
 */
export interface CompareRequest {
  readonly type: 'compare';
  readonly id: number;
  readonly settings: PlanSettings;
}

/**
 * Evaluate the suggestions of the plan the worker made last, when it was made for
 * `settings` (else plan again first), one candidate at a time after the plan is
 * on screen. A newer open, reinfer, replan or suggest drops it.
 */
export interface SuggestRequest {
  readonly type: 'suggest';
  readonly id: number;
  readonly settings: PlanSettings;
}

/**
 * The model file the worker holds, with `offsets` written in as TensorFlow Lite
 * Micro's offline plan (a runtime plan's `planned.offsets`). The worker keeps the
 * .tflite bytes it decoded, so the page never holds a copy of the weights; the
 * file is built there and transferred. `name` and `size` are the file the page
 * shows: a worker holding another model, or none, answers NO_MODEL_CODE.
 */
export interface PlannedTfliteRequest {
  readonly type: 'planned-tflite';
  readonly id: number;
  readonly name: string;
  readonly size: number; // bytes of the file
  readonly offsets: readonly number[]; // by tensor over every subgraph in order; -1 leaves a tensor to TFLite Micro
}

/**
 * What a growth curve varies: a symbolic dim, or axes of a graph input whose
 * shape is fixed, given at each value as a shape override (as `--shape` would):
 * its batch (axis 0) or its image size (height and width together).
 */
export type GrowthAxis =
  | { readonly kind: 'dim'; readonly name: string }
  | {
      readonly kind: 'shape';
      readonly input: string; // the graph input
      readonly axes: readonly number[]; // the axes set to each value
      readonly shape: readonly number[]; // the input's shape at the other axes (the swept ones as on screen)
      readonly what: 'batch' | 'image size';
    };

/**
 * Plan the model the worker holds at each of `values` of `axis`, with the
 * other bindings and the settings of the plan on screen (at the default
 * search budget, so every point is planned alike); with `findFit`, then bisect
 * to where the plan stops fitting the target's size limits. Runs one point at a
 * time after the plan is on screen; a newer open, reinfer, replan or growth drops it.
 */
export interface GrowthRequest {
  readonly type: 'growth';
  readonly id: number;
  readonly axis: GrowthAxis;
  readonly values: readonly number[];
  readonly bindings: ModelBindings;
  readonly settings: PlanSettings;
  readonly findFit: boolean; // some region has a size limit
}

/** Drop request `id`: the page no longer wants its answer. */
export interface CancelRequest {
  readonly type: 'cancel';
  readonly id: number;
}

/** Everything the page sends to the worker. */
export type WorkerRequest = OpenRequest | ReinferRequest | ReplanRequest | CompareRequest | SuggestRequest | PlannedTfliteRequest | GrowthRequest | CancelRequest;

/** How far the search of `best` has come while a plan request runs with a budget. */
export interface SearchProgress {
  readonly elapsedMs: number; // since planning began
  readonly budgetMs: number; // the budget of the request (per region)
  readonly peak: number | undefined; // the best peak so far in the region searched; undefined before the search starts
  readonly bound: number | undefined; // the proven lower bound of that region
  readonly stoppable: boolean; // the page can stop it (its stop URL is readable in the worker) and keep the best plan
}

/** How far request `id` has come. */
export interface ProgressResponse {
  readonly type: 'progress';
  readonly id: number;
  readonly fraction: number; // in [0, 1]
  readonly label: string; // what the worker is doing, e.g. "Decoding"
  readonly search?: SearchProgress; // while best searches within a budget
}

/** Milliseconds spent in each phase of a request. */
export interface PhaseTimings {
  readonly decodeMs: number | undefined; // undefined for a re-inference (nothing decoded)
  readonly inferMs: number;
}

/**
 * How planning a model ended. A model whose plan fails still opens: the page
 * shows the model and the planning error.
 */
export type PlanResult =
  | { readonly status: 'planned'; readonly settings: PlanSettings; readonly plan: ModelPlan; readonly ms: number }
  | { readonly status: 'failed'; readonly settings: PlanSettings; readonly error: ErrorData };

/** The answer to an open or reinfer request. */
export interface ResultResponse {
  readonly type: 'result';
  readonly id: number;
  readonly name: string; // the file name the model was opened under
  readonly model: InferredModel;
  readonly timings: PhaseTimings;
  readonly plan: PlanResult;
}

/** The answer to a replan request. */
export interface PlannedResponse {
  readonly type: 'planned';
  readonly id: number;
  readonly plan: PlanResult;
}

/** The peak one strategy reached for the compared settings, or why it failed. */
export type StrategyPeak =
  | {
      readonly strategy: string;
      readonly status: 'planned';
      readonly peak: number;
      readonly lowerBound: number;
      readonly regions: readonly { readonly name: string; readonly peak: number }[];
      readonly ms: number;
    }
  | { readonly strategy: string; readonly status: 'failed'; readonly error: ErrorData };

/** The answer to a compare request: one entry per strategy, in registry order. */
export interface ComparedResponse {
  readonly type: 'compared';
  readonly id: number;
  readonly settings: PlanSettings;
  readonly peaks: readonly StrategyPeak[];
}

/** The answer to a suggest request: the plan's suggestions, largest saving first (as `plan --json` lists them). */
export interface SuggestedResponse {
  readonly type: 'suggested';
  readonly id: number;
  readonly settings: PlanSettings;
  readonly suggestions: readonly Suggestion[];
}

/** The answer to a planned-tflite request: the whole file, transferred. */
export interface PlannedTfliteResponse {
  readonly type: 'planned-tflite';
  readonly id: number;
  readonly bytes: ArrayBuffer;
}

/** One planned value of a growth curve. */
export interface GrowthPoint extends SweepPoint {
  readonly fits: boolean; // every region within its size limit, after spilling
}

/** One point of a growth request, as soon as it is planned (a curve point, or a step of the bisection when `probe`). */
export interface GrowthPointResponse {
  readonly type: 'growth-point';
  readonly id: number;
  readonly point: GrowthPoint;
  readonly probe: boolean; // planned to find where the plan stops fitting, not one of the request's values
}

/** The answer to a growth request: the curve over its values, whether it only grows, and where it crosses the size limits. */
export interface GrownResponse {
  readonly type: 'grown';
  readonly id: number;
  readonly result: SweepResult<GrowthPoint>;
}

/** A request failed; `error` is plain data (code + sentence). */
export interface ErrorResponse {
  readonly type: 'error';
  readonly id: number;
  readonly error: ErrorData;
}

/** Everything the worker sends to the page. */
export type WorkerResponse =
  | ProgressResponse
  | ResultResponse
  | PlannedResponse
  | ComparedResponse
  | SuggestedResponse
  | PlannedTfliteResponse
  | GrowthPointResponse
  | GrownResponse
  | ErrorResponse;

/**
 * Error code of a reinfer or replan that reached a worker holding no decoded model (it was
 * restarted to cancel work). The caller opens the file again.
 */
export const NO_MODEL_CODE = 'no-model';

/** Error code of a compare or suggest dropped because a newer request changed the model or plan, or asked again. */
export const SUPERSEDED_CODE = 'superseded';

/** Label of the decoding phase in progress messages. */
export const DECODE_LABEL = 'Decoding';
/** Label of the inference phase in progress messages. */
export const INFER_LABEL = 'Inferring shapes';
/** Label of the planning phase in progress messages. */
export const PLAN_LABEL = 'Planning memory';
/** Label of the budgeted search in progress messages. */
export const SEARCH_LABEL = 'Searching for a smaller plan';
/** Label of the strategy comparison in progress messages. */
export const COMPARE_LABEL = 'Comparing strategies';
/** Label of the growth curve in progress messages. */
export const GROWTH_LABEL = 'Planning';
/** Label of the suggestion evaluation in progress messages. */
export const SUGGEST_LABEL = 'Evaluating suggestions';
