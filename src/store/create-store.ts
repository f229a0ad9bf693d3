// The page's zustand store: state slices (model, load, dims, table) and their
// actions. Created once by the app with the real worker client; tests pass fakes.

import { createStore, type StoreApi } from 'zustand/vanilla';
import { createActions, type StoreDeps } from './actions';
import { INITIAL_STATE, type AppState } from './state';

/** The store the views read and the app wires up. */
export type AppStore = StoreApi<AppState>;

/** Creates the store over a worker client and the page's fetch. */
export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((set, get) => ({
    ...INITIAL_STATE,
    actions: createActions({ set, get }, deps),
  }));
}
