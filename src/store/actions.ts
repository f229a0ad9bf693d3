// The store's actions: opening, re-inferring and re-planning models (delegated
// to the ModelLoader) and their strategy comparison, the selection and the tensor table's controls.

import { StrategyComparer } from './comparison';
import { NO_BINDINGS } from './bindings';
import { ModelLoader, type LoaderDeps, type StateAccess } from './model-loader';
import type { AppActions } from './state';

/** What the actions need from the outside; tests pass fakes. */
export type StoreDeps = LoaderDeps;

/** Creates the actions over zustand's set/get. */
export function createActions(state: StateAccess, deps: StoreDeps): AppActions {
  const loader = new ModelLoader(state, deps);
  const comparer = new StrategyComparer(state, deps.client);
  const { set, get } = state;
  // Every task that may put a new plan on screen asks for its strategy comparison after.
  const thenCompare = async (task: Promise<void>): Promise<void> => {
    await task;
    void comparer.refresh();
  };
  return {
    openFile: (file) => thenCompare(loader.open({ kind: 'blob', blob: file, name: file.name }, NO_BINDINGS)),
    openSample: (dims = {}) => thenCompare(loader.open({ kind: 'url', url: deps.sampleUrl, origin: 'sample' }, { ...NO_BINDINGS, dims })),
    openUrl: (url, dims = {}) => thenCompare(loader.open({ kind: 'url', url, origin: 'url' }, { ...NO_BINDINGS, dims })),
    setDim: (name, value) => thenCompare(loader.setDim(name, value)),
    setShape: (name, dims) => thenCompare(loader.setShape(name, dims)),
    setInputValue: (name, values) => thenCompare(loader.setInputValue(name, values)),
    setSettings: (settings) => thenCompare(loader.setSettings(settings)),
    select: (selection) => set({ selection }),
    setGraphDraw: (graph) => set({ graph }),
    cancel: () => loader.cancel(),
    dismissError: () => set({ error: undefined, bindingError: undefined }),
    setQuery: (query) => set({ query }),
    setKindFilter: (kinds) => set({ kinds }),
    setSort(column) {
      const { sort } = get();
      const flip = sort.column === column && sort.direction === 'ascending';
      set({ sort: { column, direction: flip ? 'descending' : 'ascending' } });
    },
  };
}
