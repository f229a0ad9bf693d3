// `plan` of a .tflite with SVDF memories on targets other than tflm: the seven
// variable tensors the model keeps between runs (10,240 B) are model state the
// interpreter allocates in its arena for the whole run, not graph I/O: named
// as state, out of the graph I/O figures, and kept in the arena when the
// application owns graph I/O. Skips with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const KEYWORD = join(__dirname, '../../shared/models/tflite/tflm_keyword_scrambled.tflite');
const have = existsSync(KEYWORD);
if (!have) console.log(`cli plan state: ${KEYWORD} is absent; skipping`);

const STATE = ['tensor_4', 'tensor_12', 'tensor_20', 'tensor_28', 'tensor_36', 'tensor_41', 'tensor_46'];

interface PlanJson {
  readonly peak: number;
  readonly buffers: readonly { readonly name: string; readonly kind: string; readonly size: number; readonly start: number; readonly end: number; readonly state?: true }[];
  readonly storage: { readonly io: { readonly owner: string; readonly bytes: number; readonly inArena: number } };
  readonly regions: readonly { readonly name: string; readonly io: number }[];
  readonly explanation: { readonly peakLive: readonly { readonly name: string; readonly causes: readonly string[] }[] };
}

function planJson(args: readonly string[]): PlanJson {
  const { code, out } = run(['plan', KEYWORD, '--json', ...args]);
  expect(code).toBe(0);
  return JSON.parse(out) as PlanJson;
}

describe.skipIf(!have)('plan of variable tensors', () => {
  it.each(['mcu', 'cpu'])('on %s: the SVDF memories are state for the whole run, not graph I/O', (target) => {
    const plan = planJson(['--target', target]);
    const state = plan.buffers.filter((b) => b.state === true);
    expect(state.map((b) => b.name).sort()).toEqual([...STATE].sort());
    for (const b of state) expect(b).toMatchObject({ kind: 'activation', start: 0, end: 15 });
    expect(plan.buffers.filter((b) => b.kind === 'input').map((b) => b.name)).toEqual(['tensor_52']);
    expect(plan.storage.io).toMatchObject({ owner: 'arena', bytes: 192 + 8 });
    expect(plan.explanation.peakLive.filter((r) => STATE.includes(r.name)).map((r) => r.causes[0])).toEqual(STATE.map(() => 'state'));
  });

  it('on mcu with --io application: the state stays in the arena, only the real graph I/O leaves it', () => {
    const arena = planJson(['--target', 'mcu']);
    const app = planJson(['--target', 'mcu', '--io', 'application']);
    expect(app.storage.io).toMatchObject({ owner: 'application', bytes: 200, inArena: 0 });
    expect(app.peak).toBeGreaterThanOrEqual(10240);
    expect(app.peak).toBe(arena.peak);
    for (const name of STATE) expect(app.buffers.find((b) => b.name === name)?.size).toBe(1024 * (name === 'tensor_36' || name === 'tensor_41' || name === 'tensor_46' ? 2 : 1));
  });

  it('the text names them as state and counts 200 B of graph I/O', () => {
    const text = run(['plan', KEYWORD, '--target', 'mcu']).out;
    expect(text).toMatch(/graph I\/O\s+200 B of data in inputs and outputs/);
    expect(text).toMatch(/^\s+2\.00 KiB\s+state\s+tensor_36$/m);
    expect(text).toContain('model state -> SVDF SVDF_9');
    expect(text).not.toMatch(/graph input, kept for the whole run/);
    const app = run(['plan', KEYWORD, '--target', 'mcu', '--io', 'application']).out;
    expect(app).toMatch(/peak\s+11\.0 KiB \(11,312 B\)/);
  });
});
