// The command line says which stop ended best's search: without --budget-ms
// counted work ('iterations', the same plan on any machine), with it the
// wall clock ('time'); `solve --json` and `diff --json` carry the record
// that `plan --json` has as `search`.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { heavyNetworkProblem } from '../src/planner/testing/instances-heavy';
import { run } from './testing/run-cli';
import { problemCsv, tempDir } from './testing/temp-files';

const SAMPLE = join(__dirname, '../public/sample.onnx');

/** A crowded trace whose search the default budget ends before it is done. */
const CROWDED = problemCsv(writeMinimallocCsv(heavyNetworkProblem(2_000, 2), undefined));

/**
 * A model of 300 activations of widely mixed sizes live over overlapping
 * stretches (a fixed seed), each read once: no baseline reaches its bound and
 * no search ends within a millisecond, so a 1 ms budget always cuts it.
 */
function crowdedModelFile(): string {
  let state = 4;
  const random = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const events = Array.from({ length: 300 }, (_, k) => {
    const at = random() * 100;
    return [{ k, at, open: true }, { k, at: at + 1 + random() ** 2 * 60, open: false }];
  }).flat();
  events.sort((a, b) => a.at - b.at);
  const g = new GraphBuilder('crowded');
  const x = g.input('x', 'uint8', [1]);
  const made = new Map<number, string>();
  for (const e of events) {
    if (e.open) made.set(e.k, g.node('Expand', [x, g.initializer(`shape${e.k}`, 'int64', [1], [16 * (1 + Math.floor(random() ** 3 * 4096))])], {}, { name: `make${e.k}` }));
    else g.output(g.node('ReduceMax', [made.get(e.k)!], { keepdims: 1 }, { name: `read${e.k}` }), 'uint8', [1]);
  }
  const path = join(tempDir('search'), 'crowded.onnx');
  writeFileSync(path, g.toBytes({ opset: 17 }));
  return path;
}

function solve(argv: readonly string[]) {
  const result = run(['solve', ...argv, '--json']);
  expect([result.code, result.err]).toEqual([0, '']);
  return JSON.parse(result.out);
}

