// The store's search budget: a setting that re-plans and reaches the page
// settings, a bad value refused like other settings, and Cancel while a budgeted
// search runs, which stops the search and waits for its best plan.

import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from './create-store';
import { selectPageSummary } from './selectors';
import { createFakeClient } from './testing/fake-client';

async function setup() {
  const client = createFakeClient();
  const fetch = vi.fn(async () => new Response('producer')) as unknown as typeof globalThis.fetch;
  const store = createAppStore({ client, fetch, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
  await store.getState().actions.openFile(new File(['producer'], 'a.onnx'));
  return { client, store, actions: store.getState().actions };
}

describe('store: the search budget', () => {
  it('re-plans with a budget, reports it in the page settings, and goes back to the default', async () => {
    const { client, store, actions } = await setup();
    expect(selectPageSummary(store.getState()).settings?.budgetMs).toBeNull();
    await actions.setSettings({ budgetMs: 5000 });
    expect(client.calls.at(-1)).toMatchObject({ kind: 'replan', settings: { target: 'cpu', budgetMs: 5000 } });
    expect(selectPageSummary(store.getState()).settings?.budgetMs).toBe(5000);
    const replans = client.calls.length;
    await actions.setSettings({ budgetMs: 5000 });
    expect(client.calls).toHaveLength(replans); // the same settings make the same plan
    await actions.setSettings({ budgetMs: undefined });
    expect(client.calls.at(-1)?.settings).toEqual({ target: 'cpu', strategy: undefined });
    expect(selectPageSummary(store.getState()).settings?.budgetMs).toBeNull();
  });

  it('refuses a budget that is not a positive whole number of milliseconds and keeps the plan', async () => {
    const { client, store, actions } = await setup();
    const calls = client.calls.length;
    await actions.setSettings({ budgetMs: 0 });
    expect(store.getState().settingsError).toEqual({ message: expect.stringMatching(/positive whole number of milliseconds, got 0/) });
    expect(client.calls).toHaveLength(calls);
    expect(store.getState().settings.budgetMs).toBeUndefined();
  });

  it('shows the search while it runs; Cancel stops it, keeps the task, then shows the plan it answers', async () => {
    const { client, store, actions } = await setup();
    client.hold = true;
    const planned = actions.setSettings({ budgetMs: 30_000 });
    await Promise.resolve();
    expect(store.getState().progress).toMatchObject({ label: 'Searching for a smaller plan', search: { peak: 900, bound: 800, budgetMs: 30_000, stoppable: true } });
    actions.stopSearch();
    expect(client.stops).toBe(1);
    expect(store.getState().task).toMatchObject({ kind: 'replan' });
    expect(store.getState().progress?.stopping).toBe(true);
    expect(client.calls.some((c) => c.kind === 'cancel')).toBe(false);
    await client.release();
    await planned;
    const state = store.getState();
    expect(state.task).toBeUndefined();
    expect(state.model?.plan).toMatchObject({ status: 'planned', settings: { budgetMs: 30_000 } });
  });

  it('cancels the task when its search cannot be stopped', async () => {
    const { client, store, actions } = await setup();
    client.hold = true;
    client.stoppable = false;
    const planned = actions.setSettings({ budgetMs: 30_000 });
    await Promise.resolve();
    actions.stopSearch();
    expect(client.calls.at(-1)).toEqual({ kind: 'cancel' });
    expect(store.getState().task).toBeUndefined();
    await client.release();
    await planned;
    expect(store.getState().model?.plan).toMatchObject({ status: 'planned', settings: { target: 'cpu' } });
    expect(store.getState().model?.plan.settings.budgetMs).toBeUndefined();
  });
});
