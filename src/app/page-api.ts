// What the page publishes for tests and tools outside it (DESIGN.md):
// document.body.dataset.status and window.heapscope.summary().

import type { AppStore } from '../store/create-store';
import { selectPageSummary, selectStatus, type PageSummary } from '../store/selectors';

/** window.heapscope. */
export interface HeapscopePageApi {
  /**
   * The plan on screen: `{ model, nodes, buffers, peak, lowerBound, strategy, fusionUnits, error }`.
   * Until the planner exists, peak, lowerBound and strategy are null and fusionUnits is 0;
   * buffers counts the run-time tensors of known size (what the planner will place).
   */
  summary(): PageSummary;
}

declare global {
  interface Window {
    heapscope?: HeapscopePageApi;
  }
}

/** Publishes the page status and window.heapscope for `store`; returns a function that stops. */
export function installPageApi(store: AppStore, target: Window = window): () => void {
  const body = target.document.body;
  const publish = (): void => {
    const status = selectStatus(store.getState());
    if (body.dataset.status !== status) body.dataset.status = status;
  };
  publish();
  const unsubscribe = store.subscribe(publish);
  target.heapscope = { summary: () => ({ ...selectPageSummary(store.getState()) }) };
  return () => {
    unsubscribe();
    delete target.heapscope;
  };
}
