import { describe, expect, it, vi } from 'vitest';
import type { ModelPlan } from '../planner/plan';
import type { RuntimePlan } from '../planner/tflm/runtime-plan';
import type { PlannedTfliteAsk, PlannedTfliteOutcome } from '../worker/client';
import type { ModelClient } from '../worker/client';
import { DEFAULT_SETTINGS } from '../settings/names';
import { createAppStore } from './create-store';
import { plannedTfliteBlocker, plannedTfliteFile } from './planned-tflite';
import { createFakeClient } from './testing/fake-client';
import { INITIAL_STATE, type AppState, type LoadedModel } from './state';

const runtime = { planned: { offsets: [0, -1, 64] } } as unknown as RuntimePlan;

/** A state showing `name` with a plan that has (or lacks) a runtime plan. */
function shown(name: string, withRuntime = true, patch: Partial<AppState> = {}): AppState {
  const plan = { peak: 1, ...(withRuntime && { runtimePlan: runtime }) } as unknown as ModelPlan;
  const model = { name, size: 300, origin: 'file', url: undefined, plan: { status: 'planned', settings: DEFAULT_SETTINGS, plan, ms: 1 } } as unknown as LoadedModel;
  return { ...INITIAL_STATE, model, actions: {} as AppState['actions'], ...patch };
}

/** A client whose plannedTflite answers `outcomes` in turn. */
function clientAnswering(...outcomes: PlannedTfliteOutcome[]) {
  const asks: PlannedTfliteAsk[] = [];
  const client = {
    plannedTflite: (ask: PlannedTfliteAsk) => {
      asks.push(ask);
      return Promise.resolve(outcomes.shift()!);
    },
  } as unknown as ModelClient;
  return { client, asks };
}

const bytes = new Uint8Array([1, 2, 3]).buffer;
const noModel: PlannedTfliteOutcome = { status: 'failed', error: { code: 'no-model', message: 'the worker does not hold kws.tflite' } };

describe('plannedTfliteBlocker', () => {
  it('lets a plan with a runtime plan through, and says why another cannot be written', () => {
    expect(plannedTfliteBlocker(shown('kws.tflite'))).toBeUndefined();
    expect(plannedTfliteBlocker(shown('net.onnx', false))).toBe('only a .tflite model planned for TensorFlow Lite Micro (target tflm) has a plan to write into its file');
    expect(plannedTfliteBlocker({ model: undefined, task: undefined })).toBe('there is no plan on screen');
    expect(plannedTfliteBlocker(shown('kws.tflite', true, { task: { kind: 'replan', name: 'kws.tflite' } }))).toMatch(/being replaced/);
  });
});

describe('plannedTfliteFile', () => {
  it('asks the worker for the shown file with the runtime plan’s offsets', async () => {
    const { client, asks } = clientAnswering({ status: 'done', result: bytes });
    await expect(plannedTfliteFile({ get: () => shown('kws.tflite'), client, reopen: vi.fn() })).resolves.toBe(bytes);
    expect(asks).toEqual([{ name: 'kws.tflite', size: 300, offsets: [0, -1, 64] }]);
  });

  it('opens the shown model again once when the worker holds none, then asks again', async () => {
    const { client, asks } = clientAnswering(noModel, { status: 'done', result: bytes });
    const reopen = vi.fn(() => Promise.resolve(true));
    await expect(plannedTfliteFile({ get: () => shown('kws.tflite'), client, reopen })).resolves.toBe(bytes);
    expect(reopen).toHaveBeenCalledTimes(1);
    expect(asks).toHaveLength(2);
  });

  it('gives up with the worker’s sentence when the second ask fails too, or when reopening fails', async () => {
    const twice = clientAnswering(noModel, noModel);
    await expect(plannedTfliteFile({ get: () => shown('kws.tflite'), client: twice.client, reopen: () => Promise.resolve(true) })).rejects.toThrow('the worker does not hold kws.tflite');
    const once = clientAnswering(noModel);
    await expect(plannedTfliteFile({ get: () => shown('kws.tflite'), client: once.client, reopen: () => Promise.resolve(false) })).rejects.toThrow('kws.tflite could not be opened again to write its plan in');
  });

  it('refuses without asking the worker when the plan on screen has no runtime plan', async () => {
    const { client, asks } = clientAnswering();
    await expect(plannedTfliteFile({ get: () => shown('net.onnx', false), client, reopen: vi.fn() })).rejects.toThrow(/only a \.tflite model/);
    expect(asks).toEqual([]);
  });

  it('refuses a model TensorFlow Lite Micro refuses with the command line’s reason, without asking the worker', async () => {
    // the page wrote such a file, which AllocateTensors() then fails with any arena; plan --save-tflite writes nothing
    const reasons = ["TensorFlow Lite Micro's reference kernels refuse this model: a DEQUANTIZE has a FLOAT16 input", 'a STRING constant cannot be sized'];
    const refused = { planned: runtime.planned, refused: reasons } as unknown as RuntimePlan;
    const state = shown('selfie.tflite');
    const model = state.model!;
    const get = () => ({ ...state, model: { ...model, plan: { ...model.plan, plan: { ...(model.plan as { plan: ModelPlan }).plan, runtimePlan: refused } } } as LoadedModel });
    const reason = `writes nothing for a model TensorFlow Lite Micro refuses (no tensor arena works): ${reasons[0]} (and 1 more reason(s))`;
    expect(plannedTfliteBlocker(get())).toBe(`the export ${reason}`);
    const { client, asks } = clientAnswering({ status: 'done', result: bytes });
    await expect(plannedTfliteFile({ get, client, reopen: vi.fn() })).rejects.toThrow(`the export ${reason}`);
    expect(asks).toEqual([]);
  });
});

describe('the store’s plannedTflite action', () => {
  it('opens the shown file in a restarted worker again before asking for it', async () => {
    const client = createFakeClient();
    const store = createAppStore({ client, fetch: (() => Promise.reject(new Error('no fetch'))) as typeof fetch, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
    const { actions } = store.getState();
    await actions.openFile(new File([new TextEncoder().encode('tool-a')], 'a.tflite'));
    // The fake format plans no runtime plan: give the plan on screen one, as a .tflite planned for tflm has.
    const model = store.getState().model!;
    if (model.plan.status !== 'planned') throw new Error('the fake model was not planned');
    store.setState({ model: { ...model, plan: { ...model.plan, plan: { ...model.plan.plan, runtimePlan: runtime } } } });
    client.forget();
    // Opened again, the fake model's new plan has no runtime plan: the action says so rather than writing an old plan.
    await expect(actions.plannedTflite()).rejects.toThrow(/only a \.tflite model/);
    expect(client.calls.filter((c) => c.kind === 'open').map((c) => c.name)).toEqual(['a.tflite', 'a.tflite']);
    expect(client.plannedFiles).toEqual([{ name: 'a.tflite', size: model.size, offsets: [0, -1, 64] }]);
  });
});
