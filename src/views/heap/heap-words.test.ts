import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../../planner/plan';
import { presetTarget } from '../../planner/targets/presets';
import { heapBuffer, heapPlan } from '../testing/heap-plans';
import { bufferFacts, heapData, modelLookup } from './heap-data';
import { bufferWords, noProducerWords, stepWords } from './heap-words';

describe('heap words', () => {
  const plan = heapPlan(
    [{ name: 'ram', peak: 3072 }],
    [heapBuffer(0, 'ram', 0, 2, 0, 1024), heapBuffer(1, 'ram', 1, 3, 1024, 2048), heapBuffer(2, 'ram', 1, 2, 1024, 1024, 1)],
    3,
  );
  const data = heapData(plan);

  it('reads a step as its node, the buffers live there and their bytes, shared bytes once', () => {
    expect(stepWords(data, 1)).toBe('step 1, Synthetic n1, 3 buffers live, 3.00 KiB');
    expect(stepWords(data, 2)).toBe('step 2, Synthetic n2, 1 buffer live, 2.00 KiB');
  });

  it('reads a buffer as its name, size, kind, region and the steps it is live', () => {
    expect(bufferWords(data, 1)).toBe('b1, 2.00 KiB activation in ram, live from step 1 through step 2');
    expect(bufferWords(data, 2)).toBe('b2, 1.00 KiB activation in ram, live at step 1 only');
  });
});

const VELA = join(__dirname, '../../../../shared/models/tflite/tflm_person_detect_vela.tflite');

describe.skipIf(!existsSync(VELA))("the hover card's Op of a buffer no op writes", () => {
  it("names Vela's ethos-u scratch tensors as its scratch, not as graph inputs, and the real input as one", () => {
    const model = inferShapes(decodeModel(new Uint8Array(readFileSync(VELA)), { name: 'vela.tflite' }));
    const data = heapData(planModel(model, presetTarget('mcu')));
    const op = (name: string) => noProducerWords(bufferFacts(data, model, modelLookup(model), data.plan.buffers.findIndex((b) => b.name === name)));
    expect(op('_split_1_scratch')).toBe('none: scratch tensor of ethos-u ethos-u_0, in the arena');
    expect(op('_split_1_scratch_fast')).toBe('none: scratch tensor of ethos-u ethos-u_0, in the arena');
    expect(op('input')).toBe('graph input');
  });
});
