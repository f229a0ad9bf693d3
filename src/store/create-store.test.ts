import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from './create-store';
import { selectPageSummary, selectStatus } from './selectors';
import type { LoadStatus } from './state';
import { createFakeClient, type FakeClient } from './testing/fake-client';

/** A store over the fake client; `fetch` serves the fake format (the producer name as ASCII). */
function setup(fetchImpl?: typeof fetch, maxBytes?: number) {
  const client = createFakeClient();
  const defaultFetch = vi.fn(async (url: string | URL | Request) => new Response(`served:${String(url)}`));
  const fetchFn = fetchImpl ?? (defaultFetch as unknown as typeof fetch);
  const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/tool/', sampleUrl: 'https://app.example/tool/sample.onnx', ...(maxBytes ? { maxBytes } : {}) });
  const statuses: LoadStatus[] = [];
  store.subscribe((s) => {
    const status = selectStatus(s);
    if (statuses.at(-1) !== status) statuses.push(status);
  });
  return { store, client, actions: store.getState().actions, statuses, fetchFn };
}

const file = (text: string, name: string) => new File([text], name);

async function opened(client: FakeClient, store: ReturnType<typeof setup>['store'], text: string, name: string) {
  await store.getState().actions.openFile(file(text, name));
  expect(client.calls.at(-1)).toMatchObject({ kind: 'open', name });
}

describe('store: opening models', () => {
  it('opens a file: loading, then ready with the model, its size and default dims', async () => {
    const { store, client, actions, statuses } = setup();
    expect(selectStatus(store.getState())).toBe('idle');
    await actions.openFile(file('producer-a', 'a.onnx'));
    const state = store.getState();
    expect(statuses).toEqual(['loading', 'ready']);
    expect(state.model).toMatchObject({ name: 'a.onnx', size: 10, origin: 'file' });
    expect(state.model?.inferred.info.producerName).toBe('producer-a');
    expect(state.dims).toEqual({});
    expect(state.progress).toBeUndefined();
    expect(client.calls).toEqual([{ kind: 'open', name: 'a.onnx', dims: {}, bytes: 10 }]);
  });

  it('keeps the previous model and shows the error, naming the file, when a file fails', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'good', 'good.onnx');
    await actions.openFile(file('', 'empty.onnx'));
    const state = store.getState();
    expect(selectStatus(state)).toBe('error');
    expect(state.model?.name).toBe('good.onnx');
    expect(state.error).toEqual({ code: 'empty-file', message: 'the file is empty (0 bytes)', file: 'empty.onnx', task: 'open' });
    expect(selectPageSummary(state)).toMatchObject({ model: 'good.onnx', error: 'the file is empty (0 bytes)' });
    actions.dismissError();
    expect(selectStatus(store.getState())).toBe('ready');
  });

  it('rejects a too-large file before reading a byte of it', async () => {
    const { store, client, actions } = setup(undefined, 1000);
    await opened(client, store, 'good', 'good.onnx');
    const huge = new File(['x'.repeat(1001)], 'huge.onnx');
    const stream = vi.spyOn(huge, 'stream');
    const arrayBuffer = vi.spyOn(huge, 'arrayBuffer');
    await actions.openFile(huge);
    expect(store.getState().error).toMatchObject({ code: 'too-large', file: 'huge.onnx', message: expect.stringContaining('huge.onnx is 1001 B') });
    expect(stream).not.toHaveBeenCalled();
    expect(arrayBuffer).not.toHaveBeenCalled();
    expect(client.calls.filter((c) => c.kind === 'open')).toHaveLength(1);
    expect(store.getState().model?.name).toBe('good.onnx');
  });

  it('lets a newer open supersede one still in flight', async () => {
    const { store, client, actions } = setup();
    client.hold = true;
    const first = actions.openFile(file('first', 'first.onnx'));
    await vi.waitFor(() => expect(client.calls).toHaveLength(1));
    const second = actions.openFile(file('second', 'second.onnx'));
    await vi.waitFor(() => expect(client.calls).toHaveLength(2));
    await client.release();
    await Promise.all([first, second]);
    expect(store.getState().model?.name).toBe('second.onnx');
    expect(selectStatus(store.getState())).toBe('ready');
  });

  it('cancel() stops the task and keeps the shown model', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'good', 'good.onnx');
    client.hold = true;
    const pending = actions.openFile(file('slow', 'slow.onnx'));
    await vi.waitFor(() => expect(store.getState().task?.name).toBe('slow.onnx'));
    actions.cancel();
    await client.release();
    await pending;
    expect(client.calls.some((c) => c.kind === 'cancel')).toBe(true);
    expect(store.getState().model?.name).toBe('good.onnx');
    expect(selectStatus(store.getState())).toBe('ready');
  });

  it('opens the sample and URLs, with dims from the caller', async () => {
    const { store, actions, fetchFn } = setup();
    await actions.openSample({ batch: 4 });
    expect(fetchFn).toHaveBeenCalledWith('https://app.example/tool/sample.onnx', expect.anything());
    expect(store.getState().model).toMatchObject({ name: 'sample.onnx', origin: 'sample' });
    expect(store.getState().dims).toEqual({ batch: 4 });
    await actions.openUrl('models/net%20v2.onnx');
    expect(store.getState().model).toMatchObject({ name: 'net v2.onnx', origin: 'url', url: 'https://app.example/tool/models/net%20v2.onnx' });
  });

  it('explains a network failure and an HTTP error', async () => {
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const { store, actions } = setup(failing);
    await actions.openUrl('https://elsewhere.example/m.onnx');
    expect(store.getState().error).toMatchObject({ code: 'io', file: 'm.onnx', message: expect.stringContaining('CORS') });
    const notFound = setup(vi.fn(async () => new Response('nope', { status: 404, statusText: 'Not Found' })) as unknown as typeof fetch);
    await notFound.actions.openUrl('missing.onnx');
    expect(notFound.store.getState().error?.message).toBe('could not download https://app.example/tool/missing.onnx: the server answered HTTP 404 Not Found');
  });
});

