// The placement with a decoder's past inputs kept to the end of the step
// (explain/kv-past-kept.ts) is one more placement of every buffer: it was run
// for each plan planModel made, a suggestion's plan made again and M1's peak
// beside `best` among them, though only the plan shown reads it. Now it runs
// once, for that plan, and a plan asked for its figures only
// (`kvPastKept: false`) has the same figures without it. Skips with a notice
// when ../shared is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeModel } from '../model/decode-model';
import { inferShapes } from '../model/infer/shapes';
import { planModel } from './plan';
import { presetTarget } from './targets/presets';
import type { TargetProfile } from './targets/target';

const placements = vi.hoisted(() => ({ count: 0 }));
vi.mock('./explain/kv-past-kept', async (importOriginal) => (await import('./testing/counted-kv-past')).countedKvPastKept(await importOriginal(), placements));

const GPT2 = join(__dirname, '../../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const have = existsSync(GPT2);
if (!have) console.log(`planner kv past: ${GPT2} is absent; skipping`);

describe.skipIf(!have)('the past inputs kept, placed for the plan shown only', () => {
  const decode = (pastSeqLen: number) => inferShapes(decodeModel(readFileSync(GPT2), { name: 'gpt2.onnx' }), { dims: { past_seq_len: pastSeqLen, seq_len: 1 } });
  beforeEach(() => {
    placements.count = 0;
  });

  it('is in the plan by default, and left out of a plan asked for its figures only, whose figures are the same', () => {
    const model = decode(64);
    const shown = planModel(model, presetTarget('cpu'));
    expect(shown.explanation.kvPastKept?.inputs).toEqual(['past_0', 'past_1', 'past_2', 'past_3', 'past_4']);
    expect(placements.count).toBe(1);
    const figures = planModel(model, presetTarget('cpu'), { kvPastKept: false });
    expect(placements.count).toBe(1);
    expect(figures.explanation.kvPastKept).toBeUndefined();
    expect(figures.explanation.peakLive).toEqual(shown.explanation.peakLive);
    expect([figures.peak, figures.lowerBound, figures.buffers]).toEqual([shown.peak, shown.lowerBound, shown.buffers]);
  });

  it("is not placed again for the spill suggestion's plan with spilling on", () => {
    const mcu = presetTarget('mcu');
    const spillOff: TargetProfile = { ...mcu, planning: { ...mcu.planning, spill: 'off' } };
    const plan = planModel(decode(4096), spillOff, { suggest: true });
    expect(plan.suggestions?.map((s) => s.kind)).toContain('spill');
    expect(plan.explanation.kvPastKept).toBeDefined();
    expect(placements.count).toBe(1);
  });

  it("is not placed again for M1's peak, planned afresh beside the compute units' best", () => {
    const plan = planModel(decode(64), presetTarget('phone'), { suggest: true });
    expect(plan.explanation.kvPastKept).toBeDefined();
    expect(placements.count).toBe(1);
  });
});
