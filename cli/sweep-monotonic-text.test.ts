// sweep's text states the monotonic verdict `--json` carries: one line,
// whether the peak grows monotonically over the complete points, and which
// points were left out of the judgement and why.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { monotonicLine, type CliSweepPoint, type CliSweepResult } from './sweep';
import { run } from './testing/run-cli';

const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');

function point(value: number, peak: number | null, complete = true, error?: string): CliSweepPoint {
  return { value, peak, lowerBound: peak, regions: [], complete, fits: true, ...(error !== undefined && { error }) } as CliSweepPoint;
}

function result(points: readonly CliSweepPoint[], monotonic: boolean): CliSweepResult {
  const monotonicLeftOut = points.filter((p) => p.error === undefined && !p.complete).map((p) => p.value);
  return { dim: 'seq', points, monotonic, monotonicLeftOut, crossings: [], fitsUpTo: null, assumed: [], assumptions: { dims: [], branches: [] }, assumes: [] } as CliSweepResult;
}

describe('the monotonic line of sweep text', () => {
  it('says yes over every value when all are complete', () => {
    expect(monotonicLine(result([point(1, 10), point(2, 20), point(4, 40)], true))).toBe('monotonic: yes, the peak never falls as seq grows (3 values)');
  });

  it('says no and where the peak first falls', () => {
    expect(monotonicLine(result([point(1, 10), point(2, 2048), point(4, 1024)], false))).toBe('monotonic: no, the peak falls from 2.00 KiB at seq=2 to 1.00 KiB at seq=4 (3 values)');
  });

  it('counts the points left out and says why', () => {
    const points = [point(1, 10), point(2, 20), point(4, 5, false), point(8, 6, false), point(16, null, false, 'sizes pass 2^53 − 1 bytes')];
    expect(monotonicLine(result(points, true))).toBe(
      'monotonic: yes, the peak never falls as seq grows (2 values with every size known); left out: 2 lower estimates, some sizes unknown (at 4, 8); 1 that cannot be planned (at 16)',
    );
  });

  it('states the count of many left-out values once, not again after the list', () => {
    const open = [1, 2, 4, 8, 16, 32, 64, 128, 256].map((v) => point(v, v, false));
    expect(monotonicLine(result([point(0, 1), point(0.5, 2), ...open], true))).toBe(
      'monotonic: yes, the peak never falls as seq grows (2 values with every size known); left out: 9 lower estimates, some sizes unknown (at 1, 2, 4, … 256)',
    );
    const failed = [1, 2, 4, 8, 16, 32, 64].map((v) => point(v, null, false, 'too large'));
    expect(monotonicLine(result([point(0, 1), point(0.5, 2), ...failed], true))).toBe(
      'monotonic: yes, the peak never falls as seq grows (2 values with every size known); left out: 7 that cannot be planned (at 1, 2, 4, … 64)',
    );
  });

  it('says it was not judged with fewer than two complete points', () => {
    expect(monotonicLine(result([point(1, 10), point(2, 5, false)], true))).toBe('monotonic: not judged, fewer than two values have every size known; left out: 1 lower estimate, some sizes unknown (at 2)');
  });
});

describe.skipIf(!existsSync(GPT2))('sweep text on a model', () => {
  it('prints the verdict line the JSON carries as monotonic', () => {
    const argv = ['sweep', GPT2, '--dim', 'seq_len=1..64'];
    expect(JSON.parse(run([...argv, '--json']).out).monotonic).toBe(true);
    const { code, out } = run(argv);
    expect(code).toBe(0);
    expect(out.split('\n')).toContain('  monotonic: yes, the peak never falls as seq_len grows (7 values)');
  });
});
