// What `solve` says of a placement the input fixes (a wasteful one handed back
// was "optimal, proven" against a bound its own offsets raised) and which
// strategy `best` kept.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';
import { problemCsv, tempDir } from './testing/temp-files';

// a and b are never live together: 4 B hold both; the offsets given waste 1000 B
const WASTEFUL = 'id,lower,upper,size,offset\na,0,2,4,0\nb,2,4,4,1000\n';

describe('solve given fixed offsets', () => {
  it('says how many the input fixed, gives the bound of the live bytes beside the one with them, and is optimal only given them', () => {
    const file = problemCsv(WASTEFUL);
    const { code, out, err } = run(['solve', file]);
    expect([code, err]).toEqual([0, '']);
    expect(out).toContain('\n  fixed         2 of 2 offsets fixed by the input: a check of the placement given, nothing left to place\n');
    expect(out).toContain('\n  lower bound   1004 B with the fixed offsets (gap 0.00 %); 4 B for these buffers\' live bytes alone, what any placement of them needs\n');
    expect(out).toContain('\n  optimal       yes given the fixed offsets, proven: the peak is the lower bound with them; 1000 B above what these buffers\' live bytes need\n');
    // nothing was placed: no strategy won anything
    expect(out).not.toContain('kept');
    const report = JSON.parse(run(['solve', file, '--json']).out);
    expect(report).toMatchObject({ peak: 1004, lowerBound: 1004, fixedOffsets: 2, liveBytesBound: 4, optimal: true, search: { proof: 'lower-bound' } });
  });

  it('says how many buffers it placed around the fixed ones', () => {
    const file = problemCsv('id,lower,upper,size,offset\na,0,2,10,100\nb,1,3,20,\n');
    expect(run(['solve', file]).out).toContain('\n  fixed         1 of 2 offsets fixed by the input; the other buffer placed around them\n');
    expect(JSON.parse(run(['solve', file, '--json']).out)).toMatchObject({ peak: 110, lowerBound: 110, fixedOffsets: 1, liveBytesBound: 30 });
  });

  it('says nothing of fixed offsets where there are none, its live-bytes bound the lower bound', () => {
    const file = problemCsv('id,lower,upper,size\na,0,2,4\nb,2,4,4\n');
    const { out } = run(['solve', file]);
    expect(out).not.toContain('fixed');
    expect(out).toContain('\n  optimal       yes, proven: the peak is the lower bound\n');
    expect(JSON.parse(run(['solve', file, '--json']).out)).toMatchObject({ peak: 4, lowerBound: 4, fixedOffsets: 0, liveBytesBound: 4, optimal: true });
  });

  it('checks a plan --csv region as written: its peak and its bound are the plan\'s', () => {
    const dir = tempDir('solve-report');
    const plan = planJson([join(__dirname, '../public/sample.onnx'), '--target', 'mcu', '--csv', join(dir, 'p.csv')]);
    for (const region of plan.regions as { name: string; peak: number; lowerBound: number }[]) {
      const file = join(dir, `p.${region.name}.csv`);
      const report = JSON.parse(run(['solve', file, '--json']).out);
      expect(report).toMatchObject({ peak: region.peak, liveBytesBound: region.lowerBound, fixedOffsets: report.buffers });
      expect(run(['solve', file]).out).toContain(`  fixed         ${report.buffers} of ${report.buffers} offsets fixed by the input: a check of the placement given`);
    }
    // sram's plan is 100 KiB above its bound: the check says so, not "the peak is the lower bound"
    expect(run(['solve', join(dir, 'p.sram.csv')]).out).toContain('\n  optimal       yes given the fixed offsets, proven: the peak is the lower bound with them; 100 KiB (102,400 B) above what these buffers\' live bytes need\n');
  });
});

describe('solve --strategy best', () => {
  // TFLite Micro's TestGreedyMedium: tflm reaches 90 B, best's own search the bound of 80 B
  const MEDIUM = 'id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,30\nd,3,5,40\ne,0,2,50\n';

  it('names the strategy whose plan it kept, as plan does', () => {
    const file = problemCsv(MEDIUM);
    expect(JSON.parse(run(['solve', file, '--json']).out).portfolio).toEqual({ winner: 'best' });
    expect(run(['solve', file]).out).toContain('\n  strategy      best kept its own search\'s plan\n');
    const tflm = problemCsv('id,lower,upper,size\na,0,2,8\nb,2,4,8\n');
    expect(JSON.parse(run(['solve', tflm, '--json']).out).portfolio).toEqual({ winner: 'tflm' });
    expect(run(['solve', tflm]).out).toContain('\n  strategy      best kept tflm\'s plan\n');
  });

  it('names no winner for a strategy run alone', () => {
    const file = problemCsv(MEDIUM);
    expect(JSON.parse(run(['solve', file, '--strategy', 'tflm', '--json']).out).portfolio).toBeUndefined();
    expect(run(['solve', file, '--strategy', 'tflm']).out).not.toContain('kept');
  });
});
