// A plan with a search budget, through the request handler and the real
// planner: search progress, a stop through the stop URL that keeps the best
// plan found, no hooks without a budget, and comparisons at the default budget.

import { describe, expect, it, vi } from 'vitest';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { inferShapes } from '../model/infer/shapes';
import { packingModel } from '../model/testing/search-model';
import { planModel } from '../planner/plan';
import { createRequestHandler, type HandlerDeps } from './handler';
import { targetForSettings } from '../settings/target';
import { planForSettings, planStepsForSettings } from './plan/settings';
import { SEARCH_LABEL, type PlanSettings, type ProgressResponse, type ResultResponse, type WorkerResponse } from './protocol';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

/** cpu with what the exact search needs: alignment 1, no compute-unit partition. */
const SEARCHABLE: PlanSettings = { target: 'cpu', strategy: undefined, edits: { computeUnits: false, regions: { ram: { alignment: 1 } } } };

function bytes(model: Uint8Array): ArrayBuffer {
  return model.buffer.slice(model.byteOffset, model.byteOffset + model.byteLength) as ArrayBuffer;
}

function setup(deps: Partial<HandlerDeps> = {}) {
  const posted: WorkerResponse[] = [];
  const handle = createRequestHandler((r) => posted.push(r), { yieldToQueue: () => Promise.resolve(), ...deps });
  const searches = () => posted.filter((r): r is ProgressResponse & { search: object } => r.type === 'progress' && r.search !== undefined);
  return { posted, handle, searches };
}

describe('a plan with a search budget', () => {
  it('reports the search and, stopped through its URL, answers with the best plan found, valid and not proven', async () => {
    // The page revokes the URL once it has seen the search's best peak (as Cancel does).
    const probes: string[] = [];
    let sawPeak = false;
    const { handle, posted, searches } = setup({
      probeStop: (url) => {
        probes.push(url);
        sawPeak ||= posted.some((r) => r.type === 'progress' && r.search?.peak !== undefined);
        return sawPeak;
      },
    });
    const settings = { ...SEARCHABLE, budgetMs: 600_000 };
    // a packing the probe at the bound does not place: the exact search takes seconds to prove it
    await handle({ type: 'open', id: 1, bytes: bytes(packingModel(240, 1)), name: 'packing.onnx', dims: {}, settings, stop: 'blob:stop-1' });
    const result = posted.at(-1) as ResultResponse;
    expect(result.type).toBe('result');
    if (result.plan.status !== 'planned') throw new Error('the plan failed');
    const { plan } = result.plan;
    expect(plan.valid).toBe(true);
    expect(plan.search).toEqual({ proven: false, stoppedBy: 'time' });
    expect(new Set(probes)).toEqual(new Set(['blob:stop-1']));
    const reports = searches().map((r) => r.search);
    expect(searches().every((r) => r.label === SEARCH_LABEL && r.search.budgetMs === 600_000 && r.search.stoppable)).toBe(true);
    const first = reports.find((s) => s.peak !== undefined)!;
    expect(plan.peak).toBeLessThanOrEqual(first.peak!);
    expect(first.bound).toBeLessThanOrEqual(first.peak!);
    // Nor above the portfolio's own plan (best without its exact search).
    const model = inferShapes(decodeOnnx(packingModel(240, 1)));
    const portfolio = planModel(model, targetForSettings(SEARCHABLE), { strategy: 'best', planOptions: { exact: { off: true } } });
    expect(plan.peak).toBeLessThanOrEqual(portfolio.peak);
  });

  it('passes no hooks without a budget, and plans the comparison at the default budget', async () => {
    const planSteps = vi.fn(planStepsForSettings);
    const plan = vi.fn(planForSettings);
    const { handle, searches } = setup({ decode: fakeDecode, infer: fakeInfer, planSteps, plan });
    await handle({ type: 'open', id: 1, bytes: fakeFile('a'), name: 'a.onnx', dims: {}, settings: SEARCHABLE });
    expect(planSteps.mock.calls[0]).toHaveLength(2);
    await handle({ type: 'replan', id: 2, settings: { ...SEARCHABLE, budgetMs: 1000 }, stop: 'blob:x' });
    expect(planSteps.mock.calls[1]?.[2]).toMatchObject({ onProgress: expect.any(Function), shouldStop: expect.any(Function) });
    expect(searches().map((r) => r.id)).toContain(2);
    await handle({ type: 'compare', id: 3, settings: { ...SEARCHABLE, budgetMs: 1000 } });
    expect(plan.mock.calls.length).toBeGreaterThan(0);
    for (const call of plan.mock.calls) expect(call[1]).toEqual({ ...SEARCHABLE, strategy: expect.any(String) });
  });

  it('refuses a budget that is not a positive whole number of milliseconds', async () => {
    const { handle, posted } = setup({ decode: fakeDecode, infer: fakeInfer });
    await handle({ type: 'open', id: 1, bytes: fakeFile('a'), name: 'a.onnx', dims: {}, settings: { ...SEARCHABLE, budgetMs: 2.5 } });
    expect(posted.at(-1)).toMatchObject({ type: 'result', plan: { status: 'failed', error: { code: 'bad-argument', message: expect.stringContaining('2.5') } } });
  });
});
