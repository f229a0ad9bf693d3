// What the page publishes for tests and tools outside it (DESIGN.md):
// document.body.dataset.status, window.heapscope.summary(), and the URL, kept
// in step with the view (history.replaceState) so a copied link reopens it.

import type { AppStore } from '../store/create-store';
import { selectGrowthSummary, type GrowthSummary } from '../store/growth';
import { savedPlanSummary, selectPageSummary, selectStatus, type PageSummary } from '../store/selectors';
import type { AppState, GroupView } from '../store/state';
import { DEFAULT_SETTINGS } from '../settings/names';
import { shownSavedPlan, type CompareState, type CompareStore } from '../store/compare-store';
import { compareSummary, type CompareSummary } from '../views/compare/compare-summary';
import { parseUrlParams, shareSearch, shareableModelUrl, type ShareState } from './url-params';

/** window.heapscope. */
export interface HeapscopePageApi {
  /**
   * The plan on screen (a saved plan in the plan viewer, while one is shown alone; then growth and compare are null, settings null, graph 'none'): `{ model, format, nodes, buffers, peak, lowerBound, strategy, fusionUnits, error,
   * complete, fits, lowerEstimate, warnings, graph, regions }` (format: 'onnx' or 'tflite', null without a model; warnings: one sentence per banner line, the red "Does not fit" verdict first, then the assumptions banner's;
   * lowerEstimate: as `plan --json`'s, fits holds only as far as known; graph: `{ status: 'pending' | 'drawn' | 'simple' | 'none', boxes, ms, collapsed }`, ms from the plan to its
   * graph drawn, collapsed the ids of the collapsed groups; regions: per region `{ name, peak, lowerBound, sizeLimit, overBy, spilled }` as
   * `plan --json` gives them), settings, and compare: the open comparison
   * (`{ peakA, peakB, strategy, target, settings }`, B's) or null; growth: the Growth view's curve of the plan
   * on screen (`{ dim, status, current, points: [{ value, peak, lowerBound, complete, fits }], fitsUpTo, monotonic, assumed, assumes, rangeError, error }`) or null.
   */
  summary(): PageSummary & { readonly compare: CompareSummary | null; readonly growth: GrowthSummary | null };
}

declare global {
  interface Window {
    heapscope?: HeapscopePageApi;
  }
}

/**
 * Publishes the page status, window.heapscope and the URL for `store` (and its
 * comparison, `compare`, when the page has one); returns a function that stops.
 */
export function installPageApi(store: AppStore, target: Window = window, compare?: CompareStore): () => void {
  const body = target.document.body;
  const embed = parseUrlParams(target.location.search).embed;
  const publish = (): void => {
    const state = store.getState();
    // a saved plan in the plan viewer is the plan on screen, over whatever model the page holds (or none)
    const status = compare !== undefined && shownSavedPlan(compare.getState()) !== undefined ? 'ready' : selectStatus(state);
    if (body.dataset.status !== status) body.dataset.status = status;
    syncUrl(state, compare?.getState(), target, embed);
  };
  publish();
  const unsubscribe = store.subscribe(publish);
  const unsubscribeCompare = compare?.subscribe(publish);
  target.heapscope = {
    summary: () => {
      const saved = compare === undefined ? undefined : shownSavedPlan(compare.getState());
      if (saved !== undefined) return { ...savedPlanSummary(saved), compare: null, growth: null };
      return { ...selectPageSummary(store.getState()), compare: compare === undefined ? null : compareSummary(compare.getState()), growth: selectGrowthSummary(store.getState()) };
    },
  };
  return () => {
    unsubscribe();
    unsubscribeCompare?.();
    delete target.heapscope;
  };
}

/** The view a link to `state` reopens; undefined while there is nothing settled to link to. */
export function shareStateOf(state: AppState, pageUrl: string, embed: boolean, compare?: Pick<CompareState, 'b' | 'sideB'>): ShareState | undefined {
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
    groups: linkedGroups(state),
    strategy: state.settings.strategy,
    target: state.settings.target === DEFAULT_SETTINGS.target ? undefined : state.settings.target,
    ...(compare?.b !== undefined && compare.sideB !== undefined && { compare: compare.sideB }),
    embed,
  };
}

/** The graph's groups a link carries: those reported for the model on screen, or those a link asked for and no graph took yet. */
function linkedGroups(state: AppState): GroupView | undefined {
  const { groups } = state;
  if (groups.model !== undefined && groups.model !== state.model?.inferred) return undefined;
  return { from: groups.from, open: groups.open, closed: groups.closed };
}

/** Rewrites the address bar (without a history entry) when the view it describes changed. */
function syncUrl(state: AppState, compare: CompareState | undefined, target: Window, embed: boolean): void {
  const { location, history } = target;
  const share = shareStateOf(state, location.href, embed, compare);
  if (share === undefined) return;
  const search = shareSearch(share, location.search);
  if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}
