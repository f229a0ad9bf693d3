// Suggestions evaluated after the plan in the worker: the same list plan --json
// gives, a step at a time with progress, from the plan already made, and dropped
// by a newer plan.

import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createRequestHandler } from '../handler';
import { planForSettings, planStepsForSettings } from './settings';
import type { PlanSettings, ResultResponse, SuggestedResponse, WorkerResponse } from '../protocol';

const SAMPLE = readFileSync(new URL('../../../public/sample.onnx', import.meta.url));
const PHONE: PlanSettings = { target: 'phone', strategy: undefined };

/** A handler over the real decoder and planner whose yields run queued work first, like a worker's event loop. */
async function opened() {
  const posted: WorkerResponse[] = [];
  const planSteps = vi.fn(planStepsForSettings);
  const handle = createRequestHandler((r) => posted.push(r), { planSteps, yieldToQueue: () => new Promise((r) => setTimeout(r, 0)) });
  const bytes = SAMPLE.buffer.slice(SAMPLE.byteOffset, SAMPLE.byteOffset + SAMPLE.byteLength) as ArrayBuffer;
  await handle({ type: 'open', id: 1, bytes, name: 'sample.onnx', dims: {}, settings: PHONE });
  const result = posted.find((r): r is ResultResponse => r.type === 'result')!;
  return { posted, handle, planSteps, model: result.model, plan: result.plan };
}

describe('suggestions in the worker', () => {
  it('shows the plan without suggestions, then evaluates them from that plan as plan --json lists them', async () => {
    const { posted, handle, planSteps, model, plan } = await opened();
    expect(plan.status === 'planned' && plan.plan.suggestions).toBeUndefined();
    await handle({ type: 'suggest', id: 2, settings: PHONE });
    const answer = posted.at(-1) as SuggestedResponse;
    expect(answer).toMatchObject({ type: 'suggested', id: 2, settings: PHONE });
    const expected = planForSettings(model, PHONE, { suggest: true }).suggestions!;
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.suggestions).toEqual(expected);
    expect(planSteps).toHaveBeenCalledTimes(1); // the open's plan, not planned again
    const labels = posted.filter((r) => r.type === 'progress' && r.id === 2).map((r) => (r.type === 'progress' ? r.label : ''));
    expect(labels.length).toBeGreaterThan(1);
    expect(labels[0]).toMatch(/^Evaluating suggestions: .+ \(1 of \d+\)$/);
  });

  it('plans again when asked about other settings than the last plan', async () => {
    const { posted, handle, planSteps, model } = await opened();
    const fusionOff: PlanSettings = { ...PHONE, edits: { fusion: false } };
    await handle({ type: 'suggest', id: 2, settings: fusionOff });
    expect(planSteps).toHaveBeenCalledTimes(2);
    expect((posted.at(-1) as SuggestedResponse).suggestions).toEqual(planForSettings(model, fusionOff, { suggest: true }).suggestions);
  });

  it('is dropped by a replan, and answers a bad setting with its error', async () => {
    const { posted, handle } = await opened();
    const suggesting = handle({ type: 'suggest', id: 2, settings: PHONE });
    await handle({ type: 'replan', id: 3, settings: { target: 'phone', strategy: 'naive' } });
    await suggesting;
    expect(posted.some((r) => r.type === 'planned' && r.id === 3)).toBe(true);
    expect(posted.filter((r) => r.id === 2).at(-1)).toMatchObject({ type: 'error', error: { code: 'superseded' } });
    await handle({ type: 'suggest', id: 4, settings: { ...PHONE, edits: { order: 'sideways' as never } } });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 4, error: { code: 'bad-target', message: expect.stringContaining('execution order') } });
  });

  it('answers no-model when nothing was opened', async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r));
    await handle({ type: 'suggest', id: 1, settings: PHONE });
    expect(posted).toEqual([{ type: 'error', id: 1, error: expect.objectContaining({ code: 'no-model' }) }]);
  });
});
