// The first thing the page does: open the model named by the URL, or the sample.

import type { AppStore } from '../store/create-store';
import type { UrlParams } from './url-params';

/** Opens `model=` if given, else the sample, with the URL's dim bindings, target and strategy. */
export function openInitialModel(store: AppStore, params: UrlParams): Promise<void> {
  const { actions } = store.getState();
  // With no model shown yet, this only records the settings the first plan is made for.
  const settings = { ...(params.target !== undefined && { target: params.target }), ...(params.strategy !== undefined && { strategy: params.strategy }) };
  if (Object.keys(settings).length > 0) void actions.setSettings(settings);
  if (params.ignored.length > 0) console.warn(`heapscope: ignored URL parameters ${params.ignored.join(', ')} (dims take whole numbers)`);
  return params.model !== undefined ? actions.openUrl(params.model, params.dims) : actions.openSample(params.dims);
}
