// One wording for one kind of refusal, whichever option or path it is about:
// an option given a value outside its set, a file that is a directory or a
// pipe (a model or a --target profile), and an output that would overwrite
// an input (by its own path, a symbolic link or a hard link).

import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const SAMPLE = join(__dirname, '..', 'public', 'sample.onnx');
const file = tempFiles('wording');
const MODEL = file('m.onnx', new Uint8Array(readFileSync(SAMPLE)));
const DIR = dirname(MODEL);

/** The one line of a refusal (exit 2), without its "heapscope: " lead. */
function refusal(argv: readonly string[]): string {
  const r = run([...argv]);
  expect(r.code).toBe(2);
  expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  return r.err.trimEnd().replace(/^heapscope: /, '');
}

describe('an option given a value outside its set', () => {
  it.each([
    [['--fusion', 'maybe'], '--fusion must be one of on, off, got "maybe"'],
    [['--compute-units', 'on'], '--compute-units must be off, got "on"'],
    [['--order', 'bogus'], '--order must be one of file, depth-first, memory-aware, got "bogus"'],
    [['--spill', 'maybe'], '--spill must be one of on, off, got "maybe"'],
    [['--strategy', 'fastest'], '--strategy must be one of best, tflm, best-fit, greedy-breadth, tvm-conflicts, naive, m1, got "fastest"'],
  ])('plan %j is refused in the one form', (option, message) => {
    expect(refusal(['plan', MODEL, ...option])).toBe(message);
  });

  it('diff --b-strategy says so in the same form', () => {
    expect(refusal(['diff', MODEL, MODEL, '--b-strategy', 'fastest'])).toBe('--b-strategy must be one of best, tflm, best-fit, greedy-breadth, tvm-conflicts, naive, m1, got "fastest"');
  });
});

describe('a --target that is no regular file is refused in the words a model is', () => {
  it('a directory', () => {
    const dir = join(DIR, 'profiles');
    mkdirSync(dir);
    expect(refusal(['plan', dir])).toBe(`${dir} is a directory, not a file`);
    expect(refusal(['plan', MODEL, '--target', dir])).toBe(`target ${dir} is a directory, not a file`);
  });

  it('a pipe', () => {
    const fifo = join(DIR, 'profile.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(['plan', fifo])).toBe(`${fifo} is a pipe (FIFO), not a regular file; heapscope reads files only`);
    expect(refusal(['plan', MODEL, '--target', fifo])).toBe(`target ${fifo} is a pipe (FIFO), not a regular file; heapscope reads files only`);
  });
});

describe('--save onto the model it plans: one form, however the path reaches the model', () => {
  it('by its own path, a symbolic link either way, or a hard link', () => {
    const symlink = join(DIR, 'sym.onnx');
    symlinkSync(MODEL, symlink);
    const hard = join(DIR, 'hard.onnx');
    linkSync(MODEL, hard);
    const tail = 'give another file name';
    expect(refusal(['plan', MODEL, '--save', MODEL])).toBe(`--save ${MODEL} would overwrite the model it plans; ${tail}`);
    expect(refusal(['plan', MODEL, '--save', symlink])).toBe(`--save ${symlink} would overwrite the model it plans (the same file as ${MODEL}, through a symbolic link); ${tail}`);
    expect(refusal(['plan', symlink, '--save', MODEL])).toBe(`--save ${MODEL} would overwrite the model it plans (the same file as ${symlink}, through a symbolic link); ${tail}`);
    expect(refusal(['plan', MODEL, '--save', hard])).toBe(`--save ${hard} would overwrite the model it plans (the same file as ${MODEL}, through a hard link); ${tail}`);
  });
});
