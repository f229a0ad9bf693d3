// A shape given for a .tflite on the page (a link's shape.NAME=, the Shape of … field) reaches the worker as the open
// request's shapes: the model keeps its file's shapes, every tensor sized, and one banner line says the shape is not applied.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assumptionLines } from '../store/assumptions';
import { createRequestHandler } from './handler';
import type { PlanSettings, ResultResponse, WorkerResponse } from './protocol';

const MODEL = join(__dirname, '../../../shared/models/tflite/tflm_person_detect.tflite');

/** The result of opening the model with `shapes` for `target`. */
async function opened(target: string, shapes: Record<string, number[]>): Promise<ResultResponse> {
  const posted: WorkerResponse[] = [];
  const handle = createRequestHandler((response) => posted.push(response), { yieldToQueue: () => Promise.resolve() });
  const settings: PlanSettings = { target, strategy: undefined };
  await handle({ type: 'open', id: 1, bytes: new Uint8Array(readFileSync(MODEL)).buffer, name: 'person.tflite', dims: {}, shapes, settings });
  return posted.find((r): r is ResultResponse => r.type === 'result')!;
}

describe.skipIf(!existsSync(MODEL))('a shape given for a .tflite on the page', () => {
  it.each(['tflm', 'mcu'])('on %s: the file’s shapes are planned, no edge is left unknown, and the banner says the shape is not applied', async (target) => {
    // person_detect with shape.input=1x128x128x1 drew '? · ?' edges and 'Unknown shapes 31' beside a heap of the 96×96 sizes
    const plain = await opened(target, {});
    const given = await opened(target, { input: [1, 128, 128, 1] });
    if (given.plan.status !== 'planned' || plain.plan.status !== 'planned') throw new Error('the model was not planned');
    expect(given.model.values.filter((v) => v.bytes === undefined)).toEqual([]);
    expect(given.model.values.find((v) => v.name === 'input')?.shape).toEqual([1, 96, 96, 1]);
    expect(given.plan.plan.peak).toBe(plain.plan.plan.peak);
    expect(given.plan.plan.runtimePlan).toEqual(plain.plan.plan.runtimePlan);
    expect(assumptionLines(given.plan.plan, given.model).map((l) => [l.text, l.fix.kind])).toEqual([
      [expect.stringMatching(/^The shape given input=1x128x128x1 \(the file states 1×96×96×1\) is not applied: a \.tflite model keeps the shapes its file states/), 'none'],
    ]);
    expect(assumptionLines(plain.plan.plan, plain.model)).toEqual([]);
  });
});
