// The page's promise API over the model worker. One request is in flight at a
// time: a new open while busy terminates the worker (which really stops the CPU
// work) and starts a fresh one; a plan with a search budget gets a stop URL the
// client revokes to stop its search (stop-signal.ts). Falls back to the main
// thread without Worker.

import type { ErrorData } from '../shared/errors';
import {
  SUPERSEDED_CODE,
  type ComparedResponse,
  type GrowthPoint,
  type GrowthRequest,
  type GrownResponse,
  type SuggestedResponse,
  type ModelBindings,
  type PhaseTimings,
  type PlanResult,
  type PlannedTfliteRequest,
  type PlanSettings,
  type SearchProgress,
  type StopUrl,
  type WorkerRequest,
  type WorkerResponse,
} from './protocol';
import type { InferredModel } from '../model/inferred';

/** A model as the worker answered it. */
export interface ClientResult {
  readonly name: string;
  readonly model: InferredModel;
  readonly timings: PhaseTimings;
  readonly plan: PlanResult;
}

/** How a request ended: done, failed with plain error data, or cancelled by a newer request. */
export type ClientOutcome<T = ClientResult> =
  | { readonly status: 'done'; readonly result: T }
  | { readonly status: 'failed'; readonly error: ErrorData }
  | { readonly status: 'cancelled' };

/** How a replan ended. */
export type PlanOutcome = ClientOutcome<PlanResult>;

/** The strategy comparison as the worker answered it. */
export type Comparison = Pick<ComparedResponse, 'settings' | 'peaks'>;

/** How a compare ended. */
export type CompareOutcome = ClientOutcome<Comparison>;

/** The suggestions of a plan as the worker answered them. */
export type Suggested = Pick<SuggestedResponse, 'settings' | 'suggestions'>;

/** How a suggest ended. */
export type SuggestOutcome = ClientOutcome<Suggested>;

/** Which file a planned .tflite is asked of, and the offsets to write into it. */
export type PlannedTfliteAsk = Omit<PlannedTfliteRequest, 'type' | 'id'>;

/** How a planned-tflite request ended: the file's bytes when done. */
export type PlannedTfliteOutcome = ClientOutcome<ArrayBuffer>;

/** What a growth curve is asked for: the request without its type and id. */
export type GrowthAsk = Omit<GrowthRequest, 'type' | 'id'>;

/** The growth curve as the worker answered it. */
export type Grown = GrownResponse['result'];

/** How a growth request ended. */
export type GrowthOutcome = ClientOutcome<Grown>;

/** Receives each point of a growth curve as soon as it is planned. */
export type GrowthPointListener = (point: GrowthPoint, probe: boolean) => void;

/** Receives progress of the request in flight; `search` while a budgeted search runs. */
export type ProgressListener = (fraction: number, label: string, search?: SearchProgress) => void;

/** The model worker, seen from the page. */
export interface ModelClient {
  /** Decodes, infers and plans a model; an ArrayBuffer is transferred to the worker (detached here), a Blob read there. */
  open(bytes: ArrayBuffer | Blob, name: string, bindings: ModelBindings, settings: PlanSettings, onProgress?: ProgressListener): Promise<ClientOutcome>;
  /** Infers and plans the last opened model again with other dims, shapes or input values, without decoding it again. */
  reinfer(bindings: ModelBindings, settings: PlanSettings, onProgress?: ProgressListener): Promise<ClientOutcome>;
  /** Plans the last inferred model again with other settings, without inferring it again. */
  replan(settings: PlanSettings, onProgress?: ProgressListener): Promise<PlanOutcome>;
  /**
   * Plans the last inferred model with every strategy for `settings`' target. Runs
   * beside the other requests; a newer compare, or a new model, cancels it.
   */
  compare(settings: PlanSettings, onProgress?: ProgressListener): Promise<CompareOutcome>;
  /**
   * Evaluates the suggestions of the plan just made for `settings`, after it. Runs
   * beside the other requests; a newer suggest, a new plan or a new model cancels it.
   */
  suggest(settings: PlanSettings, onProgress?: ProgressListener): Promise<SuggestOutcome>;
  /**
   * The last opened .tflite file with `ask.offsets` written in as its offline plan, built in
   * the worker (which holds the bytes) and transferred. Runs beside the other requests;
   * fails with NO_MODEL_CODE when the worker holds another file or none.
   */
  plannedTflite(ask: PlannedTfliteAsk): Promise<PlannedTfliteOutcome>;
  /**
   * Plans the last inferred model at each value of an axis, after the plan on
   * screen, reporting each point as it comes. Runs beside the other requests; a
   * newer growth, a new plan or a new model cancels it, as does cancelGrowth.
   */
  growth(ask: GrowthAsk, onPoint: GrowthPointListener, onProgress?: ProgressListener): Promise<GrowthOutcome>;
  /** Cancels the growth curve in flight, if any; its points so far stay with the caller. */
  cancelGrowth(): void;
  /** Cancels the request in flight (not a comparison or suggestions), if any. */
  cancel(): void;
  /**
   * Stops the search of the plan request in flight, which then answers with the
   * best plan found so far; false when that request has no search to stop.
   */
  stopSearch(): boolean;
  /** Stops the worker for good. */
  dispose(): void;
}

