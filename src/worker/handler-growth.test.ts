import { describe, expect, it } from 'vitest';
import { createRequestHandler } from './handler';
import type { GrowthPointResponse, GrowthRequest, PlanSettings, ResultResponse, WorkerResponse } from './protocol';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

/** The cpu preset with its one region, ram, limited to `bytes`. */
function limited(bytes: number): PlanSettings {
  return { target: 'cpu', strategy: undefined, edits: { regions: { ram: { sizeLimit: bytes } } } };
}

/** A handler over the fake model (x and y float32 [batch, 4]) that records what it posts; queued messages get in at every yield. */
function setup() {
  const posted: WorkerResponse[] = [];
  const handle = createRequestHandler((r) => posted.push(r), { decode: fakeDecode, infer: fakeInfer, yieldToQueue: () => new Promise((r) => setTimeout(r, 0)) });
  const points = (id: number) => posted.filter((r): r is GrowthPointResponse => r.type === 'growth-point' && r.id === id);
  return { posted, handle, points };
}

function growth(id: number, settings: PlanSettings, more: Partial<GrowthRequest> = {}): GrowthRequest {
  return { type: 'growth', id, axis: { kind: 'dim', name: 'batch' }, values: [1, 4, 16], bindings: { dims: {} }, settings, findFit: false, ...more };
}

describe('growth requests', () => {
  it('plans each value as a reinfer at that value would, in order, then answers the curve', async () => {
    const { handle, posted, points } = setup();
    const cpu = limited(256);
    await handle({ type: 'open', id: 1, bytes: fakeFile('m'), name: 'm.onnx', dims: {}, settings: cpu });
    await handle(growth(2, cpu));
    expect(points(2).map((p) => p.point.value)).toEqual([1, 4, 16]);
    const direct: number[] = [];
    for (const [k, batch] of [1, 4, 16].entries()) {
      await handle({ type: 'reinfer', id: 10 + k, dims: { batch }, settings: cpu });
      const result = posted.at(-1) as ResultResponse;
      direct.push(result.plan.status === 'planned' ? result.plan.plan.peak : -1);
    }
    expect(points(2).map((p) => p.point.peak)).toEqual(direct);
    // x and y, 16 bytes per batch each, rounded up to 64: both live at once.
    expect(direct).toEqual([128, 128, 512]);
    expect(points(2).map((p) => p.point.fits)).toEqual([true, true, false]);
    const grown = posted.find((r) => r.type === 'grown');
    expect(grown).toMatchObject({ id: 2, result: { dim: 'batch', monotonic: true, crossings: [] } });
  });

  it('bisects to the largest value that fits when asked, each probe planned once', async () => {
    const { handle, posted, points } = setup();
    const cpu = limited(256);
    await handle({ type: 'open', id: 1, bytes: fakeFile('m'), name: 'm.onnx', dims: {}, settings: cpu });
    await handle(growth(2, cpu, { findFit: true }));
    const probes = points(2).filter((p) => p.probe);
    expect(probes.length).toBeGreaterThan(0);
    const values = points(2).map((p) => p.point.value);
    expect(new Set(values).size).toBe(values.length);
    // 8 × 16 = 128 bytes each for x and y fit in 256; 9 rounds up to 192 each.
    expect(posted.find((r) => r.type === 'grown')).toMatchObject({ result: { fitsUpTo: 8, crossings: [{ below: 8, above: 9, fitsBelow: true }] } });
  });

  it('varies a fixed input axis through a shape override', async () => {
    const { handle, points } = setup();
    const cpu = limited(1 << 20);
    await handle({ type: 'open', id: 1, bytes: fakeFile('m'), name: 'm.onnx', dims: {}, settings: cpu });
    await handle(growth(2, cpu, { axis: { kind: 'shape', input: 'x', axes: [0], shape: [1, 4], what: 'batch' }, values: [2, 32] }));
    expect(points(2).map((p) => p.point.peak)).toEqual([128, 2 * 512]);
  });

  it('drops a curve when a newer model is opened, without answering it', async () => {
    const { handle, posted } = setup();
    const cpu = limited(256);
    await handle({ type: 'open', id: 1, bytes: fakeFile('m'), name: 'm.onnx', dims: {}, settings: cpu });
    const running = handle(growth(2, cpu, { values: [1, 2, 4, 8, 16, 32] }));
    await handle({ type: 'open', id: 3, bytes: fakeFile('other'), name: 'other.onnx', dims: {}, settings: cpu });
    await running;
    expect(posted.some((r) => r.type === 'grown')).toBe(false);
    expect(posted.find((r) => r.type === 'error' && r.id === 2)).toMatchObject({ error: { code: 'superseded' } });
  });

  it('stops at a cancel between points', async () => {
    const { handle, posted, points } = setup();
    const cpu = limited(256);
    await handle({ type: 'open', id: 1, bytes: fakeFile('m'), name: 'm.onnx', dims: {}, settings: cpu });
    const running = handle(growth(2, cpu, { values: [1, 2, 4, 8, 16, 32] }));
    await handle({ type: 'cancel', id: 2 });
    await running;
    expect(points(2).length).toBeLessThan(6);
    expect(posted.some((r) => r.type === 'grown')).toBe(false);
  });
});
