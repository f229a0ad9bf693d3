// The store's actions: opening, re-inferring and re-planning models (delegated
// to the ModelLoader), their strategy comparison and suggestions, a .tflite model
// with its plan written in, the selection and the tensor table's controls.

import { StrategyComparer } from './comparison';
import { GrowthSweeper } from './growth';
import { NO_BINDINGS } from './bindings';
import { nextSort } from '../shared/sort-order';
import { ModelLoader, type LoaderDeps, type StateAccess } from './model-loader';
import { plannedTfliteFile } from './planned-tflite';
import { SuggestionEvaluator } from './suggestions';
import type { AppActions } from './state';

/** What the actions need from the outside; tests pass fakes. */
export type StoreDeps = LoaderDeps;

/** Creates the actions over zustand's set/get. */
export function createActions(state: StateAccess, deps: StoreDeps): AppActions {
  const loader = new ModelLoader(state, deps);
  const comparer = new StrategyComparer(state, deps.client);
  const suggester = new SuggestionEvaluator(state, deps.client);
  const grower = new GrowthSweeper(state, deps.client);
  const { set, get } = state;
  // Every task that may put a new plan on screen asks for its suggestions and strategy comparison after.
  const thenCompare = async (task: Promise<void>): Promise<void> => {
    await task;
    void suggester.refresh();
    void comparer.refresh();
  };
  return {
    openFile: (file) => {
      // A link made for this local file brings its bindings; any other file opens plain.
      const expected = get().expectedFile;
      const bindings = expected?.name === file.name ? { ...NO_BINDINGS, ...expected.bindings } : NO_BINDINGS;
      if (expected !== undefined) set({ expectedFile: undefined });
      return thenCompare(loader.open({ kind: 'blob', blob: file, name: file.name }, bindings));
    },
    openSample: (dims = {}, more = {}) => thenCompare(loader.open({ kind: 'url', url: deps.sampleUrl, origin: 'sample' }, { ...NO_BINDINGS, ...more, dims })),
    openUrl: (url, dims = {}, more = {}, openPlan) => thenCompare(loader.open({ kind: 'url', url, origin: 'url' }, { ...NO_BINDINGS, ...more, dims }, openPlan)),
    expectFile: (name, bindings) => set({ expectedFile: { name, bindings } }),
    setDim: (name, value) => thenCompare(loader.setDim(name, value)),
    setShape: (name, dims) => thenCompare(loader.setShape(name, dims)),
    setInputValue: (name, values) => thenCompare(loader.setInputValue(name, values)),
    setSettings: (settings) => thenCompare(loader.setSettings(settings)),
    select: (selection) => set({ selection, selectionLost: undefined }),
    setGraphDraw: (graph) => set({ graph }),
    setGroups: (groups) => set({ groups }),
    plannedTflite: () => plannedTfliteFile({ get, client: deps.client, reopen: () => loader.reopen() }),
    sweepGrowth: (axis, values, again = false) => void grower.sweep(axis, values, again),
    cancelGrowth: () => grower.cancel(),
    setGrowthRangeError: (message) => {
      if (get().growthRangeError !== message) set({ growthRangeError: message });
    },
    setGrowthRefused: (message) => {
      if (get().growthRefused !== message) set({ growthRefused: message });
    },
    cancel: () => loader.cancel(),
    stopSearch: () => loader.stopSearch(),
    dismissError: () => set({ error: undefined, bindingError: undefined }),
    showFileError: (name, error) => set({ error: { code: error.code, message: error.message, file: name, task: 'open' } }),
    noteLinkLeftOut: (entries, bindings = []) => {
      if (entries.length > 0) set({ linkLeftOut: [...get().linkLeftOut, ...entries] });
      if (bindings.length > 0) set({ linkLeftOutBindings: [...get().linkLeftOutBindings, ...bindings] });
    },
    noteLinkOtherFile: (line) => set({ linkOtherFile: line }),
    setQuery: (query) => set({ query }),
    setKindFilter: (kinds) => set({ kinds }),
    setSort: (column) => set({ sort: nextSort(get().sort, column) }),
  };
}
