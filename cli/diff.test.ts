import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffPlans } from '../src/planner/diff/diff-plans';
import { readPlanFile } from '../src/planner/assembly/plan-file';
import { parseByteSize } from './args';
import { planJson, run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-diff-'));

function diffJson(argv: string[]) {
  const { code, out, err } = run(['diff', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}

/** Saves the sample's plan with the given plan options; returns the file. */
function saved(name: string, options: string[]): string {
  const path = join(dir, name);
  const { code } = run(['plan', SAMPLE, ...options, '--save', path]);
  expect(code).toBe(0);
  return path;
}

describe('heapscope diff', () => {
  it('puts a larger batch (--b-dim) down to the dim batch, as the top cause', () => {
    const diff = diffJson([SAMPLE, SAMPLE, '--b-dim', 'batch=4']);
    expect(diff.peakB).toBeGreaterThan(3.9 * diff.peakA);
    expect(diff.delta).toBe(diff.peakB - diff.peakA);
    expect(diff.causes[0]).toMatchObject({ kind: 'dim-changed', dim: 'batch' });
    expect(diff.causes.reduce((s: number, c: { bytes: number }) => s + c.bytes, 0)).toBe(diff.delta);
    const text = run(['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=4']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^a: .*sample\.onnx \(cpu, best, batch=1\) — batch=1\nb: .*sample\.onnx \(cpu, best, batch=4\) — batch=4\npeak 2\.93 MiB -> 11\.7 MiB: \+8\.79 MiB \(\+300\.0 %\)/);
    expect(text.out).toMatch(/causes, largest first:\n +\+8\.79 MiB {2}dim batch changed \(batch 1 → 4\)/);
  });

  it('names the input shape each saved plan was made with, in the labels and the cause', () => {
    const [small, large] = [saved('image160.plan.json', ['--shape', 'image=1x3x160x160']), saved('image320.plan.json', ['--shape', 'image=1x3x320x320'])];
    const text = run(['diff', small, large]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^a: .*image160\.plan\.json \(cpu, best, image=1×3×160×160\) — image=1×3×160×160\nb: .*image320\.plan\.json \(cpu, best, image=1×3×320×320\) — image=1×3×320×320\n/);
    expect(text.out).toMatch(/causes, largest first:\n +\+[\d.]+ MiB {2}input image shape changed \(1×3×160×160 → 1×3×320×320\): \d+ buffers live at the peak grew/);
    const diff = diffJson([small, large]);
    expect(diff.inputs).toEqual([{ name: 'image', what: 'shape', input: true, a: '1×3×160×160', b: '1×3×320×320' }]);
    expect(diff.causes[0]).toMatchObject({ kind: 'input-changed', inputs: ['image'] });
  });

  it.runIf(existsSync(GPT2))("labels each of two models with its own dims only, not the other's as defaults", () => {
    const text = run(['diff', SAMPLE, GPT2]);
    expect(text.code).toBe(0);
    const [a, b] = text.out.split('\n') as [string, string];
    expect(a).toMatch(/ — .*sample\.onnx · batch=1$/);
    expect(b).toMatch(/ — .*tiny-random-gpt2-fp32-past\.onnx · batch_size=1 · seq_len=\d+ · total_seq_len=\d+ · past_seq_len=\d+$/);
  });

  it('applies plain options to both sides and --b-* options to side b only', () => {
    // --spill off: spilled, the two strategies' plans would also split the buffers differently between the regions.
    const diff = diffJson([SAMPLE, SAMPLE, '--target', 'mcu', '--spill', 'off', '--dim', 'batch=2', '--b-strategy', 'naive']);
    expect([diff.targetA, diff.targetB, diff.strategyA, diff.strategyB]).toEqual(['mcu', 'mcu', 'best', 'naive']);
    expect(diff.dims).toEqual([]);
    expect(diff.causes[0].kind).toBe('strategy-changed');
  });

  it('reads saved plans as sides and gives the causes diffPlans gives for those files', () => {
    const a = saved('a.json', ['--target', 'accelerator']);
    const b = saved('b.json', ['--target', 'accelerator', '--dim', 'batch=3']);
    const diff = diffJson([a, b]);
    const direct = diffPlans(readPlanFile(readFileSync(a, 'utf8'), a), readPlanFile(readFileSync(b, 'utf8'), b));
    expect(diff.causes).toEqual(direct.causes);
    expect([diff.peakA, diff.peakB, diff.delta]).toEqual([direct.peakA, direct.peakB, direct.delta]);
    expect(diff.causes[0].dim).toBe('batch');
    // A model against a saved plan of itself: nothing changed.
    const same = diffJson([SAMPLE, a, '--target', 'accelerator']);
    expect(same.delta).toBe(0);
    expect(same.causes).toEqual([]);
  });

  it('exits 3 when b is over --budget, 0 when within, with the budget in the report', () => {
    const within = run(['diff', SAMPLE, SAMPLE, '--budget', '4MiB']);
    expect(within.code).toBe(0);
    expect(within.out).toMatch(/budget 4\.00 MiB \(4,194,304 bytes\): b within, 1\.07 MiB to spare/);
    const over = run(['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=2', '--budget', '1.5MB', '--json']);
    expect(over.code).toBe(3);
    expect(JSON.parse(over.out)).toMatchObject({ budget: 1_500_000, overBudget: true, budgetJudged: { of: 'peakB', bytes: 6_144_000 } });
    expect(over.err).toMatch(/^heapscope: .*sample\.onnx needs 6,144,000 bytes, over the budget of 1,500,000 bytes by 4,644,000\n$/);
  });

  it('never calls b within the budget on a lower estimate: tiny-llama with a past at sequence_length=128 has sizes unknown', () => {
    const llama = join(__dirname, '../../shared/models/tiny-llama-fp16/model.onnx');
    if (!existsSync(llama)) return void console.log('cli diff: ../shared/models is absent; skipping the tiny-llama budget case');
    const argv = ['diff', llama, llama, '--dim', 'sequence_length=128', '--dim', 'past_sequence_length=0', '--b-dim', 'past_sequence_length=64', '--budget', '9MiB'];
    const text = run(argv);
    expect(text.code).toBe(0);
    // the cache grew with total_sequence_length, which follows the past the user set: the past leads, the total is its consequence
    expect(text.out).toContain('dim past_sequence_length changed (past_sequence_length 0 → 64, and with it total_sequence_length 128 → 192)');
    expect(text.out).toContain('b within only as far as known, at most 1.16 MiB to spare: its peak is a lower estimate (some sizes unknown), so it may be over');
    expect(text.err).toMatch(/^heapscope: .*model\.onnx needs at least 8,220,672 bytes \(some sizes unknown\), within the budget of 9,437,184 bytes only as far as known\n$/);
    expect(JSON.parse(run([...argv, '--json']).out)).toMatchObject({ overBudget: false, budgetVerdict: 'unknown', completeA: true, completeB: false });
    // --strict fails it, naming the side: a rests on a default batch, b on that and on its unknown sizes
    const strict = run([...argv, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.err).toMatch(/model\.onnx \(a\): --strict: the plan rests on default dims batch_size=1/);
    expect(strict.err).toMatch(/model\.onnx \(b\): --strict: the plan is incomplete: 3 tensor\(s\) of unknown size, first '\/model\/attn_mask_reformat\/.*Expand\/output_0'/);
  });

  it('--strict exits 2 when a side rests on a default dim, 0 when every dim is bound', () => {
    const loose = run(['diff', SAMPLE, SAMPLE, '--strict']);
    expect(loose.code).toBe(2);
    expect(loose.err).toMatch(/^heapscope: .*sample\.onnx \(a\): --strict: the plan rests on default dims batch=1; bind them with --dim NAME=VALUE\n/);
    const bound = run(['diff', SAMPLE, SAMPLE, '--strict', '--dim', 'batch=1', '--budget', '4MiB', '--json']);
    expect(bound.code).toBe(0);
    expect(JSON.parse(bound.out)).toMatchObject({ overBudget: false, budgetVerdict: 'within' });
  });

  it.each([
    ['a missing file', ['/no/such.onnx', SAMPLE], /^heapscope: cannot read \/no\/such\.onnx: no such file\n$/],
    ['a file that is neither a model nor a plan', [SAMPLE, 'CSV'], /^heapscope: .*b\.csv: .*\n$/],
    ['a broken plan file', ['BROKEN', SAMPLE], /^heapscope: .*broken\.json is not a plan file: not valid JSON \(.*\)\n$/],
    ['JSON that is not a plan', [SAMPLE, 'JSON'], /^heapscope: .*other\.json is not a plan file: "format" is missing, expected "heapscope-plan"\n$/],
    ['a plan file of another version', ['V2', SAMPLE], /^heapscope: .*v2\.json: plan file version 2 is not supported \(this heapscope reads version 1\)\n$/],
    ['--b-dim with a saved plan as b', [SAMPLE, 'SAVED', '--b-dim', 'batch=2'], /^heapscope: --b-dim changes how side b is planned, but .*saved\.json is a saved plan; pass its model instead\n$/],
    ['one side only', [SAMPLE], /^heapscope: diff takes two models or saved plans, a and b; got 1\n$/],
    ['a bad budget', [SAMPLE, SAMPLE, '--budget', '4 parsecs'], /^heapscope: --budget expects a byte size such as 123, 4MiB, 512KiB, 512K or 1\.5MB, got "4 parsecs"\n$/],
    ['an unknown --b-strategy', [SAMPLE, SAMPLE, '--b-strategy', 'fastest'], /^heapscope: --b-strategy must be one of best, .*, got "fastest"\n$/],
  ])('rejects %s with one line and exit code 2', (_what, argv, message) => {
    const files: Record<string, string> = {
      CSV: join(dir, 'b.csv'),
      BROKEN: join(dir, 'broken.json'),
      V2: join(dir, 'v2.json'),
      SAVED: join(dir, 'saved.json'),
      JSON: join(dir, 'other.json'),
    };
    writeFileSync(files.JSON!, '  {"nodes": []}');
    writeFileSync(files.CSV!, 'id,lower,upper,size\nx,0,1,4\n');
    writeFileSync(files.BROKEN!, '{"format": "heapscope-plan", "version": 1, "model": ');
    writeFileSync(files.V2!, '{"format": "heapscope-plan", "version": 2}');
    if (argv.includes('SAVED')) saved('saved.json', []);
    const { code, out, err } = run(['diff', ...argv.map((a) => files[a] ?? a)]);
    expect(out).toBe('');
    expect(err).toMatch(message);
    expect(code).toBe(2);
  });

  it('exits 3 from the npm script too', () => {
    const r = spawnSync('npm', ['run', '-s', 'heapscope', '--', 'diff', SAMPLE, SAMPLE, '--budget', '1KiB'], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/b OVER by 2\.93 MiB/);
  });
});

describe('parseByteSize', () => {
  it.each([
    ['123', 123],
    ['4MiB', 4 * 2 ** 20],
    ['512KiB', 512 * 1024],
    ['1.5MB', 1_500_000],
    ['2 gb', 2e9],
    ['300K', 300 * 1024],
    ['300KB', 300_000],
  ])('reads %s as %d bytes', (text, bytes) => expect(parseByteSize(text, '--budget')).toBe(bytes));

  it('refuses a fraction of a byte and unknown units, naming the value', () => {
    expect(() => parseByteSize('1.5', '--budget')).toThrow('--budget 1.5 is not a whole number of bytes (1.5 bytes)');
    expect(() => parseByteSize('0', '--budget')).toThrow('--budget must be a whole number of bytes above 0, got "0"');
    expect(() => parseByteSize('3 MiBs', '--budget')).toThrow('--budget expects a byte size such as 123, 4MiB, 512KiB, 512K or 1.5MB, got "3 MiBs"');
  });
});

describe('diff bytes moved', () => {
  it('ranks the buffers a spilled plan moved to the slow memory, against --spill off, in text and JSON', () => {
    const diff = diffJson([SAMPLE, SAMPLE, '--target', 'mcu', '--spill', 'off', '--b-spill', 'on']);
    const buffers = diff.moved.buffers as { name: string; regionA: string; regionB: string; direction: string; movedA: number; movedB: number }[];
    expect(buffers.length).toBeGreaterThan(0);
    expect(buffers.every((m) => m.regionA !== m.regionB)).toBe(true);
    expect(buffers.some((m) => m.direction === 'to-slow' && m.regionA === 'sram' && m.regionB === 'ext-ram')).toBe(true);
    const sram = (diff.moved.regions as { name: string; delta: number }[]).find((r) => r.name === 'sram')!;
    expect(sram.delta).toBeLessThan(0); // less traffic in the SRAM once buffers spilled from it
    const text = run(['diff', SAMPLE, SAMPLE, '--target', 'mcu', '--spill', 'off', '--b-spill', 'on']).out;
    expect(text).toContain('bytes moved over one inference (written and read):');
    expect(text).toContain(`  ${buffers.length} buffers changed region, most bytes moved first:`);
    const first = buffers[0]!;
    expect(text).toMatch(new RegExp(`'${first.name.replace(/[/.]/g, '\\$&')}' ${first.regionA} -> ${first.regionB} \\(to slow memory\\)`));
  });

  it('takes where the weights and graph I/O live for each side, as plan does: B with its weights copied to the SRAM moves what plan --json says', () => {
    const diff = diffJson([SAMPLE, SAMPLE, '--target', 'mcu', '--b-weights', 'copy-to:sram', '--b-io', 'application']);
    const planA = planJson([SAMPLE, '--target', 'mcu']);
    const planB = planJson([SAMPLE, '--target', 'mcu', '--weights', 'copy-to:sram', '--io', 'application']);
    const moved = (plan: { regions: { name: string; moved: { written: number; read: number } }[] }, name: string) => {
      const m = plan.regions.find((r) => r.name === name)!.moved;
      return m.written + m.read;
    };
    for (const r of diff.moved.regions as { name: string; movedA: number; movedB: number }[]) {
      expect(r.movedA).toBe(moved(planA, r.name));
      expect(r.movedB).toBe(moved(planB, r.name));
    }
    expect(diff.peakB).toBe(planB.peak);
    expect(run(['diff', SAMPLE, SAMPLE, '--b-weights', 'nowhere']).code).toBe(2);
  });
});
