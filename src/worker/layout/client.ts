// The page's promise API over the graph layout worker. The newest request wins:
// a request sent while the worker is still busy terminates it (ELK cannot be
// interrupted otherwise) and starts a fresh one. A preview placement (the
// layered layout of a graph ELK lays out) goes to a callback before the
// promise settles with the final one; past the request's time budget (from
// the preview) the preview is kept as the final placement (with a note) and ELK is left to
// finish, so the worker stays warm for the next request instead of being
// restarted cold (a cold ELK is several times slower, and a restart can fail
// to load the worker's script). While ELK finishes in the background, a spare
// worker starts and warms up: a request that comes before ELK is done
// terminates the busy worker and goes to the spare at once, instead of
// waiting for a cold one (seconds, even for a graph of three boxes). When the
// worker fails, the request is laid
// out on this thread with the layered layout. Without Worker support every
// layout runs on this thread.

import { layeredLayout } from './layered';
import type { GraphPlacement, LayoutEngine, LayoutGraph, LayoutResponse } from './protocol';

/** Receives a preview placement while the final one is being made. */
export type PreviewListener = (placement: GraphPlacement) => void;

/** How a layout request ended. */
export type LayoutOutcome =
  | { readonly status: 'done'; readonly placement: GraphPlacement }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'superseded' };

/** The layout worker, seen from the page. */
export interface LayoutClient {
  /** Lays out `graph`; a newer call supersedes this one. `budgetMs` after a preview, the preview becomes the answer. */
  layout(graph: LayoutGraph, engine?: LayoutEngine, onPreview?: PreviewListener, budgetMs?: number): Promise<LayoutOutcome>;
  /** Starts the worker ahead of the first request, so that ELK is compiled by then. */
  warm(): void;
  /** Stops the worker for good. */
  dispose(): void;
}

interface Pending {
  readonly id: number;
  readonly settle: (outcome: LayoutOutcome) => void;
  readonly onPreview: PreviewListener | undefined;
  readonly started: number;
  readonly budgetMs: number | undefined;
  readonly graph: LayoutGraph;
  timer?: ReturnType<typeof setTimeout>;
}

/** The part of a Worker the client uses. */
export type LayoutWorker = Pick<Worker, 'postMessage' | 'terminate' | 'onmessage' | 'onerror'>;

/** Creates a client over a module worker made by `spawn` (or on this thread without Worker support). */
export function createLayoutClient(spawn?: () => LayoutWorker): LayoutClient {
  if (spawn !== undefined) return new WorkerClient(spawn);
  if (typeof Worker === 'undefined') return new LocalClient();
  return new WorkerClient(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'heapscope-layout' }));
}

class WorkerClient implements LayoutClient {
  private worker: LayoutWorker | undefined;
  private spare: LayoutWorker | undefined; // started while the worker finishes an answered layout; takes over if a request comes first
  private pending: Pending | undefined;
  private busy: number | undefined; // the request the worker is still working on, answered or not
  private nextId = 1;

  constructor(private readonly spawn: () => LayoutWorker) {}

  layout(graph: LayoutGraph, engine: LayoutEngine = 'auto', onPreview?: PreviewListener, budgetMs?: number): Promise<LayoutOutcome> {
    if (this.pending !== undefined) this.pending.settle({ status: 'superseded' });
    if (this.busy !== undefined) this.stop();
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((settle) => {
      this.pending = { id, settle, onPreview, started: performance.now(), budgetMs, graph };
      this.busy = id;
      this.start().postMessage({ type: 'layout', id, graph, engine });
    });
  }

  warm(): void {
    this.start();
  }

  dispose(): void {
    this.pending?.settle({ status: 'superseded' });
    this.stop();
    this.dropSpare();
  }

