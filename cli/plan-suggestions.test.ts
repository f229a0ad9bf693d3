import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const SAMPLE = join(__dirname, '../public/sample.onnx');
const hasModels = existsSync(MODELS);
if (!hasModels) console.log(`notice: ${MODELS} is absent; checking suggestions on real models is skipped`);

/** Every model of the corpus: the top-level files and the model of each folder. */
function corpus(): string[] {
  const top = readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f));
  const nested = readdirSync(MODELS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(MODELS, d.name, 'model.onnx'));
  return [...top, ...nested.filter(existsSync)];
}

function planOf(argv: readonly string[]) {
  const result = run(['plan', ...argv, '--json']);
  expect(result.code === 0 || result.code === 3, result.err).toBe(true);
  return JSON.parse(result.out) as { peak: number; suggestions: { action: string; saves: number; args?: string[]; modelEdit?: string; kind: string }[] };
}

/** Presets as they ship, and two with a weaker strategy so the strategy and order kinds arise too. */
const SETTINGS: readonly (readonly string[])[] = [
  ['--target', 'cpu'],
  ['--target', 'mcu'],
  ['--target', 'accelerator'],
  ['--target', 'phone'],
  ['--target', 'cpu', '--strategy', 'tflm'],
  ['--target', 'mcu', '--strategy', 'naive', '--order', 'file'],
];

describe.runIf(hasModels)('plan suggestions on the corpus', () => {
  it('each suggestion with args gives exactly peak - saves when its args are added', { timeout: 300_000 }, () => {
    const kinds = new Map<string, number>();
    for (const settings of SETTINGS) {
      for (const file of corpus()) {
        const base = [...settings, file];
        const plan = planOf(base);
        for (const s of plan.suggestions) {
          expect(s.saves).toBeGreaterThan(0);
          kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
          if (s.args === undefined) {
            expect(s.modelEdit, s.action).toBeTruthy();
            continue;
          }
          expect(planOf([...base, ...s.args]).peak, `${base.join(' ')} ${s.args.join(' ')}`).toBe(plan.peak - s.saves);
        }
      }
    }
    console.log(`suggestions on the corpus by kind: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    // on mcu, scratch placed in the activations' free areas (M4) grows some of these heaps: planning it with them is offered
    expect(kinds.get('scratch')).toBeGreaterThan(0);
  });
});

describe('--scratch-placement', () => {
  it('plans scratch with the activations or in their free areas, and refuses any other placement naming the flag', () => {
    const lines = (argv: readonly string[]) => run(['plan', SAMPLE, '--target', 'mcu', ...argv]).out.split('\n');
    expect(lines([]).find((l) => l.trim().startsWith('scratch'))).toContain('free-areas;');
    expect(lines(['--scratch-placement', 'with-activations']).find((l) => l.trim().startsWith('scratch'))).toContain('with-activations;');
    const bad = run(['plan', SAMPLE, '--target', 'mcu', '--scratch-placement', 'up']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe('heapscope: --scratch-placement must be one of free-areas, with-activations, got "up"');
  });
});

describe.runIf(hasModels)('a suggestion that trades fast memory for slow', () => {
  it('says per region what switching fusion off moves to dram on SqueezeNet for the accelerator, and the bytes moved in slow memory', { timeout: 60_000 }, () => {
    const base = ['--target', 'accelerator', join(MODELS, 'winml_SqueezeNet_fp16.onnx')];
    type Region = { name: string; peak: number };
    type Planned = { peak: number; regions: Region[]; traffic: { after: number }; suggestions: { kind: string; action: string; saves: number; args: string[]; regions?: (Region & { before: number; after: number })[]; slowGrowth?: number; slowTraffic?: { before: number; after: number } }[] };
    const plan = planOf(base) as unknown as Planned;
    const s = plan.suggestions.find((x) => x.kind === 'fusion')!;
    const off = planOf([...base, ...s.args]) as unknown as Planned;
    const peak = (p: Planned, name: string) => p.regions.find((r) => r.name === name)!.peak;
    expect(off.peak).toBe(plan.peak - s.saves);
    expect(s.regions).toEqual([
      { name: 'dram', fast: false, before: peak(plan, 'dram'), after: peak(off, 'dram') },
      { name: 'sram', fast: true, before: peak(plan, 'sram'), after: peak(off, 'sram') },
    ]);
    expect(s.slowGrowth).toBe(peak(off, 'dram') - peak(plan, 'dram'));
    expect(s.slowTraffic).toEqual({ before: plan.traffic.after, after: off.traffic.after });
    expect(s.action).toBe(
      'switch fusion off: the peak falls to 1.87 MiB, 551 KiB less, by trading fast memory for slow: dram 499 KiB → 1.87 MiB (+1.39 MiB), sram 1.92 MiB → 0 B (−1.92 MiB); bytes moved to and from slow memory 2.72 MiB → 27.8 MiB',
    );
    // the text output says the same
    expect(run(['plan', ...base]).out).toContain(s.action);
  });
});

describe.runIf(hasModels)('a plan over its limits because of its weights', () => {
  it('suggests the weights elsewhere, each making it fit at exactly peak - saves', { timeout: 60_000 }, () => {
    // ultraface with its weights copied to the mcu's 512 KiB sram: "suggestions": [] beside "Other settings may still make it fit"
    const base = ['--target', 'mcu', '--weights', 'copy-to:sram', join(MODELS, 'ultraface_RFB-320.onnx')];
    const plan = planOf(base) as ReturnType<typeof planOf> & { fits: boolean };
    expect(plan.fits).toBe(false);
    const weights = (plan.suggestions as (ReturnType<typeof planOf>['suggestions'][number] & { fits?: boolean })[]).filter((s) => s.kind === 'weights');
    expect(weights.map((s) => [s.args, s.fits])).toEqual([
      [['--weights', 'flash'], true],
      [['--weights', 'copy-to:ext-ram'], true],
    ]);
    expect(weights[0]!.action).toMatch(/^keep the weights in flash instead of copying them to sram at start: the plan fits/);
    for (const s of weights) {
      const after = planOf([...base, ...s.args!]) as ReturnType<typeof planOf> & { fits: boolean };
      expect([after.peak, after.fits]).toEqual([plan.peak - s.saves, true]);
    }
  });
});
