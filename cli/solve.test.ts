import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { run } from './testing/run-cli';
import { problemCsv, tempDir } from './testing/temp-files';

const TRACES = join(__dirname, '../../shared/planner/traces');
const traces = existsSync(TRACES) ? readdirSync(TRACES).filter((f) => f.endsWith('.csv')) : [];
if (traces.length === 0) console.log(`notice: ${TRACES} is absent; solving the shared traces is skipped`);

// TFLite Micro's TestGreedyMedium: greedy by size reaches 90 against a lower bound of 80
const MEDIUM = 'id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,30\nd,3,5,40\ne,0,2,50\n';

describe('heapscope solve', () => {
  it('prints peak, lower bound, validity, proven optimality and time as JSON', () => {
    const { code, out, err } = run(['solve', problemCsv(MEDIUM), '--strategy', 'tflm', '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ strategy: 'tflm', buffers: 5, peak: 90, lowerBound: 80, valid: true, optimal: false });
    expect(report.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('proves optimality with the default portfolio when it reaches the bound', () => {
    const report = JSON.parse(run(['solve', problemCsv(MEDIUM), '--json', '--budget-ms', '50']).out);
    expect(report).toMatchObject({ strategy: 'best', peak: 80, lowerBound: 80, optimal: true });
  });

  it('writes the solution CSV with --out, every offset filled in and valid', () => {
    const out = join(tempDir('solve'), 'solution.csv');
    const { code } = run(['solve', problemCsv(MEDIUM), '--strategy', 'm1', '--out', out]);
    expect(code).toBe(0);
    const solution = parseMinimallocCsv(readFileSync(out, 'utf8'));
    const offsets = solution.buffers.map((b) => b.fixedOffset);
    expect(offsets.every((o) => o !== undefined)).toBe(true);
    const problem = { buffers: solution.buffers.map(({ fixedOffset: _f, ...b }) => b) };
    const peak = Math.max(...solution.buffers.map((b) => b.fixedOffset! + b.size));
    expect(validatePlan(problem, { offsets: offsets as number[], peak }).valid).toBe(true);
    expect(peak).toBe(90);
  });

  it('refuses --out aimed at the problem it solves, and leaves the problem as it was', () => {
    const path = problemCsv(MEDIUM);
    const { code, err } = run(['solve', path, '--out', path]);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: --out ${path} would overwrite the problem it solves; give another file name\n`);
    expect(readFileSync(path, 'utf8')).toBe(MEDIUM);
  });

  it('re-solves its own solution of buffers whose sizes sum close to 2^53: fixed offsets are not counted twice', () => {
    const out = join(tempDir('solve'), 'solution.csv');
    const huge = `id,lower,upper,size\na,0,2,${2 ** 52}\nb,1,3,${2 ** 51}\nc,0,3,${2 ** 50}\n`;
    const first = run(['solve', problemCsv(huge), '--out', out, '--json']);
    expect(first.code).toBe(0);
    const again = run(['solve', out, '--json']);
    expect(again.err).toBe('');
    expect(JSON.parse(again.out).peak).toBe(JSON.parse(first.out).peak);
  });

  it('keeps offsets a problem fixes', () => {
    const report = JSON.parse(run(['solve', problemCsv('id,lower,upper,size,offset\na,0,2,10,100\nb,1,3,20,\n'), '--json']).out);
    expect(report).toMatchObject({ valid: true, peak: 110, lowerBound: 110 });
  });

  it('prints a readable report without --json', () => {
    const { code, out } = run(['solve', problemCsv(MEDIUM), '--strategy', 'tflm']);
    expect(code).toBe(0);
    expect(out).toMatch(/peak {10}90 B/);
    expect(out).toMatch(/lower bound {3}80 B; gap 12\.50 %/);
    expect(out).toMatch(/optimal {7}not proven/);
  });

  it('says what proved a peak optimal above the lower bound: the search, the bound leaving alignment out', () => {
    // a at 1024 beside b at 0 peaks at 1,088 B, the least any placement reaches; the bound, 96 B, counts live bytes only
    const problem = problemCsv('id,lower,upper,size,alignment\na,0,2,64,1024\nb,1,3,32,2048\n');
    const { code, out } = run(['solve', problem]);
    expect(code).toBe(0);
    expect(out).toMatch(/lower bound {3}96 B; gap 1033\.33 % \(the bound counts live bytes, not alignment or the holes between buffers: no placement reaches it\)\n/);
    expect(out).toMatch(/optimal {7}yes, proven by an exhaustive search: no placement of these buffers peaks lower, though the peak is above the lower bound\n/);
    expect(JSON.parse(run(['solve', problem, '--json']).out)).toMatchObject({ peak: 1088, lowerBound: 96, optimal: true, search: { proven: true, proof: 'search' } });
    expect(run(['solve', problemCsv(MEDIUM)]).out).toMatch(/optimal {7}yes, proven: the peak is the lower bound\n/);
  });

  it.each([
    ['a bad CSV', [problemCsv('id,lower,upper,size\na,3,1,10\n')], /problem\.csv: line 2: upper 1 is not above lower 3/],
    ['a CSV without the size column', [problemCsv('id,lower,upper\na,0,1\n')], /the header lacks the column "size"/],
    ['a missing file', ['/no/such/problem.csv'], /cannot read \/no\/such\/problem\.csv: no such file/],
    ['two files', [problemCsv(MEDIUM), problemCsv(MEDIUM)], /solve takes one problem\.csv, got 2/],
    ['a bad --budget-ms', [problemCsv(MEDIUM), '--budget-ms', 'soon'], /--budget-ms must be a positive whole number of milliseconds, got "soon"/],
    ['an unknown strategy', [problemCsv(MEDIUM), '--strategy', 'magic'], /--strategy must be one of best, .*, got "magic"/],
  ])('rejects %s with one readable line and exit code 2', (_what, argv, message) => {
    const { code, err } = run(['solve', ...argv]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(traces.length === 0).each(traces)('solves the shared trace %s validly with m1 and best, best never above m1', (trace) => {
    const solve = (strategy: string) => JSON.parse(run(['solve', join(TRACES, trace), '--strategy', strategy, '--json', '--budget-ms', '100']).out);
    const m1 = solve('m1');
    const best = solve('best');
    for (const r of [m1, best]) {
      expect(r.valid).toBe(true);
      expect(r.lowerBound).toBeLessThanOrEqual(r.peak);
      expect(r.optimal).toBe(r.peak === r.lowerBound || r.optimal);
    }
    expect(best.peak).toBeLessThanOrEqual(m1.peak);
    expect(best.lowerBound).toBe(m1.lowerBound);
  });
});

describe('solve given a binary file', () => {
  const SAMPLE = join(__dirname, '../public/sample.onnx');
  const TFLITE = join(__dirname, '../../shared/models/tflite/tflm_hello_world_int8.tflite');

  it.each([
    ['an ONNX model', SAMPLE, 'looks like an ONNX model, not a placement-problem CSV; to plan a model use `heapscope plan`'],
    ['a .tflite model', TFLITE, 'looks like a TensorFlow Lite model (.tflite), not a placement-problem CSV; to plan a model use `heapscope plan`'],
  ])('says %s is a model, in one line, exit 2', (_, file, message) => {
    const { code, out, err } = run(['solve', file]);
    expect([code, out]).toEqual([2, '']);
    expect(err).toBe(`heapscope: ${file}: ${message}\n`);
  });

  it('says other binary data is not a CSV', () => {
    const path = join(tempDir('solve'), 'blob.csv');
    writeFileSync(path, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    expect(run(['solve', path]).err).toBe(`heapscope: ${path}: not a CSV: it holds binary data (a placement problem is text, header id,lower,upper,size)\n`);
  });
});
