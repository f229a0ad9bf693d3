import { describe, expect, it, vi } from 'vitest';
import { planForSettings } from '../worker/plan/settings';
import { createAppStore } from './create-store';
import { currentSuggestions, settledSuggestions, suggestionsMissing } from './suggestions';
import { createFakeClient } from './testing/fake-client';

function setup() {
  const client = createFakeClient();
  const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
  const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
  return { store, client, actions: store.getState().actions };
}

describe('store: suggestions', () => {
  it('shows the plan first, running suggestions beside it, then the list the worker evaluated', async () => {
    const s = setup();
    await s.actions.openFile(new File(['producer'], 'a.onnx'));
    const shown = s.store.getState().model!;
    expect(shown.plan.status === 'planned' && shown.plan.plan.suggestions).toBeUndefined();
    expect(currentSuggestions(s.store.getState())).toMatchObject({ status: 'running', progress: { label: 'Evaluating suggestions' } });
    await vi.waitFor(() => expect(currentSuggestions(s.store.getState())?.status).toBe('done'));
    const expected = planForSettings(shown.inferred, { target: 'cpu', strategy: undefined }, { suggest: true }).suggestions;
    expect(currentSuggestions(s.store.getState())?.list).toEqual(expected);
    expect(s.client.suggests).toEqual([{ target: 'cpu', strategy: undefined }]);
  });

  it('asks again for every new plan, and belongs only to the plan it was asked for', async () => {
    const s = setup();
    await s.actions.openFile(new File(['producer'], 'a.onnx'));
    await vi.waitFor(() => expect(currentSuggestions(s.store.getState())?.status).toBe('done'));
    s.client.hold = true;
    const replanning = s.actions.setSettings({ strategy: 'naive' });
    await s.client.release();
    await replanning;
    expect(s.client.suggests.at(-1)).toEqual({ target: 'cpu', strategy: 'naive' });
    const state = s.store.getState();
    expect(state.suggestions?.plan).toBe(state.model?.plan.status === 'planned' ? state.model.plan.plan : undefined);
    await s.client.release();
    await vi.waitFor(() => expect(currentSuggestions(s.store.getState())?.status).toBe('done'));
    expect(s.client.suggests).toHaveLength(2);
  });

  it('gives a saved plan file the suggestions once evaluated, waiting while they run', async () => {
    const s = setup();
    await s.actions.openFile(new File(['producer'], 'a.onnx'));
    expect(currentSuggestions(s.store.getState())?.status).toBe('running');
    const settled = await settledSuggestions(s.store);
    const shown = s.store.getState().model!;
    expect(settled).toEqual(planForSettings(shown.inferred, { target: 'cpu', strategy: undefined }, { suggest: true }).suggestions);
  });

  it('says why the plan on screen has no suggestions to save when the worker could not evaluate them', async () => {
    const s = setup();
    s.client.suggest = async () => ({ status: 'failed', error: { code: 'worker', message: 'out of memory' } });
    await s.actions.openFile(new File(['producer'], 'a.onnx'));
    expect(await settledSuggestions(s.store)).toBeUndefined();
    expect(suggestionsMissing(s.store.getState())).toBe('their evaluation failed: out of memory');
  });
});
