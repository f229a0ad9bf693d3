// The first thing the page does: open the model named by the URL, or the sample,
// with every setting the link carries, then its view: the selection, the graph's
// groups and an open comparison. A link made for a local file opens nothing:
// the page asks for that file again and applies the link to it once opened.

import type { AppStore } from '../store/create-store';
import type { CompareStore } from '../store/compare-store';
import type { UrlParams } from './url-params';

/**
 * Opens `model=` if given, else the sample (or waits for `file=`), with the URL's bindings, target,
 * fields, strategy, budget, selection, graph groups and, given the page's `compare` store, its comparison.
 */
export async function openInitialModel(store: AppStore, params: UrlParams, compare?: CompareStore): Promise<void> {
  const { actions } = store.getState();
  // With no model shown yet, this only records the settings the first plan is made for.
  const settings = {
    ...(params.target !== undefined && { target: params.target }),
    ...(params.strategy !== undefined && { strategy: params.strategy }),
    ...(params.edits !== undefined && { edits: params.edits }),
    ...(params.budgetMs !== undefined && { budgetMs: params.budgetMs }),
  };
  if (Object.keys(settings).length > 0) void actions.setSettings(settings);
  if (params.ignored.length > 0) console.warn(`heapscope: ignored URL parameters ${params.ignored.join(', ')}`);
  // Taken by the graph of the first model shown.
  if (params.groups !== undefined) actions.setGroups({ model: undefined, ...params.groups, collapsed: [] });
  const more = { shapes: params.shapes, inputValues: params.inputValues };
  if (params.model === undefined && params.file !== undefined) {
    actions.expectFile(params.file, { dims: params.dims, ...more });
    whenFileShown(store, params.file, () => void openView(store, params, compare));
    return;
  }
  await (params.model !== undefined ? actions.openUrl(params.model, params.dims, more) : actions.openSample(params.dims, more));
  await openView(store, params, compare);
}

/** Selects what the link selects and opens its comparison, once its model is on screen. */
async function openView(store: AppStore, params: UrlParams, compare: CompareStore | undefined): Promise<void> {
  const { model, actions } = store.getState();
  if (model === undefined) return;
  if (params.selection !== undefined) actions.select(params.selection);
  // An embedded view has no comparison dialog.
  if (params.compare !== undefined && compare !== undefined && !params.embed) await compare.getState().actions.compareShownAs(params.compare);
}

/** Calls `then` once the local file `name` is opened and shown; stops waiting when another model is shown instead. */
function whenFileShown(store: AppStore, name: string, then: () => void): void {
  const stop = store.subscribe((state) => {
    if (state.task !== undefined || state.model === undefined) return;
    stop();
    if (state.model.origin === 'file' && state.model.name === name) then();
  });
}
