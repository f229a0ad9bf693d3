// The first thing the page does: open the model named by the URL, or the sample,
// with every setting the link carries. A link made for a local file opens
// nothing: the page asks for that file again and applies the link's bindings to it.

import type { AppStore } from '../store/create-store';
import type { UrlParams } from './url-params';

/** Opens `model=` if given, else the sample (or waits for `file=`), with the URL's bindings, target, fields, strategy, budget and selection. */
export async function openInitialModel(store: AppStore, params: UrlParams): Promise<void> {
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
  const more = { shapes: params.shapes, inputValues: params.inputValues };
  if (params.model === undefined && params.file !== undefined) {
    actions.expectFile(params.file, { dims: params.dims, ...more });
    return;
  }
  await (params.model !== undefined ? actions.openUrl(params.model, params.dims, more) : actions.openSample(params.dims, more));
  if (params.selection !== undefined && store.getState().model !== undefined) actions.select(params.selection);
}
