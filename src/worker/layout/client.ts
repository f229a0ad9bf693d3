// The page's promise API over the graph layout worker. The newest request wins:
// a request sent while another is being laid out terminates the worker (ELK
// cannot be interrupted otherwise) and starts a fresh one. A preview placement
// (the simple layout of a large graph) goes to a callback before the promise
// settles with the final one; past the request's time budget the preview is
// kept as the final placement (with a note) and the worker is restarted.
// Without Worker support the layout runs on this thread.

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
  /** Lays out `graph`; a newer call supersedes this one. After `budgetMs`, a preview already delivered becomes the answer. */
  layout(graph: LayoutGraph, engine?: LayoutEngine, onPreview?: PreviewListener, budgetMs?: number): Promise<LayoutOutcome>;
  /** Stops the worker for good. */
  dispose(): void;
}

interface Pending {
  readonly id: number;
  readonly settle: (outcome: LayoutOutcome) => void;
  readonly onPreview: PreviewListener | undefined;
  readonly started: number;
  readonly budgetMs: number | undefined;
  timer?: ReturnType<typeof setTimeout>;
}

/** Creates a client over a module worker (or this thread without one). */
export function createLayoutClient(): LayoutClient {
  return typeof Worker === 'undefined' ? new LocalClient() : new WorkerClient();
}

class WorkerClient implements LayoutClient {
  private worker: Worker | undefined;
  private pending: Pending | undefined;
  private nextId = 1;

  layout(graph: LayoutGraph, engine: LayoutEngine = 'auto', onPreview?: PreviewListener, budgetMs?: number): Promise<LayoutOutcome> {
    if (this.pending !== undefined) {
      this.pending.settle({ status: 'superseded' });
      this.stop();
    }
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((settle) => {
      this.pending = { id, settle, onPreview, started: performance.now(), budgetMs };
      this.start().postMessage({ type: 'layout', id, graph, engine });
    });
  }

  dispose(): void {
    this.pending?.settle({ status: 'superseded' });
    this.stop();
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'heapscope-layout' });
    worker.onmessage = (event: MessageEvent<LayoutResponse>) => this.answer(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.finish({ status: 'failed', message: event.message || 'the layout worker failed' });
      this.stop();
    };
    this.worker = worker;
    return worker;
  }

  private answer(response: LayoutResponse): void {
    if (this.pending?.id !== response.id) return;
    if (response.type === 'placed' && !response.final) {
      this.pending.onPreview?.(response.placement);
      this.keepPreviewAfterBudget(response.placement);
      return;
    }
    this.finish(response.type === 'placed' ? { status: 'done', placement: response.placement } : { status: 'failed', message: response.message });
  }

  /** ELK cannot be interrupted: past the budget the preview is the answer and the worker is restarted. */
  private keepPreviewAfterBudget(preview: GraphPlacement): void {
    const pending = this.pending!;
    if (pending.budgetMs === undefined) return;
    const left = Math.max(0, pending.budgetMs - (performance.now() - pending.started));
    pending.timer = setTimeout(() => {
      if (this.pending !== pending) return;
      const note = `ELK took more than ${(pending.budgetMs! / 1000).toFixed(1)} s; the ${preview.engine} layout is shown`;
      this.finish({ status: 'done', placement: { ...preview, note } });
      this.stop();
    }, left);
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

  dispose(): void {
    this.latest += 1;
  }
}
