// solve on the inputs an outside audit found failing (issue 17): sizes past
// 2^53, fixed offsets that overlap, tens of thousands of buffers live at once,
// and zero-size buffers counted in the peak.

import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';
import { problemCsv } from './testing/temp-files';

describe('solve on extreme inputs', () => {
  it('refuses sizes that add past 2^53 with exit 2 naming the limit', () => {
    const big = 2 ** 52;
    const { code, err } = run(['solve', problemCsv(`id,lower,upper,size\na,0,2,${big}\nb,0,2,${big}\nc,1,3,${big}\n`), '--json']);
    expect(code).toBe(2);
    expect(err).toContain('2^53');
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('says a whole number past 2^53 − 1 is one, too large to hold exactly, not "not an integer"', () => {
    const { code, err } = run(['solve', problemCsv('id,lower,upper,size\na,0,2,9007199254740993\n')]);
    expect(code).toBe(2);
    expect(err).toMatch(/^heapscope: .*problem\.csv: line 2: size "9007199254740993" is past 2\^53 − 1 \(9007199254740991\), the largest whole number heapscope can hold exactly\n$/);
    expect(run(['solve', problemCsv('id,lower,upper,size\na,0,2,4.5\n')]).err).toMatch(/line 2: size "4\.5" is not an integer\n$/);
  });

  it('places one buffer of 2^53 − 1 bytes, the limit itself, exactly', () => {
    const { code, out, err } = run(['solve', problemCsv('id,lower,upper,size\na,0,1,9007199254740991\n'), '--json']);
    expect([code, err]).toEqual([0, '']);
    expect(JSON.parse(out)).toMatchObject({ peak: 9007199254740991, lowerBound: 9007199254740991, valid: true });
  });

  it('says a valid problem whose sizes sum past 2^53 − 1 is too large to plan exactly, not an invalid problem or a bad CSV', () => {
    // never live together, two of 2^52 B and one of 1 B peak at 2^52 + 1 B; stacked, they pass 2^53 − 1
    const file = problemCsv(`id,lower,upper,size\na,0,1,${2 ** 52}\nb,1,2,${2 ** 52}\nc,0,2,1\n`);
    const { code, out, err } = run(['solve', file, '--json']);
    expect(code).toBe(2);
    const message = `${file}: the placement problem is too large to plan exactly: its buffers stacked one above another (sizes, alignment padding and fixed offsets) reach about 9.01 × 10^15 bytes, past 2^53 − 1 (9007199254740991), the most the planner computes exactly, though its peak may be lower`;
    expect(JSON.parse(out)).toEqual({ file, error: { code: 'too-large', message } });
    expect(err).toBe(`heapscope: ${message}\n`);
  });

  it('refuses sizes near 2^50 that sum past the limit with every strategy', () => {
    const rows = Array.from({ length: 9 }, (_, i) => `b${i},0,2,${2 ** 50 + 7}`).join('\n');
    for (const strategy of ['naive', 'tflm', 'best']) {
      const { code, err } = run(['solve', problemCsv(`id,lower,upper,size\n${rows}\n`), '--strategy', strategy]);
      expect([code, err.includes('2^53')]).toEqual([2, true]);
    }
  });

  it('refuses fixed offsets that overlap with exit 2 naming both buffers', () => {
    const { code, err } = run(['solve', problemCsv('id,lower,upper,size,offset\nfirst,0,4,100,0\nsecond,2,6,100,50\nthird,4,8,100,0\n')]);
    expect(code).toBe(2);
    expect(err).toContain('first');
    expect(err).toContain('second');
    expect(err).not.toContain('third');
  });

  it('plans 50,000 buffers all live at once', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `b${i},${i % 10},${50_010 - (i % 13)},${64 * (1 + (i % 7))}`).join('\n');
    const { code, out } = run(['solve', problemCsv(`id,lower,upper,size\n${rows}\n`), '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect([report.valid, report.peak]).toEqual([true, report.lowerBound]);
  });

  it('does not count zero-size buffers in the peak', () => {
    const csv = 'id,lower,upper,size,offset\na,0,2,100,\nempty,0,2,0,1000\nb,1,3,200,\nnone,2,3,0,\n';
    for (const strategy of ['naive', 'tflm', 'best']) {
      const report = JSON.parse(run(['solve', problemCsv(csv), '--strategy', strategy, '--json']).out);
      expect([report.peak, report.lowerBound, report.valid]).toEqual([300, 300, true]);
    }
  });
});
