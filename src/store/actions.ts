// The store's actions: opening, re-inferring and re-planning models (delegated
// to the ModelLoader), the selection and the tensor table's controls.

import { ModelLoader, type LoaderDeps, type StateAccess } from './model-loader';
import type { AppActions } from './state';

/** What the actions need from the outside; tests pass fakes. */
export type StoreDeps = LoaderDeps;

/** Creates the actions over zustand's set/get. */
export function createActions(state: StateAccess, deps: StoreDeps): AppActions {
  const loader = new ModelLoader(state, deps);
  const { set, get } = state;
  return {
    openFile: (file) => loader.open({ kind: 'blob', blob: file, name: file.name }, {}),
    openSample: (dims = {}) => loader.open({ kind: 'url', url: deps.sampleUrl, origin: 'sample' }, dims),
    openUrl: (url, dims = {}) => loader.open({ kind: 'url', url, origin: 'url' }, dims),
    setDim: (name, value) => loader.setDim(name, value),
    setSettings: (settings) => loader.setSettings(settings),
    select: (selection) => set({ selection }),
    cancel: () => loader.cancel(),
    dismissError: () => set({ error: undefined }),
    setQuery: (query) => set({ query }),
    setKindFilter: (kinds) => set({ kinds }),
    setSort(column) {
      const { sort } = get();
      const flip = sort.column === column && sort.direction === 'ascending';
      set({ sort: { column, direction: flip ? 'descending' : 'ascending' } });
    },
  };
}
