// Entry point of the page: wires the worker client into the store, publishes
// the page status and window.heapscope, renders the app and opens the first model.

// The base styles come first so that the views' own styles override them.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installPageApi } from './app/page-api';
import { openInitialModel } from './app/startup';
import { parseUrlParams } from './app/url-params';
import { createAppStore } from './store/create-store';
import { compareStoreFor } from './views/compare/use-compare';
import { createModelClient } from './worker/client';

const params = parseUrlParams(window.location.search);
const store = createAppStore({
  client: createModelClient(),
  fetch: (input, init) => window.fetch(input, init),
  baseUrl: window.location.href,
  sampleUrl: new URL(`${import.meta.env.BASE_URL}sample.onnx`, window.location.href).href,
});
const compare = compareStoreFor(store);
installPageApi(store, window, compare);
if (new URLSearchParams(window.location.search).get('bench') === '1') void import('./app/bench-hook').then((m) => m.installBenchHook(store));

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App store={store} embed={params.embed} panes={params.panes} />
  </StrictMode>,
);
void openInitialModel(store, params, compare);
