// What the page publishes for tests and tools outside it (DESIGN.md):
// document.body.dataset.status, window.heapscope.summary(), and the URL, kept
// in step with the view (history.replaceState) so a copied link reopens it.

import type { AppStore } from '../store/create-store';
import { selectPageSummary, selectStatus, type PageSummary } from '../store/selectors';
import type { AppState } from '../store/state';
import { DEFAULT_SETTINGS } from '../worker/plan-names';
import { parseUrlParams, shareSearch, shareableModelUrl, type ShareState } from './url-params';

/** window.heapscope. */
export interface HeapscopePageApi {
  /**
   * The plan on screen: `{ model, nodes, buffers, peak, lowerBound, strategy, fusionUnits, error,
   * complete, fits, warnings, graph }` (warnings: one sentence per line of the assumptions banner;
   * graph: `{ status: 'pending' | 'drawn' | 'simple' | 'none', boxes, ms }`, ms from the plan to its graph drawn).
   */
  summary(): PageSummary;
}

declare global {
  interface Window {
    heapscope?: HeapscopePageApi;
  }
}

/** Publishes the page status, window.heapscope and the URL for `store`; returns a function that stops. */
export function installPageApi(store: AppStore, target: Window = window): () => void {
  const body = target.document.body;
  const embed = parseUrlParams(target.location.search).embed;
  const publish = (): void => {
    const state = store.getState();
    const status = selectStatus(state);
    if (body.dataset.status !== status) body.dataset.status = status;
    syncUrl(state, target, embed);
  };
  publish();
  const unsubscribe = store.subscribe(publish);
  target.heapscope = { summary: () => ({ ...selectPageSummary(store.getState()) }) };
  return () => {
    unsubscribe();
    delete target.heapscope;
  };
}

/** The view a link to `state` reopens; undefined while there is nothing settled to link to. */
export function shareStateOf(state: AppState, pageUrl: string, embed: boolean): ShareState | undefined {
  const { model } = state;
  // While a task runs, or after a failed open, the URL still says what was asked for.
  if (model === undefined || state.task !== undefined) return undefined;
  return {
    model: model.origin === 'url' ? shareableModelUrl(model.url, pageUrl) : undefined,
    file: model.origin === 'file' ? model.name : undefined,
    dims: state.dims,
    shapes: state.shapes,
    inputValues: state.inputValues,
    edits: state.settings.edits,
    budgetMs: state.settings.budgetMs,
    selection: state.selection,
    strategy: state.settings.strategy,
    target: state.settings.target === DEFAULT_SETTINGS.target ? undefined : state.settings.target,
    embed,
  };
}

/** Rewrites the address bar (without a history entry) when the view it describes changed. */
function syncUrl(state: AppState, target: Window, embed: boolean): void {
  const { location, history } = target;
  const share = shareStateOf(state, location.href, embed);
  if (share === undefined) return;
  const search = shareSearch(share, location.search);
  if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}
