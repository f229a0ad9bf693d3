// A tensor whose size is known to pass 2^53 − 1 bytes is no size unknown: no
// size limit or budget is that large (each is at most 2^53 − 1), so `plan`
// says it does not fit (exit 3), `diff --budget` says over, a sweep's point
// does not fit, and the page's verdict says so, naming the tensor. It had
// been planned as an unknown size (0 bytes) that "fits only as far as known".

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { fitVerdict } from '../src/store/fit-words';
import { run } from './testing/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'heapscope-past-limit-'));

/** x[1,seq,1] · xᵀ: scores [1,seq,seq], float32, then its row maxima. */
function attentionFile(): string {
  const g = new GraphBuilder('attn');
  const x = g.input('x', 'float32', [1, 'seq', 1]);
  const kT = g.node('Transpose', [x], { perm: [0, 2, 1] }, { name: 'kT' });
  const scores = g.node('MatMul', [x, kT], {}, { name: 'scores' });
  g.output(g.node('ReduceMax', [scores], { axes: [2], keepdims: 0 }, { name: 'rmax' }), 'float32');
  const path = join(dir, 'attn.onnx');
  writeFileSync(path, g.toBytes({ opset: 13 }));
  return path;
}

const ATTN = attentionFile();
const BOARD = join(dir, 'board.json');
writeFileSync(BOARD, JSON.stringify({
  name: 'board',
  description: 'one RAM arena of 1 GiB',
  regions: [{ name: 'ram', alignment: 64, fast: false, sizeLimit: 2 ** 30 }],
  computeUnits: [{ name: 'cpu', opTypes: ['*'], dtype: { activations: 'model', fakeQuantization: false }, alignment: 64 }],
  scratch: { rules: [], placement: 'free-areas', side: 'bottom', grow: 'top', retries: false, criterion: 'smallest-heap' },
  planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'ram', opKinds: {}, weightsHome: 'runtime' },
}));
// a limit on the fast memory only: the activations, and a tensor past 2^53 − 1 bytes with them, stay in ram, which has none
const SPLIT = join(dir, 'split.json');
writeFileSync(SPLIT, JSON.stringify({
  name: 'split',
  description: 'ram without a limit, 1 MiB of sram with one',
  regions: [{ name: 'ram', alignment: 64, fast: false }, { name: 'sram', alignment: 16, fast: true, sizeLimit: 2 ** 20 }],
  computeUnits: [{ name: 'cpu', opTypes: ['*'], dtype: { activations: 'model', fakeQuantization: false }, alignment: 64 }],
  scratch: { rules: [], placement: 'free-areas', side: 'bottom', grow: 'top', retries: false, criterion: 'smallest-heap' },
  planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'ram', opKinds: {}, weightsHome: 'runtime' },
}));
// 5e7² × 4 B = 10^16 B, past 2^53 − 1; the input alone (200 MB) is within the limit
const HUGE = ['--dim', 'seq=50000000'];
const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');

