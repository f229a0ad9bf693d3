// `-` as an output path: the command's stdout holds its report (or its
// JSON), so `-` is refused with a line that says what to write instead; it
// used to write a file named `-` in the current directory and exit 0.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const cwd = process.cwd();

afterEach(() => process.chdir(cwd));

describe('- as an output', () => {
  it.each([
    ['plan', '--csv', [SAMPLE]],
    ['plan', '--save', [SAMPLE]],
    ['plan', '--header', [SAMPLE]],
    ['plan', '--save-tflite', [SAMPLE, '--target', 'tflm']],
    ['solve', '--out', ['problem.csv']],
  ])('%s %s - exits 2 saying what to write instead, and writes no file named -', (command, option, rest) => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-dash-'));
    writeFileSync(join(dir, 'problem.csv'), 'id,lower,upper,size\na,0,2,16\n');
    process.chdir(dir);
    for (const argv of [[command, ...rest, option, '-'], [command, ...rest, `${option}=-`], [command, ...rest, option, '-', '--json']]) {
      const { code, err } = run(argv);
      expect(err).toBe(`heapscope: ${option} -: heapscope does not take "-" for stdout, where the report goes (or the JSON with --json); give a file name, /dev/stdout to print it before the text report, or ./- for a file named "-"\n`);
      expect(code).toBe(2);
      expect(existsSync(join(dir, '-'))).toBe(false);
    }
  });

  it('writes a file named - when asked as ./-', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-dash-'));
    process.chdir(dir);
    const { code, out } = run(['plan', SAMPLE, '--csv', './-']);
    expect(code).toBe(0);
    expect(out).toContain('written       ./-');
    expect(existsSync(join(dir, '-'))).toBe(true);
  });
});
