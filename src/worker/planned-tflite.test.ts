// The worker writes a plan into the .tflite file it holds and transfers the file.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../model/decode-model';
import { createRequestHandler } from './handler';
import type { PlanSettings, ResultResponse, WorkerResponse } from './protocol';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

const MODEL = join(__dirname, '../../../shared/models/tflite/tflm_hello_world_int8.tflite');
const TFLM: PlanSettings = { target: 'tflm', strategy: undefined };

/** A handler with the real model layer that records what it posts and what it transfers. */
function setup() {
  const posted: { response: WorkerResponse; transfer: Transferable[] | undefined }[] = [];
  const handle = createRequestHandler((response, transfer) => posted.push({ response, transfer }), { yieldToQueue: () => Promise.resolve() });
  return { posted, handle };
}

describe('planned-tflite requests', () => {
  it.skipIf(!existsSync(MODEL))('answer the held file with the runtime plan’s offsets as its offline plan, transferred', async () => {
    const { posted, handle } = setup();
    const file = new Uint8Array(readFileSync(MODEL));
    await handle({ type: 'open', id: 1, bytes: file.slice().buffer, name: 'hello.tflite', dims: {}, settings: TFLM });
    const result = posted.find((p): p is { response: ResultResponse; transfer: undefined } => p.response.type === 'result')!.response;
    if (result.plan.status !== 'planned') throw new Error('the model was not planned');
    const offsets = result.plan.plan.runtimePlan!.planned.offsets;
    await handle({ type: 'planned-tflite', id: 2, name: 'hello.tflite', size: file.byteLength, offsets });
    const answer = posted.at(-1)!;
    expect(answer.response.type).toBe('planned-tflite');
    const bytes = answer.response.type === 'planned-tflite' ? answer.response.bytes : new ArrayBuffer(0);
    expect(answer.transfer).toEqual([bytes]);
    expect(new TextDecoder().decode(new Uint8Array(bytes, 4, 4))).toBe('TFL3');
    const reread = decodeModel(new Uint8Array(bytes));
    expect(reread.tflite?.offlinePlan?.offsets).toEqual(offsets);
    // The held file is the one opened, unchanged: a second file can be written from it.
    await handle({ type: 'planned-tflite', id: 3, name: 'hello.tflite', size: file.byteLength, offsets });
    expect(posted.at(-1)?.response.type).toBe('planned-tflite');
  });

  it.skipIf(!existsSync(MODEL))('refuses offsets that do not cover the file’s tensors', async () => {
    const { posted, handle } = setup();
    const file = new Uint8Array(readFileSync(MODEL));
    await handle({ type: 'open', id: 1, bytes: file.slice().buffer, name: 'hello.tflite', dims: {}, settings: TFLM });
    await handle({ type: 'planned-tflite', id: 2, name: 'hello.tflite', size: file.byteLength, offsets: [0] });
    expect(posted.at(-1)?.response).toMatchObject({ type: 'error', id: 2, error: { code: 'bad-argument', message: expect.stringMatching(/^the plan has 1 tensor offsets, but hello\.tflite has \d+ tensors$/) } });
  });

  it('answers no-model when the worker holds no file or another one, and not-a-model for an ONNX file', async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r), { decode: fakeDecode, infer: fakeInfer, yieldToQueue: () => Promise.resolve() });
    await handle({ type: 'planned-tflite', id: 1, name: 'a.tflite', size: 6, offsets: [] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 1, error: { code: 'no-model', message: 'the worker does not hold a.tflite' } });
    await handle({ type: 'open', id: 2, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: {}, settings: { target: 'cpu', strategy: undefined } });
    await handle({ type: 'planned-tflite', id: 3, name: 'b.onnx', size: 6, offsets: [] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 3, error: { code: 'no-model' } });
    await handle({ type: 'planned-tflite', id: 4, name: 'a.onnx', size: 6, offsets: [] });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 4, error: { code: 'not-a-model', message: 'a.onnx is not a TensorFlow Lite model: only a .tflite file carries an offline plan' } });
  });
});
