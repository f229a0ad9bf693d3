import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../store/create-store';
import { createFakeClient } from '../store/testing/fake-client';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CompareState, CompareStore } from '../store/compare-store';
import { installPageApi } from './page-api';
import type { PlanFile } from '../planner/assembly/plan-file';

/** The parts of a window the page API uses, with an address bar that replaceState rewrites. */
function fakeWindow(href: string) {
  const location = new URL(href);
  const writes: string[] = [];
  const target = {
    document: { body: { dataset: {} as Record<string, string> } },
    location,
    history: {
      state: undefined,
      replaceState(_state: unknown, _title: string, url: string) {
        writes.push(url);
        location.href = new URL(url, location.href).href;
      },
    },
  };
  return { target: target as unknown as Window, location, writes, body: target.document.body };
}

/** A comparison store holding only state: what the page API reads of a comparison. */
function fakeCompare(): StoreApi<Partial<CompareState>> {
  return createStore<Partial<CompareState>>()(() => ({ a: undefined, b: undefined, sideB: undefined }));
}

function setup(href: string) {
  const client = createFakeClient();
  const fetchFn = (async (url: string | URL | Request) => new Response(`served:${String(url)}`)) as typeof fetch;
  const store = createAppStore({ client, fetch: fetchFn, baseUrl: href, sampleUrl: 'https://app.example/sample.onnx' });
  const win = fakeWindow(href);
  const compare = fakeCompare();
  const stop = installPageApi(store, win.target, compare as unknown as CompareStore);
  return { store, client, actions: store.getState().actions, stop, compare, ...win };
}

describe('the page URL follows the view', () => {
  it('writes the model URL (by path on this origin), dims and settings once the model is shown', async () => {
    const { actions, location, writes, body, client } = setup('https://app.example/?utm=docs');
    client.hold = true;
    const opening = actions.openUrl('https://app.example/models/net.onnx', { batch: 2 });
    // While the model loads the URL still says what was asked for.
    expect(body.dataset.status).toBe('loading');
    await vi.waitFor(() => expect(client.calls).toHaveLength(1));
    expect(location.search).toBe('?utm=docs');
    await client.release();
    await opening;
    expect(body.dataset.status).toBe('ready');
    expect(location.search).toBe('?utm=docs&model=%2Fmodels%2Fnet.onnx&dim.batch=2');
    client.hold = false;
    await actions.setSettings({ target: 'mcu', strategy: 'best-fit' });
    expect(Object.fromEntries(location.searchParams)).toEqual({ utm: 'docs', model: '/models/net.onnx', 'dim.batch': '2', target: 'mcu', strategy: 'best-fit' });
    await actions.setDim('batch', undefined);
    expect(location.searchParams.has('dim.batch')).toBe(false);
    expect(writes).toHaveLength(3);
  });

  it("writes the graph's groups reported for the model on screen, and a link's groups until a graph takes them", async () => {
    const { actions, store, location } = setup('https://app.example/?groups=open');
    actions.setGroups({ model: undefined, from: 'open', open: [], closed: ['sc:/b'], collapsed: [] });
    await actions.openSample();
    expect(location.search).toBe('?groups=open&group.sc%3A%2Fb=closed');
    const model = store.getState().model!.inferred;
    actions.setGroups({ model, from: 'first', open: ['sc:/a'], closed: [], collapsed: [] });
    expect(location.search).toBe('?group.sc%3A%2Fa=open');
    await actions.setDim('batch', 3);
    // Another model: the groups reported were another graph's.
    expect(location.search).toBe('?dim.batch=3');
  });

  it('writes the open comparison when B is the shown model planned again, and drops it when the comparison closes', async () => {
    const { actions, compare, location } = setup('https://app.example/');
    await actions.openSample();
    const sideB = { dims: { batch: 4 }, shapes: {}, inputValues: {}, settings: { target: 'mcu', strategy: 'tflm' } };
    const side = { file: {}, label: 'b' } as unknown as CompareState['b'];
    compare.setState({ a: side, b: side, sideB });
    expect(location.search).toBe('?compare=1&b.target=mcu&b.strategy=tflm&b.dim.batch=4');
    // A saved plan shown alone is no comparison to link.
    compare.setState({ b: undefined });
    expect(location.search).toBe('');
  });

  it('keeps embed=1, and leaves out the sample and the default target', async () => {
    const { actions, location } = setup('https://app.example/?embed=1&model=old.onnx');
    await actions.openSample();
    expect(location.search).toBe('?embed=1');
  });

  it('leaves the URL alone when the asked-for model fails to open', async () => {
    const failing = (async () => new Response('', { status: 404 })) as unknown as typeof fetch;
    const client = createFakeClient();
    const store = createAppStore({ client, fetch: failing, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
    const win = fakeWindow('https://app.example/?model=missing.onnx&dim.batch=8');
    installPageApi(store, win.target);
    await store.getState().actions.openUrl('missing.onnx', { batch: 8 });
    expect(win.body.dataset.status).toBe('error');
    expect(win.location.search).toBe('?model=missing.onnx&dim.batch=8');
    expect(win.writes).toEqual([]);
  });
});

describe('a saved plan on screen', () => {
  it('is what the status and summary() describe while the viewer shows it alone, and the model on screen again once it closes', async () => {
    const { actions, store, compare, body, target } = setup('https://app.example/');
    // with no model on the page (a link whose model= is a saved plan), the page said "idle" and summary() model null
    const idle = setup('https://app.example/');
    await actions.openSample();
    const shown = store.getState().model!.plan;
    if (shown.status !== 'planned') throw new Error('the sample was not planned');
    const plan = { ...shown.plan, peak: shown.plan.peak + 1000, strategy: 'naive', target: 'mcu' };
    const file = { format: 'heapscope-plan', version: 1, model: 'kws.tflite', settings: {}, nodes: [{ name: 'n', opType: 'Conv', inputs: [], outputs: [] }], plan } as unknown as PlanFile;
    const saved = { a: { file, label: 'kws.tflite (saved)', saved: true }, b: undefined } as unknown as Partial<CompareState>;
    for (const page of [idle, { compare, body, target }]) {
      page.compare.setState(saved);
      expect(page.body.dataset.status).toBe('ready');
      expect(page.target.heapscope!.summary()).toMatchObject({ model: 'kws.tflite', format: 'tflite', nodes: 1, buffers: plan.buffers.length, peak: plan.peak, strategy: 'naive', target: 'mcu', error: null, settings: null, compare: null, growth: null });
    }
    // the viewer closes: the model on screen again
    compare.setState({ a: undefined, b: undefined });
    expect(body.dataset.status).toBe('ready');
    expect(target.heapscope!.summary()).toMatchObject({ model: store.getState().model!.name, peak: shown.plan.peak, strategy: shown.plan.strategy });
    idle.compare.setState({ a: undefined, b: undefined });
    expect(idle.body.dataset.status).toBe('idle');
  });
});
