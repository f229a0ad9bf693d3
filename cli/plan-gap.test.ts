// The gap between a plan's peak and its bounds compares like with like: on a
// target of several memories the peak is the sum of each memory's peak, and
// the gap line sets it against the sum of their bounds, per memory too.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const ULTRAFACE = join(__dirname, '../../shared/models/ultraface_RFB-320.onnx');
const SAMPLE = join(__dirname, '../public/sample.onnx');

interface Region {
  readonly name: string;
  readonly peak: number;
  readonly lowerBound: number;
  readonly gap: number;
}

describe('plan: the gap to the lower bound', () => {
  it('on mcu, sets the sum of the memories peaks against the sum of their bounds, and names the bound of every memory as one', () => {
    const plan = planJson([ULTRAFACE, '--target', 'mcu']);
    const regions = plan.regions as Region[];
    const bounds = regions.reduce((sum, r) => sum + r.lowerBound, 0);
    expect(plan.peak).toBe(regions.reduce((sum, r) => sum + r.peak, 0));
    expect(plan.lowerBound).toBeLessThan(bounds); // the bound of every split, below this split's sum
    expect(plan.regionBounds).toBe(bounds);
    expect(plan.regionsGap).toBeCloseTo(plan.peak / bounds - 1, 12);
    expect(plan.lowerBoundOf).toBe('every-split');
    expect(plan.gap).toBeCloseTo(plan.peak / plan.lowerBound - 1, 12); // the documented field keeps its meaning
    for (const r of regions) expect(r.gap).toBeCloseTo(r.peak / r.lowerBound - 1, 12);

    const { out } = run(['plan', ULTRAFACE, '--target', 'mcu']);
    const gapLine = out.split('\n').find((l) => /^ {2}gap {11}/.test(l));
    const percent = ((plan.peak / bounds - 1) * 100).toFixed(2);
    expect(gapLine).toContain(`${percent} %: the sum of the memories' peaks`);
    expect(gapLine).toMatch(/per memory sram \d+\.\d\d %, ext-ram \d+\.\d\d %/);
    expect(out).toMatch(/lower bound {3}4\.69 MiB \(4,917,248 B\) with every memory as one, which no split between them goes below; the sum of the memories' peaks is 10\.54 % above it/);
  }, 30_000);

  it('on a target of one memory, keeps one line whose gap is of that memory', () => {
    const plan = planJson([SAMPLE]);
    expect(plan.lowerBoundOf).toBe('regions');
    expect(plan.regionsGap).toBe(plan.gap);
    const { out } = run(['plan', SAMPLE]);
    expect(out).toMatch(/lower bound {3}.*; gap \d+\.\d\d %/);
    expect(out).not.toMatch(/^ {2}gap /m);
  });
});
