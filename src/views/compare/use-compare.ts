// React access to the comparison: one compare store per page store (so every
// view of one page sees the same comparison), created on first use with a
// second model worker that starts only when B is first planned.

import { useCallback } from 'react';
import { useStore } from 'zustand';
import { looksLikePlanFile } from '../../planner/assembly/plan-file';
import type { AppStore } from '../../store/create-store';
import { useActions, useAppStoreApi } from '../../store/context';
import { createModelClient, type ModelClient } from '../../worker/client';
import { createCompareStore, type CompareActions, type CompareState, type CompareStore } from '../../store/compare-store';

const stores = new WeakMap<AppStore, CompareStore>();

/** The comparison of the page whose store is `page`. */
export function compareStoreFor(page: AppStore): CompareStore {
  let store = stores.get(page);
  if (store === undefined) {
    let client: ModelClient | undefined;
    store = createCompareStore({
      page: () => page.getState(),
      client: () => (client ??= createModelClient()),
      releaseClient: () => {
        client?.dispose();
        client = undefined;
      },
      subscribe: (listener) => page.subscribe(listener),
      fetch: (input, init) => window.fetch(input, init),
      baseUrl: window.location.href,
    });
    stores.set(page, store);
  }
  return store;
}

/** Reads a slice of the comparison. */
export function useCompare<T>(selector: (state: CompareState) => T): T {
  return useStore(compareStoreFor(useAppStoreApi()), selector);
}

/** The comparison's actions. */
export function useCompareActions(): CompareActions {
  return useStore(compareStoreFor(useAppStoreApi()), (s) => s.actions);
}

/** How many bytes of a dropped file are read to tell a saved plan from a model. */
const SNIFF_BYTES = 256;

/**
 * Opens a dropped or picked file: a saved plan file in the plan viewer, anything else as a model.
 * A saved plan that cannot be read is refused as a model file is: in the error banner, naming it. Resolves once it
 * is open or refused.
 */
export function useOpenDropped(): (file: File) => Promise<void> {
  const { openFile, dismissError, showFileError } = useActions();
  const { openSavedPlan } = useCompareActions();
  return useCallback(
    (file: File) => {
      const openPlan = (): Promise<void> => {
        // As opening a model does, a new file takes the place of an older file's error.
        dismissError();
        return openSavedPlan(file, file.name, (error) => showFileError(file.name, error));
      };
      return file
        .slice(0, SNIFF_BYTES)
        .arrayBuffer()
        .then(
          (head) => (looksLikePlanFile(new Uint8Array(head)) ? openPlan() : openFile(file)),
          () => openFile(file),
        );
    },
    [openFile, openSavedPlan, dismissError, showFileError],
  );
}
