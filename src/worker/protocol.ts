// The messages between the page and the model worker: plain, structured-cloneable
// data only. Depends on model types and shared errors, never on the DOM or UI.

import type { InferredModel } from '../model/inferred';
import type { ErrorData } from '../shared/errors';

/** Values for symbolic dims, by name ("<input>:<axis>" for anonymous dims). */
export type DimValues = Readonly<Record<string, number>>;

/** Decode a model file and infer its shapes. `bytes` is transferred, not copied. */
export interface OpenRequest {
  readonly type: 'open';
  readonly id: number;
  readonly bytes: ArrayBuffer;
  readonly name: string; // the file name, for messages
  readonly dims: DimValues;
}

/** Infer the shapes of the model already decoded by the worker again, with other dims. */
export interface ReinferRequest {
  readonly type: 'reinfer';
  readonly id: number;
  readonly dims: DimValues;
}

/** Drop request `id`: the page no longer wants its answer. */
export interface CancelRequest {
  readonly type: 'cancel';
  readonly id: number;
}

/** Everything the page sends to the worker. */
export type WorkerRequest = OpenRequest | ReinferRequest | CancelRequest;

/** How far request `id` has come. */
export interface ProgressResponse {
  readonly type: 'progress';
  readonly id: number;
  readonly fraction: number; // in [0, 1]
  readonly label: string; // what the worker is doing, e.g. "Decoding"
}

/** Milliseconds spent in each phase of a request. */
export interface PhaseTimings {
  readonly decodeMs: number | undefined; // undefined for a re-inference (nothing decoded)
  readonly inferMs: number;
}

/** The answer to an open or reinfer request. */
export interface ResultResponse {
  readonly type: 'result';
  readonly id: number;
  readonly name: string; // the file name the model was opened under
  readonly model: InferredModel;
  readonly timings: PhaseTimings;
}

/** A request failed; `error` is plain data (code + sentence). */
export interface ErrorResponse {
  readonly type: 'error';
  readonly id: number;
  readonly error: ErrorData;
}

/** Everything the worker sends to the page. */
export type WorkerResponse = ProgressResponse | ResultResponse | ErrorResponse;

/**
 * Error code of a reinfer that reached a worker holding no decoded model (it was
 * restarted to cancel work). The caller opens the file again.
 */
export const NO_MODEL_CODE = 'no-model';

/** Label of the decoding phase in progress messages. */
export const DECODE_LABEL = 'Decoding';
/** Label of the inference phase in progress messages. */
export const INFER_LABEL = 'Inferring shapes';
