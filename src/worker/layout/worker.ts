// Module worker entry of the graph layout: lays out each graph it is sent with
// engine.ts and posts the placement back. Separate from the model worker.

import { prepareElk, runLayoutSteps } from './engine';
import type { LayoutRequest, LayoutResponse } from './protocol';

/** The part of DedicatedWorkerGlobalScope this entry uses (the app's tsconfig has DOM types only). */
interface WorkerScope {
  postMessage(message: LayoutResponse): void;
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
}

const scope = self as unknown as WorkerScope;

// elkjs' bundled build installs its own message handler when its engine is first created in a
// worker: create it first, then replace that handler with this one.
prepareElk();
scope.onmessage = (event) => {
  const { id, graph, engine } = event.data;
  runLayoutSteps(graph, engine, (placement, final) => scope.postMessage({ type: 'placed', id, placement, final })).catch(
    (error: unknown) => scope.postMessage({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) }),
  );
};
