import { describe, expect, it, vi } from 'vitest';
import { STRATEGY_NAMES } from '../planner/strategies/registry';
import { currentComparison } from './comparison';
import { createAppStore } from './create-store';
import { selectPageSummary } from './selectors';
import { createFakeClient } from './testing/fake-client';

function setup() {
  const client = createFakeClient();
  const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
  const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
  return { store, client, actions: store.getState().actions };
}

const open = async (s: ReturnType<typeof setup>) => {
  await s.actions.openFile(new File(['producer'], 'a.onnx'));
  await vi.waitFor(() => expect(s.store.getState().comparison?.status).toBe('done'));
};

describe('store: strategy comparison', () => {
  it('compares every strategy once a model is planned, for the target on screen', async () => {
    const s = setup();
    await open(s);
    const c = currentComparison(s.store.getState());
    expect(c?.peaks.map((p) => p.strategy)).toEqual([...STRATEGY_NAMES]);
    expect(s.client.compares).toEqual([{ target: 'cpu', strategy: undefined }]);
  });

  it('keeps the comparison for a strategy change and asks again for a new target or new dims', async () => {
    const s = setup();
    await open(s);
    await s.actions.setSettings({ strategy: 'naive' });
    expect(s.client.compares).toHaveLength(1);
    expect(currentComparison(s.store.getState())?.status).toBe('done');
    await s.actions.setSettings({ target: 'mcu' });
    await vi.waitFor(() => expect(currentComparison(s.store.getState())?.status).toBe('done'));
    expect(s.client.compares.at(-1)).toEqual({ target: 'mcu', strategy: undefined });
    await s.actions.setDim('batch', 4);
    await vi.waitFor(() => expect(s.client.compares).toHaveLength(3));
  });

  it('shows the progress while the worker compares', async () => {
    const s = setup();
    await s.actions.openFile(new File(['producer'], 'a.onnx'));
    expect(s.store.getState().comparison).toMatchObject({ status: 'running', progress: { label: 'Comparing strategies' } });
    expect(currentComparison(s.store.getState())?.status).toBe('running');
  });
});

describe('store: target field edits', () => {
  it('re-plans with edits and drops them when the target changes', async () => {
    const s = setup();
    await open(s);
    const before = selectPageSummary(s.store.getState()).peak!;
    await s.actions.setSettings({ edits: { regions: { ram: { alignment: 4096 } } } });
    expect(s.client.calls.at(-1)).toMatchObject({ kind: 'replan', settings: { target: 'cpu', edits: { regions: { ram: { alignment: 4096 } } } } });
    expect(selectPageSummary(s.store.getState()).peak).toBeGreaterThan(before);
    await vi.waitFor(() => expect(s.client.compares.at(-1)).toMatchObject({ edits: { regions: { ram: { alignment: 4096 } } } }));
    await s.actions.setSettings({ target: 'mcu' });
    expect(s.store.getState().settings).toEqual({ target: 'mcu', strategy: undefined });
  });

  it('refuses a bad field naming it, without re-planning, and keeps the plan', async () => {
    const s = setup();
    await open(s);
    const plan = s.store.getState().model?.plan;
    const calls = s.client.calls.length;
    await s.actions.setSettings({ edits: { regions: { ram: { alignment: 48 } } } });
    const state = s.store.getState();
    expect(state.settingsError).toEqual({ message: 'ram alignment must be a power of two, got 48', field: 'regions.ram.alignment' });
    expect(state.settings).toEqual({ target: 'cpu', strategy: undefined });
    expect(state.model?.plan).toBe(plan);
    expect(s.client.calls).toHaveLength(calls);
    await s.actions.setSettings({ edits: { regions: { ram: { alignment: 128 } } } });
    expect(s.store.getState().settingsError).toBeUndefined();
  });

  it('takes the refusal back when the field is set to the value in force again, without re-planning', async () => {
    const s = setup();
    await open(s);
    await s.actions.setSettings({ edits: { regions: { ram: { alignment: 48 } } } });
    expect(s.store.getState().settingsError?.message).toBe('ram alignment must be a power of two, got 48');
    const calls = s.client.calls.length;
    await s.actions.setSettings({ edits: {} });
    expect(s.store.getState().settingsError).toBeUndefined();
    expect(s.client.calls).toHaveLength(calls);
  });

  it('keeps the plan and its settings when the worker refuses the settings', async () => {
    const s = setup();
    await open(s);
    const plan = s.store.getState().model?.plan;
    await s.actions.setSettings({ strategy: 'no-such-strategy' });
    const state = s.store.getState();
    expect(state.settingsError).toEqual({ message: expect.stringMatching(/unknown strategy "no-such-strategy"/) });
    expect(state.model?.plan).toBe(plan);
    expect(state.settings.strategy).toBeUndefined();
    expect(state.task).toBeUndefined();
  });
});