describe('a size known to pass 2^53 − 1 bytes', () => {
  it('plan: over any size limit, exit 3, the tensor named as too large, not unknown', () => {
    const json = run(['plan', ATTN, ...HUGE, '--target', BOARD, '--json']);
    expect(json.code).toBe(3);
    const plan = JSON.parse(json.out);
    expect(plan.fits).toBe(false);
    expect(plan.regions[0]).toMatchObject({ name: 'ram', pastLimit: [expect.stringMatching(/^scores/)] });
    expect(plan.assumptions.unknown).toEqual([expect.objectContaining({ op: 'MatMul', pastLimit: true, reason: expect.stringContaining('needs more than 2^53 − 1 bytes') })]);
    // still planned as 0 bytes and flagged: never counted as a size of 0
    expect(plan.complete).toBe(false);
    expect(plan.buffers.find((b: { name: string }) => b.name.startsWith('scores'))).toMatchObject({ size: 0, unknownSize: true });
    const text = run(['plan', ATTN, ...HUGE, '--target', BOARD]);
    expect(text.code).toBe(3);
    expect(text.err).toMatch(/DOES NOT FIT: region ram holds 'scores[^']*', which needs more than 2\^53 − 1 bytes .*over its size limit of 1,073,741,824 bytes/);
    expect(text.out).toMatch(/\n {2}too large {5}1 tensor\(s\) need more than 2\^53 − 1 bytes/);
    expect(text.out).not.toContain('only as far as known');
    expect(text.out).not.toMatch(/\n {2}unknown /);
    expect(text.out).not.toMatch(/\[unknown-size\]/);
    // the page's verdict line reads the same plan
    expect(fitVerdict(plan)).toMatch(/^Does not fit: ram holds 'scores[^']*', which needs more than 2\^53 − 1 bytes: over its 1\.00 GiB limit/);
  });

  it('plan: a size that is within 2^53 − 1 and one without a limit are judged as before', () => {
    const within = run(['plan', ATTN, '--dim', 'seq=1000', '--target', BOARD, '--json']);
    expect(within.code).toBe(0);
    expect(JSON.parse(within.out)).toMatchObject({ fits: true, complete: true });
    // no limit to be over: it fits no limit's test, and says the size is past 2^53 − 1, a lower estimate
    const free = run(['plan', ATTN, ...HUGE]);
    expect(free.code).toBe(0);
    expect(free.out).toContain('a lower estimate: some sizes pass 2^53 − 1 bytes');
    expect(free.out).toContain('need more than 2^53 − 1 bytes');
  });

  it('diff --budget: b is over the budget, exit 3', () => {
    const result = run(['diff', ATTN, ATTN, '--dim', 'seq=1000', '--b-dim', 'seq=50000000', '--budget', '1GiB', '--json']);
    expect(result.code).toBe(3);
    const diff = JSON.parse(result.out);
    expect(diff).toMatchObject({ budgetVerdict: 'over', overBudget: true, budgetJudged: { of: 'pastLimitB' }, pastLimitB: expect.stringMatching(/^scores/) });
    expect(result.err).toMatch(/'scores[^']*' needs more than 2\^53 − 1 bytes .*over the budget of 1,073,741,824 bytes/);
    const text = run(['diff', ATTN, ATTN, '--dim', 'seq=1000', '--b-dim', 'seq=50000000', '--budget', '1GiB']);
    expect(text.code).toBe(3);
    expect(text.out).toMatch(/b OVER: 'scores[^']*' needs more than 2\^53 − 1 bytes, over any budget/);
    expect(text.out).not.toContain('only as far as known');
  });

  it('sweep: a value past it does not fit, and no crossing says "not known to fit"', () => {
    const result = run(['sweep', ATTN, '--dim', 'seq=1000..50000000', '--points', '3', '--budget', '1GiB', '--json']);
    const sweep = JSON.parse(result.out);
    const last = sweep.points.at(-1);
    expect(last).toMatchObject({ value: 50000000, fits: false, pastLimit: expect.stringMatching(/^scores/) });
    expect(sweep.crossings.some((c: { unknown?: true }) => c.unknown === true)).toBe(false);
    expect(sweep.fitsUpTo).toBeLessThan(50000000);
    const text = run(['sweep', ATTN, '--dim', 'seq=1000..50000000', '--points', '3', '--budget', '1GiB']);
    expect(text.out).toMatch(/50000000 .*DOES NOT FIT: 'scores[^']*' needs more than 2\^53 − 1 bytes/);
    expect(text.out).not.toContain('not known to fit');
  });

  it('sweep on a target whose region with a limit does not hold it: judged as `plan` judges it, the size named too large, never unknown', () => {
    const plan = run(['plan', ATTN, ...HUGE, '--target', SPLIT, '--json']);
    expect(plan.code).toBe(0);
    const planned = JSON.parse(plan.out);
    expect(planned.fits).toBe(true);
    expect(planned.regions.every((r: { pastLimit?: string[] }) => r.pastLimit === undefined)).toBe(true);
    // plan's own line of a fit as far as known names the sizes past 2^53 − 1 bytes, not unknown ones
    const planText = run(['plan', ATTN, ...HUGE, '--target', SPLIT]).out;
    expect(planText).toMatch(/\n {2}fits {10}only as far as known: .*some sizes pass 2\^53 − 1 bytes, planned as 0 bytes in no region with a size limit/);
    expect(planText).not.toContain('some sizes are unknown');
    const argv = ['sweep', ATTN, '--dim', 'seq=1000..50000000', '--points', '3', '--target', SPLIT];
    const sweep = JSON.parse(run([...argv, '--json']).out);
    expect(sweep.points.at(-1)).toMatchObject({ value: 50000000, fits: true, complete: false, pastLimit: expect.stringMatching(/^scores/) });
    // the crossing into it names the tensor, as the point does
    expect(sweep.crossings.at(-1)).toMatchObject({ unknown: true, pastLimit: expect.stringMatching(/^scores/) });
    const text = run(argv).out;
    expect(text).toMatch(/\n +50000000 .*NOT KNOWN TO FIT: 'scores[^']*' needs more than 2\^53 − 1 bytes, planned as 0 bytes in no region with a size limit\n/);
    expect(text).toMatch(/not known to fit from seq=\d+, after not fitting up to seq=\d+: 'scores[^']*' needs more than 2\^53 − 1 bytes, planned as 0 bytes in no region with a size limit, and the lower estimate is within the size limits\n/);
    expect(text).not.toContain('some sizes unknown');
    expect(text).not.toContain('some sizes are unknown');
    // no --budget given: the crossing is judged against the size limits
    expect(text).not.toContain('within the budget');
  });

  it('sweep on a target with no size limit and no --budget: a value past it fits as `plan` says, in text and JSON alike', () => {
    if (!existsSync(GPT2)) return void console.log('cli plan-past-limit: ../shared/models is absent; skipping GPT-2');
    const plan = run(['plan', GPT2, '--target', 'cpu', '--dim', 'seq_len=9007199254740991', '--json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.out).fits).toBe(true);
    const argv = ['sweep', GPT2, '--target', 'cpu', '--dim', 'seq_len=1..9007199254740991', '--points', '2'];
    const sweep = JSON.parse(run([...argv, '--json']).out);
    // it had said fits: false here, and a crossing into a value that does not fit
    expect(sweep.points.at(-1)).toMatchObject({ value: 9007199254740991, fits: true, complete: false, pastLimit: 'input_ids' });
    expect(sweep.crossings.at(-1)).toMatchObject({ above: 2251799813685248, unknown: true });
    const text = run(argv);
    expect(text.out).not.toContain('DOES NOT FIT');
    // named too large, not unknown
    expect(text.out).toContain("≥: a lower estimate, some sizes too large, planned as 0 bytes (at 9007199254740991); first at seq_len=9007199254740991: 'input_ids' needs more than 2^53 − 1 bytes, over any size limit or budget\n");
    expect(text.out).not.toContain('some sizes unknown (at 9007199254740991)');
  });

  it('GPT-2 at seq_len 2^53 − 1 does not fit the mcu target', () => {
    if (!existsSync(GPT2)) return void console.log('cli plan-past-limit: ../shared/models is absent; skipping GPT-2');
    const result = run(['plan', GPT2, '--target', 'mcu', '--dim', 'seq_len=9007199254740991', '--json']);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.out).fits).toBe(false);
  });
});
