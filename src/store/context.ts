// React access to the store: the app provides it once, views read slices and
// derived data through useAppStore with a selector.

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './create-store';
import type { AppActions, AppState } from './state';

/** Carries the store from the app shell to the views. */
export const StoreContext = createContext<AppStore | undefined>(undefined);

/** The store provided by the app; fails loudly when a view is rendered outside it. */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (store === undefined) throw new Error('useAppStore needs a StoreContext provider (see src/app/App.tsx)');
  return store;
}

/** Reads a slice or derived value; re-renders when it changes (selectors must return stable objects). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** The store's actions (a stable object). */
export function useActions(): AppActions {
  return useAppStore((state) => state.actions);
}