describe('store: dims', () => {
  it('re-infers on a dim change without opening the file again', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    await actions.setDim('batch', 6);
    expect(client.calls.map((c) => c.kind)).toEqual(['open', 'reinfer']);
    expect(store.getState().dims).toEqual({ batch: 6 });
    expect(store.getState().model?.inferred.values[0]?.bytes).toBe(6 * 16);
    expect(store.getState().model?.name).toBe('m.onnx');
    await actions.setDim('batch', undefined);
    expect(store.getState().dims).toEqual({});
    expect(store.getState().model?.inferred.dims[0]).toMatchObject({ name: 'batch', value: 1, source: 'default', axes: ['x:0'] });
  });

  it('ignores values that cannot bind a dim', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 40]) await actions.setDim('batch', bad);
    expect(client.calls.filter((c) => c.kind === 'reinfer')).toHaveLength(0);
  });

  it('reads the file again when the worker lost the model', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    client.forget();
    await actions.setDim('batch', 3);
    expect(client.calls.map((c) => c.kind)).toEqual(['open', 'reinfer', 'open']);
    expect(client.calls.at(-1)).toMatchObject({ dims: { batch: 3 } });
    expect(store.getState().model?.inferred.values[0]?.shape).toEqual([3, 4]);
    expect(selectStatus(store.getState())).toBe('ready');
  });
});

describe('store: shapes and input values', () => {
  it('re-infers with a tensor shape, keeps it through a dim change, and clears it', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    await actions.setShape('x', [5, 4]);
    expect(client.calls.at(-1)).toEqual({ kind: 'reinfer', dims: {}, shapes: { x: [5, 4] } });
    expect(store.getState().shapes).toEqual({ x: [5, 4] });
    expect(store.getState().model?.inferred.values[1]?.shape).toEqual([5, 4]);
    await actions.setInputValue('x', [16000]);
    expect(client.calls.at(-1)).toEqual({ kind: 'reinfer', dims: {}, shapes: { x: [5, 4] }, inputValues: { x: [16000] } });
    expect(store.getState().inputValues).toEqual({ x: [16000] });
    await actions.setShape('x', undefined);
    await actions.setInputValue('x', undefined);
    expect(store.getState()).toMatchObject({ shapes: {}, inputValues: {} });
    expect(store.getState().model?.inferred.values[1]?.shape).toEqual([1, 4]);
  });

  it('refuses a shape or value that is not one, naming the field, and keeps the plan', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    const plan = store.getState().model?.plan;
    await actions.setShape('x', [1, -4]);
    expect(store.getState().bindingError).toEqual({ message: expect.stringMatching(/^Shape of "x": .*got -4$/), field: 'shape.x' });
    await actions.setInputValue('sr', [Number.NaN]);
    expect(store.getState().bindingError).toEqual({ message: expect.stringMatching(/^Value of "sr": .*got NaN$/), field: 'input.sr' });
    expect(client.calls.map((c) => c.kind)).toEqual(['open']);
    expect(store.getState().model?.plan).toBe(plan);
    actions.dismissError();
    expect(store.getState().bindingError).toBeUndefined();
  });

  it('keeps the plan and the bindings it was made with when the model refuses a shape', async () => {
    const { store, client, actions } = setup();
    await opened(client, store, 'p', 'm.onnx');
    const plan = store.getState().model?.plan;
    await actions.setShape('x', [1, 2, 3]);
    expect(store.getState().error?.message).toBe("the shape given for x has rank 3, the model's has rank 2");
    expect(store.getState().shapes).toEqual({});
    expect(store.getState().model?.plan).toBe(plan);
  });
});

describe('store: table controls', () => {
  it('flips the direction when the same column is sorted twice', () => {
    const { store, actions } = setup();
    actions.setSort('bytes');
    expect(store.getState().sort).toEqual({ column: 'bytes', direction: 'ascending' });
    actions.setSort('bytes');
    expect(store.getState().sort).toEqual({ column: 'bytes', direction: 'descending' });
    actions.setSort('name');
    expect(store.getState().sort).toEqual({ column: 'name', direction: 'ascending' });
  });
});