describe('which stop ended the search', () => {
  it('solve without --budget-ms stops by counted work and writes the same solution twice', () => {
    const dir = tempDir('search');
    const first = solve([CROWDED, '--out', join(dir, 'a.csv')]);
    const second = solve([CROWDED, '--out', join(dir, 'b.csv')]);
    expect(first.search).toEqual({ proven: false, stoppedBy: 'iterations' });
    expect(second.peak).toBe(first.peak);
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
    expect(run(['solve', CROWDED]).out).toMatch(/optimal {7}not proven; stopped by counted work/);
  });

  it('solve without --budget-ms gives the same peak and offsets while other processes load every core', async () => {
    const dir = tempDir('search');
    const quiet = solve([CROWDED, '--out', join(dir, 'quiet.csv')]);
    // busy loops on every core (and one more), started before the run and stopped after it
    const burners = Array.from({ length: 3 }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const loaded = solve([CROWDED, '--out', join(dir, 'loaded.csv')]);
      expect([loaded.peak, loaded.search]).toEqual([quiet.peak, quiet.search]);
      expect(readFileSync(join(dir, 'loaded.csv'), 'utf8')).toBe(readFileSync(join(dir, 'quiet.csv'), 'utf8'));
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
    }
  }, 60_000);

  it('solve with --budget-ms stops by the clock and says time', () => {
    expect(solve([CROWDED, '--budget-ms', '1']).search).toEqual({ proven: false, stoppedBy: 'time' });
  });

  it('solve with --budget-ms never promises the same plan on any machine, and says when every search ended before the budget', () => {
    const text = run(['solve', problemCsv('id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,30\nd,0,4,7\n'), '--strategy', 'naive', '--budget-ms', '600000']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/optimal {7}not proven; nothing left to try \(every search ended before the time budget\)\n/);
    expect(run(['solve', CROWDED, '--budget-ms', '1']).out).toMatch(/optimal {7}not proven; stopped at the time budget\n/);
    for (const out of [text.out, run(['solve', CROWDED, '--budget-ms', '1']).out]) expect(out).not.toContain('any machine');
  });

  it('solve says proven when the plan reaches the bound', () => {
    const report = solve([problemCsv('id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,30\nd,3,5,40\ne,0,2,50\n')]);
    expect([report.peak, report.search]).toEqual([80, { proven: true, stoppedBy: 'optimal', proof: 'lower-bound' }]);
  });

  it('diff --json gives the search record of each side', () => {
    const result = run(['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=2', '--json']);
    expect(result.code).toBe(0);
    const diff = JSON.parse(result.out);
    for (const side of [diff.searchA, diff.searchB]) expect(side).toMatchObject({ proven: expect.any(Boolean), stoppedBy: expect.stringMatching(/^(optimal|done|iterations)$/) });
  });

  it('plan takes --budget-ms as solve does: the same plan where the search ends before it, and a bad value is one line', () => {
    const counted = JSON.parse(run(['plan', SAMPLE, '--target', 'mcu', '--json']).out);
    const timed = run(['plan', SAMPLE, '--target', 'mcu', '--budget-ms', '2000', '--json']);
    expect([timed.code, timed.err]).toEqual([0, '']);
    const plan = JSON.parse(timed.out);
    expect(plan.peak).toBe(counted.peak);
    expect(plan.search.stoppedBy).not.toBe('iterations');
    for (const bad of ['0', '-5', '1.5', 'soon']) {
      const refused = run(['plan', SAMPLE, '--budget-ms', bad]);
      expect([refused.code, refused.out]).toEqual([2, '']);
      expect(refused.err).toBe(`heapscope: --budget-ms must be a positive whole number of milliseconds, got "${bad}"\n`);
    }
  });

  it('plan and diff stop best\'s search at --budget-ms, not at the counted work', () => {
    const model = crowdedModelFile();
    // Without the budget applied, the counted work would end the search: 'iterations'.
    const timed = JSON.parse(run(['plan', model, '--budget-ms', '1', '--json']).out);
    expect(timed.search).toEqual({ proven: false, stoppedBy: 'time' });
    const diff = JSON.parse(run(['diff', model, model, '--budget-ms', '1', '--json']).out);
    expect([diff.searchA, diff.searchB]).toEqual([timed.search, timed.search]);
  });

  it('diff takes --budget-ms for the sides it plans, and refuses a bad value in one line', () => {
    const timed = run(['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=2', '--budget-ms', '2000', '--json']);
    expect([timed.code, timed.err]).toEqual([0, '']);
    const counted = JSON.parse(run(['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=2', '--json']).out);
    const diff = JSON.parse(timed.out);
    expect([diff.peakA, diff.peakB]).toEqual([counted.peakA, counted.peakB]);
    for (const side of [diff.searchA, diff.searchB]) expect(side.stoppedBy).not.toBe('iterations');
    const refused = run(['diff', SAMPLE, SAMPLE, '--budget-ms', '0']);
    expect([refused.code, refused.err]).toEqual([2, 'heapscope: --budget-ms must be a positive whole number of milliseconds, got "0"\n']);
  });

  it('a spill whose split stopped at its work budget is not said to have ended on its own', () => {
    // FastestDet at mcu: the text said "search stopped by its work budget" where --json said stoppedBy 'done'
    const fastest = join(__dirname, '../../shared/models/FastestDet.onnx');
    if (!existsSync(fastest)) return void console.log('cli search-stop: ../shared/models is absent; skipping the spill stop');
    const result = run(['plan', fastest, '--target', 'mcu', '--json']);
    const plan = JSON.parse(result.out);
    expect(plan.spill.proven).toBe(false);
    expect(plan.search).toEqual({ proven: false, stoppedBy: 'iterations' });
    expect(run(['plan', fastest, '--target', 'mcu']).out).toContain('search stopped by its work budget');
  });

  it('names the largest --budget-ms accepted when the value is past it', () => {
    for (const argv of [['plan', SAMPLE], ['solve', 'problem.csv'], ['diff', SAMPLE, SAMPLE]]) {
      const refused = run([...argv, '--budget-ms', '99999999999999999999']);
      expect([refused.code, refused.out]).toEqual([2, '']);
      expect(refused.err).toBe('heapscope: --budget-ms is too large: the largest accepted is 9007199254740991 ms (2^53 − 1), got "99999999999999999999"\n');
    }
    expect(run(['plan', SAMPLE, '--budget-ms', '9007199254740991', '--json']).code).toBe(0);
  });
});
