// An option that takes one value, given twice with different values, takes
// the last, as on most command lines, and says so on stderr after the result
// (not when the command refuses its input: exit 2 is one line): it used to win
// silently (`--target cpu --target mcu` planned for mcu unsaid). Refusing it
// would break DESIGN.md's promise that a suggestion's args, added to the plan
// command that made them, give its saving. Repeatable bindings stay
// repeatable for different names.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const PROBLEM = join(mkdtempSync(join(tmpdir(), 'heapscope-twice-')), 'problem.csv');
writeFileSync(PROBLEM, 'id,lower,upper,size\na,0,2,16\nb,1,3,32\n');

const note = (text: string) => `heapscope: note: ${text}: the last applies\n`;

describe('a single-value option given twice', () => {
  it.each([
    [['plan', SAMPLE, '--target', 'cpu', '--target', 'mcu', '--json'], '--target given twice ("cpu", then "mcu")', ['plan', SAMPLE, '--target', 'mcu', '--json']],
    [['plan', SAMPLE, '--strategy', 'naive', '--strategy', 'tflm', '--json'], '--strategy given twice ("naive", then "tflm")', ['plan', SAMPLE, '--strategy', 'tflm', '--json']],
    [['plan', SAMPLE, '--target', 'mcu', '--spill', 'on', '--spill=off', '--json'], '--spill given twice ("on", then "off")', ['plan', SAMPLE, '--target', 'mcu', '--spill', 'off', '--json']],
    [['solve', PROBLEM, '--strategy', 'best', '--strategy', 'naive', '--json'], '--strategy given twice ("best", then "naive")', ['solve', PROBLEM, '--strategy', 'naive', '--json']],
  ])('%j takes the last and notes it on stderr', (argv, text, last) => {
    const twice = run(argv);
    const once = run(last);
    expect(twice.err).toBe(once.err + note(text));
    expect(twice.code).toBe(once.code);
    const [a, b] = [JSON.parse(twice.out), JSON.parse(once.out)];
    expect(a.peak).toBe(b.peak);
    expect(a.strategy).toBe(b.strategy);
  });

  it('writes only the last --csv, and says the first was replaced', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-twice-'));
    const [x1, x2] = [join(dir, 'x1.csv'), join(dir, 'x2.csv')];
    const { code, err } = run(['plan', SAMPLE, '--csv', x1, '--csv', x2]);
    expect(err).toBe(note(`--csv given twice ("${x1}", then "${x2}")`));
    expect(code).toBe(0);
    expect([existsSync(x1), existsSync(x2)]).toEqual([false, true]);
  });

  it('takes the last binding of one dim, shape or input value, with the note, and a sweep value after a range', () => {
    expect(run(['plan', SAMPLE, '--dim', 'batch=1', '--dim', 'batch=2', '--json']).err).toBe(note('--dim batch given twice with different values (1, then 2)'));
    expect(JSON.parse(run(['plan', SAMPLE, '--dim', 'batch=1', '--dim', 'batch=2', '--json']).out).peak).toBe(JSON.parse(run(['plan', SAMPLE, '--dim', 'batch=2', '--json']).out).peak);
    expect(run(['plan', SAMPLE, '--shape', 'x=1x2', '--shape', 'x=1x3']).err).toContain(note('--shape x given twice with different values (1x2, then 1x3)'));
    expect(run(['plan', SAMPLE, '--input', 'sr=1', '--input', 'sr=2']).err).toContain(note('--input sr given twice with different values (1, then 2)'));
    // a dim both swept and fixed, in either order: the refusal names both, in one line
    for (const argv of [['batch=1..4', 'batch=2'], ['batch=2', 'batch=1..4']]) {
      const sweep = run(['sweep', SAMPLE, '--dim', argv[0]!, '--dim', argv[1]!, '--json']);
      expect(sweep.code).toBe(2);
      expect(sweep.err).toBe('heapscope: --dim batch=1..4 sweeps batch and --dim batch=2 fixes it: give the dim to sweep once, as NAME=FROM..TO, and no value of its own\n');
    }
    // several repeated options: one line of notes
    const both = run(['plan', SAMPLE, '--target', 'cpu', '--target', 'mcu', '--dim', 'batch=1', '--dim', 'batch=2', '--json']);
    expect(both.err.split('\n').filter((l) => l.startsWith('heapscope: note: '))).toEqual([
      'heapscope: note: --target given twice ("cpu", then "mcu"): the last applies; --dim batch given twice with different values (1, then 2): the last applies',
    ]);
  });

  it('adds a suggestion\'s args to the plan command that made them, as DESIGN.md says, and gets the saving', () => {
    const base = ['plan', SAMPLE, '--target', 'mcu', '--strategy', 'naive', '--json'];
    const plan = JSON.parse(run(base).out) as { peak: number; suggestions: { kind: string; saves: number; args: string[] }[] };
    const strategy = plan.suggestions.find((s) => s.kind === 'strategy');
    expect(strategy).toBeDefined();
    const added = run([...base, ...strategy!.args]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out).peak).toBe(plan.peak - strategy!.saves);
  });

  it('takes the same value twice without a note, and repeatable options for different names', () => {
    const once = run(['plan', SAMPLE, '--target', 'mcu', '--dim', 'N=2', '--json']);
    expect(once.code).toBe(0);
    for (const argv of [
      ['plan', SAMPLE, '--target', 'mcu', '--target=mcu', '--dim', 'N=2', '--dim', 'N=02', '--json'],
      ['plan', SAMPLE, '--target', 'mcu', '--dim', 'N=2', '--dim', 'other=3', '--shape', 'a=1', '--shape', 'b=2', '--json'],
    ]) {
      const { code, out, err } = run(argv);
      expect(code).toBe(0);
      expect(err).not.toContain('given twice');
      expect(JSON.parse(out).peak).toBe(JSON.parse(once.out).peak);
    }
  });
});

