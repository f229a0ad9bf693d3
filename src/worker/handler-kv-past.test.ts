// The page's plan of a decoder says what keeping its past inputs to the end of
// the step adds (Details' "Assumes" line), which places every buffer once more.
// The Growth pane's points and the strategy comparison read their plans'
// figures only: they placed the buffers again all the same, once per point
// and per strategy. Now only the plan shown does. Skips with a notice when
// ../shared is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createRequestHandler } from './handler';
import type { ComparedResponse, GrowthPointResponse, ResultResponse, WorkerResponse } from './protocol';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';

const placements = vi.hoisted(() => ({ count: 0 }));
vi.mock('../planner/explain/kv-past-kept', async (importOriginal) => (await import('../planner/testing/counted-kv-past')).countedKvPastKept(await importOriginal(), placements));

const GPT2 = join(__dirname, '../../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const have = existsSync(GPT2);
if (!have) console.log(`worker kv past: ${GPT2} is absent; skipping`);

describe.skipIf(!have)("the page's decoder plan, its growth curve and its strategy comparison", () => {
  it("place the buffers again with the past inputs kept for the plan shown and a curve's largest value only", async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r), { yieldToQueue: () => Promise.resolve() });
    const bytes = new Uint8Array(readFileSync(GPT2)).buffer;
    const dims = { past_seq_len: 64, seq_len: 1 };
    placements.count = 0;
    await handle({ type: 'open', id: 1, bytes, name: 'gpt2.onnx', dims, settings: CPU });
    const opened = posted.find((r): r is ResultResponse => r.type === 'result');
    expect(opened?.plan.status === 'planned' && opened.plan.plan.explanation.kvPastKept?.extra).toBeGreaterThan(0);
    expect(placements.count).toBe(1);
    await handle({ type: 'growth', id: 2, axis: { kind: 'dim', name: 'past_seq_len' }, values: [16, 32, 64], bindings: { dims }, settings: CPU, findFit: false });
    const points = posted.filter((r): r is GrowthPointResponse => r.type === 'growth-point').map((r) => r.point);
    expect(points.map((p) => p.value)).toEqual([16, 32, 64]);
    // the curve says what a runtime keeping the past inputs adds at its largest value, as sweep does
    expect(points.map((p) => p.kvPastKept !== undefined)).toEqual([false, false, true]);
    expect(placements.count).toBe(2);
    await handle({ type: 'compare', id: 3, settings: CPU });
    expect((posted.find((r) => r.type === 'compared') as ComparedResponse).peaks.every((p) => p.status === 'planned')).toBe(true);
    expect(placements.count).toBe(2);
  });
});
