// `diff` of a saved plan against a model plans the model with the plan's saved
// settings (target, strategy, dims, shapes, input values), so `--budget` in CI
// judges b where the baseline was made; the command line's settings win.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OVER_BUDGET_EXIT } from './diff';
import { planJson, run } from './testing/run-cli';

const MNIST = join(__dirname, '../../shared/models/winml_mnist.onnx');
const SAMPLE = join(__dirname, '../public/sample.onnx');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-diff-saved-'));

/** Saves `model`'s plan with the given plan options; returns the file. */
function saved(model: string, name: string, options: string[]): string {
  const path = join(dir, name);
  expect(run(['plan', model, ...options, '--save', path]).code).toBe(0);
  return path;
}

describe('diff of a saved plan whose settings contradict it', () => {
  // settings.target hand-edited to "cpu" with targetProfile still mcu: both sides were labelled cpu and planned on mcu
  it.each([
    ['target', (d: { settings: { target: string } }) => (d.settings.target = 'cpu'), `settings.target "cpu" names the preset cpu, but settings.targetProfile is "mcu": the two contradict each other (one was edited); save the plan again`],
    ['strategy', (d: { settings: { strategy: string } }) => (d.settings.strategy = 'naive'), `settings.strategy "naive" contradicts plan.strategy "best", the strategy the plan was made with (one was edited); save the plan again`],
  ] as const)('refuses a %s that contradicts the plan with exit 2 and one line naming both', (what, edit, message) => {
    const path = saved(SAMPLE, `edited-${what}.plan.json`, ['--target', 'mcu']);
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    (edit as (d: unknown) => void)(doc);
    writeFileSync(path, JSON.stringify(doc));
    const { code, out, err } = run(['diff', path, SAMPLE, '--budget', '8MiB']);
    expect(err).toBe(`heapscope: ${path}: ${message}\n`);
    expect(out).toBe('');
    expect(code).toBe(2);
  });
});

describe('diff of a saved plan against a model', () => {
  const baseline = saved(MNIST, 'mnist-mcu.plan.json', ['--target', 'mcu']);
  const mcuPeak: number = planJson([MNIST, '--target', 'mcu']).peak;
  const cpuPeak: number = planJson([MNIST]).peak;

  it('plans the model on the saved target, so a budget a byte under its peak there fails (the README CI example)', () => {
    expect(cpuPeak).toBeLessThan(mcuPeak - 1); // on the default target b would pass
    const { code, out, err } = run(['diff', baseline, MNIST, '--budget', String(mcuPeak - 1)]);
    expect(code).toBe(OVER_BUDGET_EXIT);
    expect(out).toContain('b planned with the settings saved in a: target mcu, strategy best\n');
    expect(out).toMatch(/^b: .*winml_mnist\.onnx \(mcu, best\)/m);
    expect(out).toContain(': b OVER by 1 B');
    expect(err).toMatch(/over the budget of .* by 1\n$/);
  });

  it('lets a --target on the command line win over the saved one, and says so', () => {
    const { code, out } = run(['diff', baseline, MNIST, '--budget', String(mcuPeak - 1), '--target', 'cpu']);
    expect(code).toBe(0);
    expect(out).toContain("b planned with the settings saved in a: strategy best; the command line's --target wins\n");
    expect(out).toMatch(/^b: .*winml_mnist\.onnx \(cpu, best\)/m);
    expect(out).toContain(': b within,');
  });

  it('carries what b took from a in the new JSON field savedSettings', () => {
    const { code, out, err } = run(['diff', baseline, MNIST, '--json']);
    expect([code, err]).toEqual([0, '']);
    const diff = JSON.parse(out);
    expect(diff.peakB).toBe(mcuPeak);
    expect(diff.savedSettings).toEqual({ planned: 'b', from: 'a', target: 'mcu', strategy: 'best', dims: {}, shapes: {}, inputValues: {}, commandLine: [], notApplied: [] });
  });

  it('plans a model side a with the settings of a saved plan as b', () => {
    const diff = JSON.parse(run(['diff', MNIST, baseline, '--json']).out);
    expect(diff).toMatchObject({ peakA: mcuPeak, savedSettings: { planned: 'a', from: 'b', target: 'mcu' } });
  });

  it('applies saved dims, shapes and strategy the model has, and names in one line those it has not', () => {
    const sample = saved(SAMPLE, 'sample.plan.json', ['--target', 'accelerator', '--strategy', 'm1', '--dim', 'batch=2', '--shape', 'image=1x3x160x160']);
    const same = run(['diff', sample, SAMPLE, '--json']);
    const diff = JSON.parse(same.out);
    expect(diff.delta).toBe(0);
    expect(diff.savedSettings).toMatchObject({ target: 'accelerator', strategy: 'm1', dims: { batch: 2 }, shapes: { image: [1, 3, 160, 160] }, notApplied: [] });
    const other = run(['diff', sample, MNIST]);
    expect(other.code).toBe(0);
    expect(other.out).toContain('b planned with the settings saved in a: target accelerator, strategy m1\n');
    expect(other.out).toContain('not applied to b, saved in a: dim batch=2 (the model has no such dim), shape image=1×3×160×160 (the model has no such tensor)\n');
    expect(JSON.parse(run(['diff', sample, MNIST, '--json']).out).savedSettings.notApplied).toHaveLength(2);
  });

  it('keeps the command line for two models, and plans nothing for two saved plans', () => {
    expect(JSON.parse(run(['diff', MNIST, MNIST, '--json', '--target', 'mcu']).out).savedSettings).toBeUndefined();
    expect(JSON.parse(run(['diff', baseline, baseline, '--json']).out).savedSettings).toBeUndefined();
  });
});