describe('one dim bound under two spellings (its name and an input axis it sizes)', () => {
  const g = new GraphBuilder('two-spellings');
  const ids = g.input('input_ids', 'float32', [1, 'seq_len']);
  g.output(g.node('Relu', [ids]), 'float32', undefined);
  const model = join(mkdtempSync(join(tmpdir(), 'heapscope-spellings-')), 'ids.onnx');
  writeFileSync(model, g.toBytes());
  const seqLen = (out: string) => JSON.parse(out).assumptions.dims.find((d: { name: string }) => d.name === 'seq_len');

  it('plan takes the last with a note naming both spellings; the same value twice is no note', () => {
    const twice = run(['plan', model, '--dim', 'input_ids:1=64', '--dim', 'seq_len=32', '--json']);
    expect(twice.code).toBe(0);
    expect(seqLen(twice.out)).toMatchObject({ value: 32, bound: true });
    expect(twice.err).toBe(`heapscope: note: ${model}: dim 'seq_len' given twice with different values (--dim input_ids:1=64, then --dim seq_len=32): the last applies\n`);
    expect(JSON.parse(twice.out).diagnostics).toContainEqual(expect.objectContaining({ code: 'dim-given-twice' }));
    // the order given decides, also when a name is given again after the other spelling
    const again = run(['plan', model, '--dim', 'seq_len=1', '--dim', 'input_ids:1=4', '--dim', 'seq_len=5', '--json']);
    expect(seqLen(again.out).value).toBe(5);
    const same = run(['plan', model, '--dim', 'input_ids:1=32', '--dim', 'seq_len=32', '--json']);
    expect([same.code, same.err]).toEqual([0, '']);
  });

  it("diff says plan's note on stderr, once when both sides are the same model with the same options", () => {
    const dims = ['--dim', 'input_ids:1=64', '--dim', 'seq_len=32'];
    const plan = run(['plan', model, ...dims]);
    for (const json of [[], ['--json']]) {
      const diff = run(['diff', model, model, ...dims, ...json]);
      expect(diff.code).toBe(0);
      expect(diff.err).toBe(plan.err);
    }
    // a note for side b alone names what side b was given
    const onB = run(['diff', model, model, '--dim', 'input_ids:1=64', '--b-dim', 'seq_len=16']);
    expect(onB.err).toBe(`heapscope: note: ${model}: dim 'seq_len' given twice with different values (--dim input_ids:1=64, then --b-dim seq_len=16): the last applies\n`);
  });

  it("sweep says plan's note for a dim besides the swept one, once per model", () => {
    // it said nothing: the last value applied at every point unsaid
    const b = new GraphBuilder('two-dims');
    const tokens = b.input('input_ids', 'float32', ['batch', 'seq_len']);
    b.output(b.node('Relu', [tokens]), 'float32', undefined);
    const twoDims = join(mkdtempSync(join(tmpdir(), 'heapscope-spellings-')), 'batch-ids.onnx');
    writeFileSync(twoDims, b.toBytes());
    const dims = ['--dim', 'input_ids:1=64', '--dim', 'seq_len=32'];
    const plan = run(['plan', twoDims, ...dims, '--json']);
    expect(plan.err).toBe(`heapscope: note: ${twoDims}: dim 'seq_len' given twice with different values (--dim input_ids:1=64, then --dim seq_len=32): the last applies\n`);
    for (const json of [[], ['--json']]) {
      const sweep = run(['sweep', twoDims, '--dim', 'batch=1..4', ...dims, ...json]);
      expect(sweep.code).toBe(0);
      expect(sweep.err).toBe(plan.err);
    }
    const peaks = (argv: string[]) => JSON.parse(run(['sweep', twoDims, '--dim', 'batch=1..4', ...argv, '--json']).out).points.map((p: { peak: number }) => p.peak);
    expect(peaks(dims)).toEqual(peaks(['--dim', 'seq_len=32']));
  });

  it('sweep refuses the swept dim fixed by its other spelling, naming both', () => {
    for (const [range, fixed] of [['seq_len=1..8', 'input_ids:1=4'], ['input_ids:1=1..8', 'seq_len=4']]) {
      const refused = run(['sweep', model, '--dim', range!, '--dim', fixed!]);
      expect(refused.code).toBe(2);
      expect(refused.out).toBe('');
      expect(refused.err).toBe(`heapscope: ${model}: --dim ${range} sweeps ${range!.split('=')[0]} and --dim ${fixed} fixes it: give the dim to sweep once, as NAME=FROM..TO, and no value of its own (both name the dim seq_len)\n`);
    }
  });
});