  private start(): LayoutWorker {
    if (this.worker !== undefined) return this.worker;
    const worker = this.spare ?? this.spawn();
    this.spare = undefined;
    worker.onmessage = (event: MessageEvent<LayoutResponse>) => this.answer(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.workerFailed(event.message || 'its script did not load or it ran out of memory');
    };
    this.worker = worker;
    return worker;
  }

  /** A dead worker is replaced on the next request; the pending one is laid out here with the layered layout. */
  private workerFailed(reason: string): void {
    const pending = this.pending;
    this.stop();
    if (pending === undefined) return;
    this.pending = pending;
    try {
      const { stats: _stats, ...placed } = layeredLayout(pending.graph);
      const note = `the layout worker failed (${reason}); the layered layout was made on the page`;
      this.finish({ status: 'done', placement: { ...placed, engine: 'layered', ms: performance.now() - pending.started, note } });
    } catch (error) {
      this.finish({ status: 'failed', message: `the layout worker failed (${reason}), and so did the layered layout: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  /** Starts a spare worker, which warms ELK up while the busy one finishes. */
  private prepareSpare(): void {
    if (this.spare !== undefined) return;
    const spare = this.spawn();
    spare.onmessage = null;
    spare.onerror = (event) => {
      event.preventDefault();
      if (this.spare === spare) this.spare = undefined;
      spare.terminate();
    };
    this.spare = spare;
  }

  private dropSpare(): void {
    this.spare?.terminate();
    this.spare = undefined;
  }

  private answer(response: LayoutResponse): void {
    const last = response.type === 'failed' || response.final;
    if (last && this.busy === response.id) {
      this.busy = undefined;
      this.dropSpare(); // the worker is free again, and warm
    }
    if (this.pending?.id !== response.id) return;
    if (response.type === 'placed' && !response.final) {
      this.pending.onPreview?.(response.placement);
      this.keepPreviewAfterBudget(response.placement);
      return;
    }
    this.finish(response.type === 'placed' ? { status: 'done', placement: response.placement } : { status: 'failed', message: response.message });
  }

  /**
   * Past the budget, counted from the preview (when ELK starts: time the worker spent starting or
   * on an older layout is not ELK's), the preview is the answer; ELK finishes in the background
   * unless a newer request needs the worker.
   */
  private keepPreviewAfterBudget(preview: GraphPlacement): void {
    const pending = this.pending!;
    if (pending.budgetMs === undefined) return;
    pending.timer = setTimeout(() => {
      if (this.pending !== pending) return;
      const note = `ELK took more than ${(pending.budgetMs! / 1000).toFixed(1)} s; the ${preview.engine} layout is shown`;
      this.finish({ status: 'done', placement: { ...preview, note } });
      if (this.busy === pending.id) this.prepareSpare();
    }, pending.budgetMs);
  }

  private finish(outcome: LayoutOutcome): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending?.timer !== undefined) clearTimeout(pending.timer);
    pending?.settle(outcome);
  }

  private stop(): void {
    if (this.pending?.timer !== undefined) clearTimeout(this.pending.timer);
    this.pending = undefined;
    this.busy = undefined;
    this.worker?.terminate();
    this.worker = undefined;
  }
}

/** Lays out on this thread; only the newest answer is delivered. */
class LocalClient implements LayoutClient {
  private latest = 0;

  async layout(graph: LayoutGraph, engine: LayoutEngine = 'auto', onPreview?: PreviewListener): Promise<LayoutOutcome> {
    this.latest += 1;
    const mine = this.latest;
    try {
      const { runLayoutSteps } = await import('./engine');
      let placement: GraphPlacement | undefined;
      await runLayoutSteps(graph, engine, (p, final) => {
        if (final) placement = p;
        else if (mine === this.latest) onPreview?.(p);
      });
      return mine === this.latest && placement !== undefined ? { status: 'done', placement } : { status: 'superseded' };
    } catch (error) {
      return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }

  warm(): void {}

  dispose(): void {
    this.latest += 1;
  }
}
