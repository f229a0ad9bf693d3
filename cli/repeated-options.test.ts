// An option that takes one value, given twice with different values, is
// refused by name: the last one used to win silently (`--target cpu --target
// mcu` planned for mcu). Repeatable bindings stay repeatable for different names.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const PROBLEM = join(mkdtempSync(join(tmpdir(), 'heapscope-twice-')), 'problem.csv');
writeFileSync(PROBLEM, 'id,lower,upper,size\na,0,2,16\nb,1,3,32\n');

describe('a single-value option given twice', () => {
  it.each([
    [['plan', SAMPLE, '--target', 'cpu', '--target', 'mcu'], '--target given twice ("cpu", then "mcu"); give it once'],
    [['plan', SAMPLE, '--strategy', 'naive', '--strategy', 'best'], '--strategy given twice ("naive", then "best"); give it once'],
    [['plan', SAMPLE, '--spill', 'on', '--spill=off'], '--spill given twice ("on", then "off"); give it once'],
    [['plan', SAMPLE, '--budget-ms', '5', '--budget-ms', '6'], '--budget-ms given twice ("5", then "6"); give it once'],
    [['solve', PROBLEM, '--strategy', 'naive', '--strategy', 'best'], '--strategy given twice ("naive", then "best"); give it once'],
    [['diff', SAMPLE, SAMPLE, '--budget', '1K', '--budget', '2K'], '--budget given twice ("1K", then "2K"); give it once'],
    [['diff', SAMPLE, SAMPLE, '--b-target', 'cpu', '--b-target', 'mcu'], '--b-target given twice ("cpu", then "mcu"); give it once'],
    [['sweep', SAMPLE, '--dim', 'N=1..4', '--points', '2', '--points', '3'], '--points given twice ("2", then "3"); give it once'],
  ])('%j exits 2 naming it', (argv, message) => {
    const { code, out, err } = run(argv);
    expect(err).toBe(`heapscope: ${message}\n`);
    expect(out).toBe('');
    expect(code).toBe(2);
  });

  it('writes neither file for --csv twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-twice-'));
    const [x1, x2] = [join(dir, 'x1.csv'), join(dir, 'x2.csv')];
    const { code, err } = run(['plan', SAMPLE, '--csv', x1, '--csv', x2]);
    expect(err).toBe(`heapscope: --csv given twice ("${x1}", then "${x2}"); give it once\n`);
    expect(code).toBe(2);
    expect([existsSync(x1), existsSync(x2)]).toEqual([false, false]);
  });

  it('refuses one dim, shape or input value bound twice to different values, a sweep range and a value too', () => {
    expect(run(['plan', SAMPLE, '--dim', 'seq_len=1', '--dim', 'seq_len=5']).err).toBe('heapscope: --dim seq_len given twice with different values (1, then 5); give it once\n');
    expect(run(['plan', SAMPLE, '--shape', 'x=1x2', '--shape', 'x=1x3']).err).toBe('heapscope: --shape x given twice with different values (1x2, then 1x3); give it once\n');
    expect(run(['plan', SAMPLE, '--input', 'sr=1', '--input', 'sr=2']).err).toBe('heapscope: --input sr given twice with different values (1, then 2); give it once\n');
    expect(run(['diff', SAMPLE, SAMPLE, '--b-dim', 'N=1', '--b-dim', 'N=2']).err).toBe('heapscope: --b-dim N given twice with different values (1, then 2); give it once\n');
    expect(run(['sweep', SAMPLE, '--dim', 'N=1..4', '--dim', 'N=2']).err).toBe('heapscope: --dim N given twice with different values (1..4, then 2); give it once\n');
  });

  it('takes the same value twice, and repeatable options for different names', () => {
    const once = run(['plan', SAMPLE, '--target', 'mcu', '--dim', 'N=2', '--json']);
    expect(once.code).toBe(0);
    for (const argv of [
      ['plan', SAMPLE, '--target', 'mcu', '--target=mcu', '--dim', 'N=2', '--dim', 'N=02', '--json'],
      ['plan', SAMPLE, '--target', 'mcu', '--dim', 'N=2', '--dim', 'other=3', '--shape', 'a=1', '--shape', 'b=2', '--json'],
    ]) {
      const { code, out } = run(argv);
      expect(code).toBe(0);
      expect(JSON.parse(out).peak).toBe(JSON.parse(once.out).peak);
    }
  });
});
