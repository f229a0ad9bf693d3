// Module worker entry: hands every message to the request handler and posts its
// answers back. All logic lives in handler.ts so it can run without a worker.

import { createRequestHandler } from './handler';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { probeStopUrl } from './stop-signal';

/** The part of DedicatedWorkerGlobalScope this entry uses (the app's tsconfig has DOM types only). */
interface WorkerScope {
  postMessage(message: WorkerResponse, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
}

const scope = self as unknown as WorkerScope;
// Only a worker thread may ask its stop URLs synchronously; the main-thread fallback never does.
const handle = createRequestHandler((response, transfer = []) => scope.postMessage(response, transfer), { probeStop: probeStopUrl });

scope.onmessage = (event) => {
  void handle(event.data);
};
