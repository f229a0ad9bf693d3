// Module worker entry of the graph layout: lays out each graph it is sent with
// engine.ts and posts the placement back. Separate from the model worker.

import { prepareElk, runLayout, runLayoutSteps } from './engine';
import type { LayoutGraph, LayoutRequest, LayoutResponse } from './protocol';

const WARM_UP: LayoutGraph = {
  boxes: [{ id: 'a', width: 80, height: 40 }, { id: 'g', width: 80, height: 40, children: [{ id: 'b', width: 80, height: 40 }, { id: 'c', width: 80, height: 40 }] }],
  links: [{ id: 'e1', source: 'a', target: 'b', label: { text: 'x', width: 20, height: 14 } }, { id: 'e2', source: 'b', target: 'c' }],
};

/** The part of DedicatedWorkerGlobalScope this entry uses (the app's tsconfig has DOM types only). */
interface WorkerScope {
  postMessage(message: LayoutResponse): void;
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
}

const scope = self as unknown as WorkerScope;

// elkjs' bundled build installs its own message handler when its engine is first created in a
// worker: create it first, then replace that handler with this one.
prepareElk();
// A first ELK layout compiles its code: done now, while the page is still decoding and planning,
// a cold ELK takes seconds even on a graph of a dozen boxes.
void runLayout(WARM_UP, 'elk').catch(() => undefined);
scope.onmessage = (event) => {
  const { id, graph, engine } = event.data;
  runLayoutSteps(graph, engine, (placement, final) => scope.postMessage({ type: 'placed', id, placement, final })).catch(
    (error: unknown) => scope.postMessage({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) }),
  );
};
