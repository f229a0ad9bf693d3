import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../planner/strategies/registry';
import { createRequestHandler } from '../handler';
import { DEFAULT_SETTINGS as CPU } from '../../settings/names';
import type { ComparedResponse, WorkerResponse } from '../protocol';
import { fakeDecode, fakeFile, fakeInfer } from '../testing/fakes';

/** A handler over the fakes whose yields run queued work first, like a worker's event loop. */
function setup() {
  const posted: WorkerResponse[] = [];
  const handle = createRequestHandler((r) => posted.push(r), { decode: fakeDecode, infer: fakeInfer, yieldToQueue: () => new Promise((r) => setTimeout(r, 0)) });
  return { posted, handle };
}

describe('strategy comparison in the worker', () => {
  it('plans the inferred model with every strategy, reporting progress per strategy', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool'), name: 'a.onnx', dims: { batch: 3 }, settings: CPU });
    await handle({ type: 'compare', id: 2, settings: { target: 'mcu', strategy: 'naive' } });
    const answer = posted.at(-1) as ComparedResponse;
    expect(answer).toMatchObject({ type: 'compared', id: 2, settings: { target: 'mcu' } });
    expect(answer.peaks.map((p) => p.strategy)).toEqual([...STRATEGY_NAMES]);
    for (const p of answer.peaks) {
      expect(p.status).toBe('planned');
      if (p.status !== 'planned') continue;
      expect(p.peak).toBeGreaterThanOrEqual(p.lowerBound);
      expect(p.regions.map((r) => r.name)).toEqual(['sram', 'ext-ram']);
    }
    const labels = posted.filter((r) => r.type === 'progress' && r.id === 2).map((r) => (r.type === 'progress' ? r.label : ''));
    expect(labels).toHaveLength(STRATEGY_NAMES.length);
    expect(labels[2]).toBe(`Comparing strategies: ${STRATEGY_NAMES[2]} (3 of ${STRATEGY_NAMES.length})`);
  });

  it('lets a replan run between strategies and is dropped by a re-inference', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool'), name: 'a.onnx', dims: {}, settings: CPU });
    const comparing = handle({ type: 'compare', id: 2, settings: CPU });
    const replanning = handle({ type: 'replan', id: 3, settings: { target: 'cpu', strategy: 'naive' } });
    await replanning;
    expect(posted.some((r) => r.type === 'planned' && r.id === 3)).toBe(true);
    expect(posted.some((r) => r.type === 'compared')).toBe(false);
    await handle({ type: 'reinfer', id: 4, dims: { batch: 2 }, settings: CPU });
    await comparing;
    expect(posted.filter((r) => r.id === 2).at(-1)).toMatchObject({ type: 'error', error: { code: 'superseded' } });
    expect(posted.some((r) => r.type === 'compared')).toBe(false);
  });

  it('answers no-model when nothing was opened, and reports a strategy that fails with its error', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'compare', id: 1, settings: CPU });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 1, error: { code: 'no-model' } });
    await handle({ type: 'open', id: 2, bytes: fakeFile('tool'), name: 'a.onnx', dims: {}, settings: CPU });
    await handle({ type: 'compare', id: 3, settings: { target: 'cpu', strategy: undefined, edits: { regions: { ram: { alignment: 48 } } } } });
    const answer = posted.at(-1) as ComparedResponse;
    expect(answer.peaks.every((p) => p.status === 'failed' && p.error.message === 'ram alignment must be a power of two, got 48')).toBe(true);
  });
});
