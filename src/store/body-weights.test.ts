// The page's Model card and memory map count the weights of If/Loop/Scan
// bodies (nested ones too), each once, as the plan and the CLI do.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../model/decode-model';
import { inferShapes } from '../model/infer/shapes';
import { BODY_WEIGHTS, bodyWeightsModel } from '../model/testing/body-weights-model';
import { DEFAULT_SETTINGS } from '../settings/names';
import { formatBytes } from '../shared/format';
import { memoryMapData, weightsText } from '../views/panels/memory-map-data';
import { weightsWords } from '../views/panels/weights-words';
import { planForSettings } from '../worker/plan/settings';
import { selectWeights } from './planned-selectors';
import { INITIAL_STATE, type AppState, type LoadedModel } from './state';

const inferred = inferShapes(decodeModel(bodyWeightsModel()));
const { total } = BODY_WEIGHTS;

function stateOn(target: string): AppState {
  const settings = { ...DEFAULT_SETTINGS, target };
  const plan = planForSettings(inferred, settings);
  const loaded: LoadedModel = { name: 'decoder.onnx', size: 270_000, origin: 'file', url: undefined, inferred, timings: { decodeMs: 1, inferMs: 1 }, plan: { status: 'planned', settings, plan, ms: 1 }, opening: 1 };
  return { ...INITIAL_STATE, model: loaded, actions: {} as AppState['actions'] };
}

describe('the weights of a model whose largest weights sit in a Loop body', () => {
  it('are on the Model card with those of the body and of the If nested in it, each once', () => {
    const state = stateOn('cpu');
    expect(selectWeights(state)).toEqual({ count: total.tensors, bytes: total.bytes, fromConstants: 0, unknown: 0, run: 0 });
    expect(weightsWords(selectWeights(state), { target: 'cpu' }).value).toBe(`6 · ${formatBytes(total.bytes)}`);
  });

  it('are in the memory map as the plan counts them', () => {
    const state = stateOn('cpu');
    const plan = state.model!.plan.status === 'planned' ? state.model!.plan.plan : undefined;
    expect(weightsText(memoryMapData(plan!))).toBe(`weights ${formatBytes(total.bytes)} in 6 tensors, outside the planned regions (loaded or mapped by the runtime)`);
  });
});