/** A channel to a request handler: a real worker or the main-thread fallback. */
export interface RequestPort {
  post(request: WorkerRequest, transfer: Transferable[]): void;
  terminate(): void;
}

/** Opens a port; `onCrash` is called when the port dies on its own. */
export type PortFactory = (onResponse: (response: WorkerResponse) => void, onCrash: (message: string) => void) => RequestPort;

/** Makes and revokes the stop URLs of budgeted plan requests. */
export interface StopUrls {
  /** A fresh URL, or undefined where none can be made. */
  create(): StopUrl | undefined;
  revoke(url: StopUrl): void;
}

/** Blob URLs of an empty blob; none without URL.createObjectURL. */
export const BLOB_STOP_URLS: StopUrls = {
  create: () => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(new Blob([])) : undefined),
  revoke: (url) => URL.revokeObjectURL(url),
};

interface Pending {
  readonly id: number;
  readonly kind: 'open' | 'reinfer' | 'replan';
  readonly settle: (outcome: ClientOutcome<ClientResult | PlanResult>) => void;
  readonly onProgress: ProgressListener | undefined;
  stop: StopUrl | undefined; // revoked (and cleared) to stop the search
}

/** A request that runs beside the plan requests: the strategy comparison, the suggestions, a planned .tflite or a growth curve. */
type SideKind = 'compare' | 'suggest' | 'planned-tflite' | 'growth';

/** What side requests answer. */
type SideAnswer = Comparison | Suggested | ArrayBuffer | Grown;

const SIDE_KINDS: readonly SideKind[] = ['compare', 'suggest', 'planned-tflite', 'growth'];

interface SideRequest {
  readonly id: number;
  readonly settle: (outcome: ClientOutcome<SideAnswer>) => void;
  readonly onProgress: ProgressListener | undefined;
  readonly onPoint?: GrowthPointListener; // a growth curve's
}

/** Creates the client; `portFactory` defaults to a module worker, or the main thread without one. */
export function createModelClient(portFactory: PortFactory = defaultPortFactory, stopUrls: StopUrls = BLOB_STOP_URLS): ModelClient {
  return new PortClient(portFactory, stopUrls);
}

/** The client over one port at a time; the port is replaced when work must really stop. */
class PortClient implements ModelClient {
  private port: RequestPort | undefined;
  private pending: Pending | undefined;
  private readonly side: Partial<Record<SideKind, SideRequest>> = {};
  private nextId = 1;

  constructor(
    private readonly portFactory: PortFactory,
    private readonly stopUrls: StopUrls,
  ) {}

  open(bytes: ArrayBuffer | Blob, name: string, bindings: ModelBindings, settings: PlanSettings, onProgress?: ProgressListener): Promise<ClientOutcome> {
    this.cancelSide('compare');
    this.cancelSide('suggest');
    this.cancelSide('growth');
    if (this.pending !== undefined) this.restart();
    const transfer = bytes instanceof ArrayBuffer ? [bytes] : [];
    return this.send<ClientResult>('open', settings, (id, stop) => ({ type: 'open', id, bytes, name, ...bindings, settings, ...stop }), transfer, onProgress);
  }

