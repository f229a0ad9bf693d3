import { describe, expect, it } from 'vitest';
import { createAppStore } from './create-store';
import { createFakeClient } from './testing/fake-client';
import type { ModelPlan } from '../planner/plan';
import type { PlanOutcome } from '../worker/client';

/** A store over the fake client whose re-plans pass through `edit` (another numbering of the buffers, one left out). */
async function opened(edit: (plan: ModelPlan) => ModelPlan) {
  const client = createFakeClient();
  const replan = client.replan.bind(client);
  client.replan = async (settings, onProgress): Promise<PlanOutcome> => {
    const out = await replan(settings, onProgress);
    if (out.status !== 'done' || out.result.status !== 'planned') return out;
    return { ...out, result: { ...out.result, plan: edit(out.result.plan) } };
  };
  const store = createAppStore({ client, fetch: fetch, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
  await store.getState().actions.openFile(new File(['producer-a'], 'a.onnx'));
  return store;
}

const planOf = (store: Awaited<ReturnType<typeof opened>>): ModelPlan => {
  const plan = store.getState().model?.plan;
  if (plan?.status !== 'planned') throw new Error('no plan');
  return plan.plan;
};
const idOf = (plan: ModelPlan, name: string) => plan.buffers.find((b) => b.name === name)!.id;

/** The buffers numbered the other way round: a new plan's ids are no names of its buffers. */
const renumbered = (plan: ModelPlan): ModelPlan => ({ ...plan, buffers: plan.buffers.map((b) => ({ ...b, id: plan.buffers.length - 1 - b.id + 10 })) });

describe('the selection across a re-plan', () => {
  it('keeps a selected buffer, as the new plan numbers the same tensor (another strategy)', async () => {
    const store = await opened(renumbered);
    const { select, setSettings } = store.getState().actions;
    select({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    await setSettings({ strategy: 'naive' });
    expect(store.getState().settings.strategy).toBe('naive');
    const kept = store.getState().selection;
    // it went back to "Select a node…" on every re-plan
    expect(kept).toEqual({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    expect(planOf(store).buffers.find((b) => b.id === (kept as { buffer: number }).buffer)!.name).toBe('y');
    expect(store.getState().selectionLost).toBeUndefined();
  });

  it('drops a selected buffer the new plan has no buffer for, naming it, until something is selected', async () => {
    const store = await opened((plan) => ({ ...plan, buffers: plan.buffers.filter((b) => b.name !== 'y') }));
    const { select, setSettings } = store.getState().actions;
    select({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    await setSettings({ strategy: 'naive' });
    expect(store.getState().selection).toBeUndefined();
    expect(store.getState().selectionLost).toBe('y');
    select({ kind: 'node', node: 'relu' });
    expect(store.getState().selectionLost).toBeUndefined();
  });

  it('keeps naming the dropped buffer on the next re-plan, and selects it again in a plan that has it', async () => {
    let withoutY = true;
    const store = await opened((plan) => (withoutY ? { ...plan, buffers: plan.buffers.filter((b) => b.name !== 'y') } : plan));
    withoutY = false;
    const { select, setSettings } = store.getState().actions;
    select({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    withoutY = true;
    await setSettings({ strategy: 'naive' });
    expect(store.getState().selectionLost).toBe('y');
    // nothing was selected since: the note went away on this re-plan
    await setSettings({ strategy: 'tflm' });
    expect(store.getState().selection).toBeUndefined();
    expect(store.getState().selectionLost).toBe('y');
    withoutY = false;
    await setSettings({ strategy: 'naive' });
    expect(store.getState().selection).toEqual({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    expect(store.getState().selectionLost).toBeUndefined();
  });

  it('keeps a selected buffer when a dim changes (a Growth click re-infers the model)', async () => {
    const store = await opened((plan) => plan);
    const { select, setDim } = store.getState().actions;
    select({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
    const before = planOf(store);
    await setDim('batch', 3);
    expect(planOf(store)).not.toBe(before);
    expect(planOf(store).buffers.find((b) => b.name === 'y')!.bytes).toBe(3 * 4 * 4);
    expect(store.getState().selection).toEqual({ kind: 'buffer', buffer: idOf(planOf(store), 'y') });
  });

  it('keeps a node as it was', async () => {
    const store = await opened(renumbered);
    store.getState().actions.select({ kind: 'node', node: 'relu' });
    await store.getState().actions.setSettings({ strategy: 'naive' });
    expect(store.getState().selection).toEqual({ kind: 'node', node: 'relu' });
  });
});
