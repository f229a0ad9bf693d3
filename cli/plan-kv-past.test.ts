// What a decoder's plan assumes of its KV cache: the past inputs' bytes are
// reused after their last read, and the text and --json say what keeping them
// for the whole step would add; `sweep`, which reads no point's explanation,
// no longer places the buffers again for every point. Skips with a notice
// when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { planJson, run } from './testing/run-cli';

const placements = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/planner/explain/kv-past-kept', async (importOriginal) => (await import('../src/planner/testing/counted-kv-past')).countedKvPastKept(await importOriginal(), placements));

const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const have = existsSync(GPT2);
if (!have) console.log(`cli kv past: ${GPT2} is absent; skipping`);

type Buffer = { name: string; kind: string; size: number; start: number; end: number };

describe.skipIf(!have)('plan of a decode step with a KV cache', () => {
  const args = [GPT2, '--target', 'cpu', '--dim', 'past_seq_len=64', '--dim', 'seq_len=1'];

  it('says that it reuses the past inputs after their last read, and what keeping them for the whole step adds', () => {
    // present_1 took past_0's bytes while Details said each present output was "kept to the end of the run for the next run to read as past_0"
    const plan = planJson(args);
    const kept = plan.explanation.kvPastKept as { inputs: string[]; peak: number; extra: number };
    expect(kept.inputs).toEqual(['past_0', 'past_1', 'past_2', 'past_3', 'past_4']);
    expect(kept.extra).toBe(kept.peak - plan.peak);
    // no placement of the buffers with the past inputs live to the end is below the bytes live at once
    const buffers = plan.buffers as Buffer[];
    const runEnd = Math.max(...buffers.map((b) => b.end));
    const live = (s: number) => buffers.reduce((sum, b) => sum + (b.start <= s && s < (kept.inputs.includes(b.name) ? runEnd : b.end) ? b.size : 0), 0);
    const bound = Math.max(...Array.from({ length: runEnd }, (_, s) => live(s)));
    expect(bound).toBeGreaterThan(plan.peak);
    expect(kept.peak).toBeGreaterThanOrEqual(bound);
    const text = run(['plan', ...args]).out;
    expect(text).toContain(
      "  assumes       the bytes of each past input of the KV cache are reused after its last read (past_0, past_1, past_2 and 2 more), as a runtime sharing past and present buffers allows; a runtime that keeps the past inputs in the caller's buffers for the whole run (ONNX Runtime without a shared past/present buffer) holds past and present at once: ",
    );
  });

  it('assumes nothing of them when the application owns graph I/O, outside the arena', () => {
    const plan = planJson([...args, '--io', 'application']);
    expect(plan.explanation.kvPastKept).toBeUndefined();
    expect(run(['plan', ...args, '--io', 'application']).out).not.toContain('past input of the KV cache');
  });

  it('flags each buffer of the cache in --json as its past or its present, as the page tags them, whoever owns graph I/O', () => {
    // --json carried only storage.io.kvBytes while the page tagged these buffers "input · KV cache"
    for (const io of ['arena', 'application']) {
      const plan = planJson([...args, '--io', io]);
      const buffers = plan.buffers as (Buffer & { kvCache?: string; bytes: number })[];
      const flagged = buffers.filter((b) => b.kvCache !== undefined).map((b) => `${b.name} ${b.kind} ${b.kvCache}`);
      expect(flagged.sort()).toEqual([0, 1, 2, 3, 4].flatMap((l) => [`past_${l} input past`, `present_${l} output present`]).sort());
      expect(buffers.filter((b) => b.kvCache !== undefined).reduce((sum, b) => sum + b.bytes, 0)).toBe(plan.storage.io.kvBytes);
    }
  });
});

describe.skipIf(!have)('sweep of a decode step with a KV cache', () => {
  it('places the buffers again with the past inputs kept at the largest value only, which says what keeping them adds', () => {
    placements.count = 0;
    const { code, out } = run(['sweep', GPT2, '--target', 'cpu', '--dim', 'past_seq_len=16..64', '--points', '4', '--json']);
    expect(code).toBe(0);
    const points = JSON.parse(out).points;
    expect(points).toHaveLength(4);
    expect(points.map((p: { kvPastKept?: unknown }) => p.kvPastKept !== undefined)).toEqual([false, false, false, true]);
    expect(placements.count).toBe(1);
    placements.count = 0;
    // the plan shown at one of its values still says what keeping them adds
    const plan = planJson([GPT2, '--target', 'cpu', '--dim', 'past_seq_len=64', '--dim', 'seq_len=1']);
    expect(plan.explanation.kvPastKept.extra).toBeGreaterThan(0);
    expect(placements.count).toBe(1);
  });
});