  reinfer(bindings: ModelBindings, settings: PlanSettings, onProgress?: ProgressListener): Promise<ClientOutcome> {
    this.cancel();
    this.cancelSide('compare');
    this.cancelSide('suggest');
    this.cancelSide('growth');
    return this.send<ClientResult>('reinfer', settings, (id, stop) => ({ type: 'reinfer', id, ...bindings, settings, ...stop }), [], onProgress);
  }

  replan(settings: PlanSettings, onProgress?: ProgressListener): Promise<PlanOutcome> {
    this.cancel();
    this.cancelSide('suggest');
    this.cancelSide('growth');
    return this.send<PlanResult>('replan', settings, (id, stop) => ({ type: 'replan', id, settings, ...stop }), [], onProgress);
  }

  compare(settings: PlanSettings, onProgress?: ProgressListener): Promise<CompareOutcome> {
    return this.sendSide<Comparison>('compare', (id) => ({ type: 'compare', id, settings }), onProgress);
  }

  suggest(settings: PlanSettings, onProgress?: ProgressListener): Promise<SuggestOutcome> {
    return this.sendSide<Suggested>('suggest', (id) => ({ type: 'suggest', id, settings }), onProgress);
  }

  plannedTflite(ask: PlannedTfliteAsk): Promise<PlannedTfliteOutcome> {
    return this.sendSide<ArrayBuffer>('planned-tflite', (id) => ({ type: 'planned-tflite', id, ...ask }), undefined);
  }

  growth(ask: GrowthAsk, onPoint: GrowthPointListener, onProgress?: ProgressListener): Promise<GrowthOutcome> {
    return this.sendSide<Grown>('growth', (id) => ({ type: 'growth', id, ...ask }), onProgress, onPoint);
  }

  cancelGrowth(): void {
    this.cancelSide('growth');
  }

  cancel(): void {
    if (this.pending === undefined) return;
    if (this.pending.kind === 'open') {
      this.restart();
      return;
    }
    this.port?.post({ type: 'cancel', id: this.pending.id }, []);
    this.settle({ status: 'cancelled' });
  }

  stopSearch(): boolean {
    const pending = this.pending;
    if (pending?.stop === undefined) return false;
    this.stopUrls.revoke(pending.stop);
    pending.stop = undefined;
    return true;
  }

  dispose(): void {
    this.restart();
  }

  /** Sends a plan request; one with a search budget carries a fresh stop URL. */
  private send<T extends ClientResult | PlanResult>(
    kind: Pending['kind'],
    settings: PlanSettings,
    build: (id: number, stop: { stop?: StopUrl }) => WorkerRequest,
    transfer: Transferable[],
    onProgress?: ProgressListener,
  ): Promise<ClientOutcome<T>> {
    const id = this.nextId++;
    const stop = settings.budgetMs === undefined ? undefined : this.stopUrls.create();
    return new Promise<ClientOutcome<T>>((resolve) => {
      // The answer's type follows the request's: 'planned' answers replan, 'result' the others.
      const settle = resolve as (outcome: ClientOutcome<ClientResult | PlanResult>) => void;
      this.pending = { id, kind, settle, onProgress, stop };
      this.ensurePort().post(build(id, stop === undefined ? {} : { stop }), transfer);
    });
  }

  private ensurePort(): RequestPort {
    this.port ??= this.portFactory(
      (response) => this.onResponse(response),
      (message) => this.onCrash(message),
    );
    return this.port;
  }

  /** Sends a side request, replacing the one of its kind in flight (the worker drops that one itself). */
  private sendSide<T extends SideAnswer>(kind: SideKind, build: (id: number) => WorkerRequest, onProgress: ProgressListener | undefined, onPoint?: GrowthPointListener): Promise<ClientOutcome<T>> {
    this.settleSide(kind, { status: 'cancelled' });
    const id = this.nextId++;
    return new Promise<ClientOutcome<T>>((resolve) => {
      this.side[kind] = { id, settle: resolve as SideRequest['settle'], onProgress, ...(onPoint !== undefined && { onPoint }) };
      this.ensurePort().post(build(id), []);
    });
  }

