// Hand-written and hand-edited inputs the planner reads besides models: target
// profiles and saved plans that nest without end, formulas that would overflow
// the stack, outputs aimed at the input. Each ends in exit 2 with one readable line.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { run } from './testing/run-cli';

const dir = (): string => mkdtempSync(join(tmpdir(), 'heapscope-hostile-'));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir(), name);
  writeFileSync(path, content);
  return path;
}

const deepArray = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

function expectOneLine(result: { code: number; err: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.err.split('\n').filter(Boolean)).toHaveLength(1);
  expect(result.err).toMatch(pattern);
  expect(result.err).not.toMatch(/\n\s+at /);
}

describe('hostile target profiles and plan files', () => {
  const model = (): string => file('m.onnx', buildSampleModel());

  it.each([
    ['a field nested 5,000 deep', (d: number) => `{"name": ${deepArray(d)}, "regions": [{"name": "r"}]}`, /name must be a non-empty string/],
    ['a region list nested 5,000 deep', (d: number) => `{"regions": ${deepArray(d)}}`, /regions/],
  ])('--target with %s: exit 2, one line', (_what, doc, pattern) => {
    expectOneLine(run(['plan', model(), '--target', file('t.json', doc(5000))]), pattern);
  });

  it.each([
    ['deep parentheses', `${'('.repeat(50_000)}1${')'.repeat(50_000)}`],
    ['a long unary minus chain', `${'-'.repeat(50_000)}1`],
    ['a long sum', Array.from({ length: 100_000 }, () => '1').join('+')],
    ['max of 300k arguments', `max(${Array.from({ length: 300_000 }, () => '1').join(',')})`],
  ])('--target whose scratch formula is %s: exit 2, one line', (_what, formula) => {
    const target = { regions: [{ name: 'sram', alignment: 16 }], scratch: { rules: [{ opType: 'Conv', name: 'x', formula }] } };
    expectOneLine(run(['plan', model(), '--target', file('t.json', JSON.stringify(target))]), /formula/);
  });

  it('a plan file whose field nests 5,000 deep: diff exits 2 with one line', () => {
    const good = file('a.plan.json', '');
    expect(run(['plan', model(), '--save', good]).code).toBe(0);
    const text = readFileSync(good, 'utf8').replace(/"steps":\[/, `"steps":[${deepArray(5000)},`);
    expectOneLine(run(['diff', good, file('b.plan.json', text)]), /steps/);
  });

  it.each(['--save', '--header', '--csv'])('%s aimed at the model refuses and leaves the model as it was', (option) => {
    const path = model();
    const before = readFileSync(path);
    expectOneLine(run(['plan', path, option, path]), /would overwrite the model/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  describe('hand-edited plans are checked for meaning, not only types', () => {
    type Plan = { peak: number; buffers: Record<string, unknown>[]; regions: Record<string, unknown>[]; steps: unknown[] };
    const saved = (): { path: string; doc: { plan: Plan } } => {
      const path = file('a.plan.json', '');
      expect(run(['plan', model(), '--save', path]).code).toBe(0);
      return { path, doc: JSON.parse(readFileSync(path, 'utf8')) };
    };

    it.each([
      ['steps holding null', (p: Plan) => { p.steps[0] = null; }, /plan.steps\[0\]/],
      ['a negative size', (p: Plan) => { p.buffers[0]!.size = -5; }, /plan.buffers\[0\].size/],
      ['a fractional size', (p: Plan) => { p.buffers[1]!.size = 1.5; }, /plan.buffers\[1\].size/],
      ['a size of 1e300', (p: Plan) => { p.buffers[1]!.size = 1e300; }, /plan.buffers\[1\].size/],
      ['a negative peak', (p: Plan) => { p.peak = -5; }, /plan.lowerBound|peak/],
      ['a peak below its buffers', (p: Plan & { lowerBound?: number }) => { p.peak = 5; p.lowerBound = 0; p.regions.forEach((r) => { r.peak = 5; r.lowerBound = 0; }); }, /not valid/],
      ['two buffers live at once at one offset', (p: Plan) => { const [a, b] = overlapping(p); b.offset = a.offset; }, /not valid/],
      ['an alias to itself', (p: Plan) => { p.buffers[2]!.alias = { parent: 2, offset: 0, rule: 'removable' }; }, /alias/],
      ['an alias cycle with offsets that cannot hold', (p: Plan) => { p.buffers[0]!.alias = { parent: 1, offset: 16, rule: 'removable' }; p.buffers[1]!.alias = { parent: 0, offset: 16, rule: 'removable' }; }, /not valid|alias/],
      ['an end before its start', (p: Plan) => { p.buffers[0]!.end = p.buffers[0]!.start; }, /end/],
      ['an unknown region', (p: Plan) => { p.buffers[0]!.region = 'nowhere'; }, /region/],
    ])('%s: diff --budget exits 2 instead of passing a forged plan', (_what, edit, pattern) => {
      const { path, doc } = saved();
      edit(doc.plan);
      const forged = file('b.plan.json', JSON.stringify(doc));
      expectOneLine(run(['diff', path, forged, '--budget', '4MiB']), pattern);
    });
  });
});

/** Two buffers of one region whose lifetimes overlap. */
function overlapping(p: { buffers: Record<string, unknown>[] }): [Record<string, unknown>, Record<string, unknown>] {
  const list = p.buffers.filter((b) => b.alias === undefined && (b.size as number) > 0);
  for (const a of list) {
    for (const b of list) {
      if (a !== b && a.region === b.region && (a.start as number) < (b.end as number) && (b.start as number) < (a.end as number)) return [a, b];
    }
  }
  throw new Error('the sample plan has no two buffers live at once');
}

describe('an output option followed by another option', () => {
  it('is refused as a missing value, and no file named after the option is written', () => {
    const work = dir();
    const model = join(work, 'm.onnx');
    writeFileSync(model, buildSampleModel());
    const cwd = process.cwd();
    process.chdir(work);
    try {
      for (const [option, next] of [['--save', '--strict'], ['--header', '--ascii'], ['--csv', '--json'], ['--csv', '--target=mcu']] as const) {
        const result = run(['plan', model, option, next]);
        expectOneLine(result, new RegExp(`${option} needs a value, got the option ${next}`));
        expect(readdirSync(work)).toEqual(['m.onnx']);
      }
      // a file of that name is still reachable, inline or by path
      expect(run(['plan', model, '--save=--strict']).code).toBe(0);
      expect(run(['plan', model, '--header', './--ascii']).code).toBe(0);
      expect(readdirSync(work).sort()).toEqual(['--ascii', '--strict', 'm.onnx']);
    } finally {
      process.chdir(cwd);
    }
  });
});
