// `heapscope sweep` judges a point as `plan` does: a point fits when every
// region is within its size limit (and within --budget when given); --dim
// takes every form it takes elsewhere; `fitsUpTo` is always in --json.
// Skips with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const have = existsSync(MODELS);
if (!have) console.log(`cli sweep fits: ${MODELS} is absent; skipping`);
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');

function sweepJson(argv: readonly string[]): ReturnType<typeof JSON.parse> {
  const { code, out, err } = run(['sweep', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}

type Point = { value: number; peak: number; fits: boolean; regions: { name: string; overBy?: number }[] };

describe.skipIf(!have)('sweep fits as plan does', () => {
  it('a point over a region limit does not fit, whatever the budget: no fitsUpTo, each point says so', () => {
    // a prefill of 128 tokens (a decode step, the sweep's own choice, fits the mcu's SRAM)
    const argv = [GPT2, '--dim', 'past_seq_len=0..4', '--dim', 'seq_len=128', '--target', 'mcu', '--spill', 'off', '--budget', '10MiB'];
    const result = sweepJson(argv);
    expect(result.fitsUpTo).toBeNull();
    for (const p of result.points as Point[]) {
      expect(p.peak).toBeLessThanOrEqual(10 * 2 ** 20);
      expect(p.fits).toBe(false);
      expect(p.regions.find((r) => r.name === 'sram')!.overBy).toBeGreaterThan(0);
    }
    expect(planJson([GPT2, '--dim', 'past_seq_len=4', '--target', 'mcu', '--spill', 'off'], 3).fits).toBe(false);
    const text = run(['sweep', ...argv]);
    expect(text.out).toMatch(/^ +4 .*DOES NOT FIT: sram .* over its limit$/m);
    expect(text.out).toContain('budget 10.0 MiB (10,485,760 B) and the region size limits: no value of past_seq_len fits');
  }, 60_000);

  it('a point over --budget does not fit, as fitsUpTo has it, though every region is within its limit; its row says so', () => {
    const argv = [GPT2, '--dim', 'past_seq_len=0..16', '--target', 'mcu', '--budget', '20KiB'];
    const result = sweepJson(argv);
    const points = result.points as Point[];
    for (const p of points) {
      expect(p.regions.every((r) => r.overBy === undefined)).toBe(true);
      expect(p.fits, `past_seq_len=${p.value}`).toBe(p.peak <= 20 * 1024);
    }
    expect(points.at(-1)!.fits).toBe(false);
    // fitsUpTo and the points agree: the last point that fits is at or below it, every later one is past it
    const lastFit = points.filter((p) => p.fits).at(-1)!.value;
    expect(result.fitsUpTo).toBeGreaterThanOrEqual(lastFit);
    expect(points.filter((p) => p.value > result.fitsUpTo).every((p) => !p.fits)).toBe(true);
    const text = run(['sweep', ...argv]).out;
    expect(text).toMatch(/^ +16 .*DOES NOT FIT: peak 9\.19 KiB over the budget$/m);
    expect(text).not.toMatch(/^ +8 .*DOES NOT FIT/m);
  }, 60_000);

  it('without --budget, fitsUpTo is the last value whose plan fits (every region within its limit)', () => {
    const cpu = sweepJson([GPT2, '--dim', 'past_seq_len=0..4']);
    expect((cpu.points as Point[]).every((p) => p.fits && p.regions.every((r) => r.overBy === undefined))).toBe(true);
    expect(cpu.fitsUpTo).toBe(4);
    expect(Object.keys(cpu)).toContain('fitsUpTo');
    const mcu = sweepJson([GPT2, '--dim', 'past_seq_len=0..4', '--dim', 'seq_len=128', '--target', 'mcu', '--spill', 'off']);
    expect(mcu.fitsUpTo).toBeNull();
  }, 60_000);

  it('takes a dim by an input axis it sizes, as plan --dim does', () => {
    const byAxis = sweepJson([GPT2, '--dim', 'input_ids:1=1..4']);
    const byName = sweepJson([GPT2, '--dim', 'seq_len=1..4']);
    expect(byAxis.dim).toBe('input_ids:1');
    expect(byAxis.points.map((p: Point) => p.peak)).toEqual(byName.points.map((p: Point) => p.peak));
    expect(byAxis.points[2].peak).toBe(planJson([GPT2, '--dim', 'input_ids:1=4']).peak);
  }, 60_000);
});

describe.skipIf(!have)('plan --json regions carry spilled on every target', () => {
  it('0 where nothing spilled, on a target that does not spill', () => {
    const plan = planJson([join(MODELS, 'winml_mnist.onnx'), '--target', 'cpu']);
    for (const r of plan.regions) expect(r.spilled).toBe(0);
  });
});

describe.skipIf(!have)('sweep text when every value fits', () => {
  it('says every value swept fits up to the end of the range, not that the plan fits only up to it', () => {
    // with every point fitting the text read "fits up to past_seq_len=256", as if 256 were where it stops fitting
    const all = run(['sweep', GPT2, '--dim', 'past_seq_len=64..256', '--points', '3', '--target', 'mcu']);
    expect(all.out).toContain('the region size limits: every value swept fits, up to past_seq_len=256, the end of the range (larger values were not tried)\n');
    const some = run(['sweep', GPT2, '--dim', 'past_seq_len=64..256', '--points', '3', '--target', 'mcu', '--budget', '200KiB']);
    expect(some.out).toContain('budget 200 KiB (204,800 B) and the region size limits: fits up to past_seq_len=131\n');
  });

  it('offers a .tflite without a symbolic dim no input axis to sweep, which it would refuse', () => {
    // "sweep an input axis as INPUT:AXIS, e.g. image:2,3", then "input:1,2: … its inputs' batch and image size are not offered"
    const person = join(MODELS, 'tflite/tflm_person_detect.tflite');
    const { code, err } = run(['sweep', person, '--target', 'mcu', '--dim', 'size=1..4']);
    expect(code).toBe(2);
    expect(err).toMatch(/the model has no symbolic dim "size" \(all its dims are fixed, and a \.tflite model keeps the shapes its file states: nothing of it can be swept\)\n$/);
    expect(err).not.toContain('INPUT:AXIS');
  });
});