  private onResponse(response: WorkerResponse): void {
    const kind = SIDE_KINDS.find((k) => this.side[k]?.id === response.id);
    if (kind !== undefined) {
      this.onSideResponse(kind, response);
      return;
    }
    const pending = this.pending;
    if (pending === undefined || response.id !== pending.id) return;
    if (response.type === 'progress') pending.onProgress?.(response.fraction, response.label, response.search);
    else if (response.type === 'error') this.settle({ status: 'failed', error: response.error });
    else if (response.type === 'planned') this.settle({ status: 'done', result: response.plan });
    else if (response.type === 'result') this.settle({ status: 'done', result: { name: response.name, model: response.model, timings: response.timings, plan: response.plan } });
  }

  private onSideResponse(kind: SideKind, response: WorkerResponse): void {
    if (response.type === 'progress') this.side[kind]?.onProgress?.(response.fraction, response.label);
    else if (response.type === 'growth-point') this.side[kind]?.onPoint?.(response.point, response.probe);
    else if (response.type === 'grown') this.settleSide(kind, { status: 'done', result: response.result });
    else if (response.type === 'compared') this.settleSide(kind, { status: 'done', result: { settings: response.settings, peaks: response.peaks } });
    else if (response.type === 'suggested') this.settleSide(kind, { status: 'done', result: { settings: response.settings, suggestions: response.suggestions } });
    else if (response.type === 'planned-tflite') this.settleSide(kind, { status: 'done', result: response.bytes });
    else if (response.type === 'error') {
      this.settleSide(kind, response.error.code === SUPERSEDED_CODE ? { status: 'cancelled' } : { status: 'failed', error: response.error });
    }
  }

  private onCrash(message: string): void {
    this.port = undefined;
    const error = { code: 'internal', message: `the model worker stopped: ${message}` };
    this.settle({ status: 'failed', error });
    for (const kind of SIDE_KINDS) this.settleSide(kind, { status: 'failed', error });
  }

  /** Terminates the port (stopping its work) and cancels the request in flight. */
  private restart(): void {
    this.port?.terminate();
    this.port = undefined;
    this.settle({ status: 'cancelled' });
    for (const kind of SIDE_KINDS) this.settleSide(kind, { status: 'cancelled' });
  }

  /** Drops the side request of `kind` in flight: the model or plan it is about is being replaced. */
  private cancelSide(kind: SideKind): void {
    const request = this.side[kind];
    if (request === undefined) return;
    this.port?.post({ type: 'cancel', id: request.id }, []);
    this.settleSide(kind, { status: 'cancelled' });
  }

  private settleSide(kind: SideKind, outcome: ClientOutcome<SideAnswer>): void {
    const request = this.side[kind];
    delete this.side[kind];
    request?.settle(outcome);
  }

  private settle(outcome: ClientOutcome<ClientResult | PlanResult>): void {
    const pending = this.pending;
    this.pending = undefined;
    // A settled request's search has ended, or must: a cancelled one stops at once.
    if (pending?.stop !== undefined) this.stopUrls.revoke(pending.stop);
    pending?.settle(outcome);
  }
}

/** A module worker when the browser has Worker, else the main-thread fallback. */
export const defaultPortFactory: PortFactory = (onResponse, onCrash) => {
  if (typeof Worker === 'undefined') return createLocalPort(onResponse);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'heapscope-model' });
  } catch {
    return createLocalPort(onResponse);
  }
  worker.onmessage = (event: MessageEvent<WorkerResponse>) => onResponse(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onCrash(event.message || 'the worker script failed');
  };
  worker.onmessageerror = () => onCrash('a message could not be read');
  return {
    post: (request, transfer) => worker.postMessage(request, transfer),
    terminate: () => worker.terminate(),
  };
};

/**
 * Runs the handler on this thread, answering asynchronously like a worker. The
 * handler (and the whole model layer) is loaded on first use, so pages with
 * Worker support never download it twice. A terminated local port cannot stop
 * work already running; it drops its answers.
 */
export function createLocalPort(onResponse: (response: WorkerResponse) => void): RequestPort {
  let alive = true;
  const handler = import('./handler').then(({ createRequestHandler }) =>
    createRequestHandler((response) => {
      if (alive) onResponse(response);
    }),
  );
  return {
    post: (request) => {
      void handler.then((handle) => (alive ? handle(request) : undefined));
    },
    terminate: () => {
      alive = false;
    },
  };
}
