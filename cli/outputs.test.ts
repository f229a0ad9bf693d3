// Outputs never land on an input or on each other: by path, by symlink and by
// hard link (device and inode), for every option and every per-region file;
// a write that fails says why in words.

import { linkSync, mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { writeProblem } from './outputs';
import { run } from './testing/run-cli';

/** A temp dir holding the sample model as m.onnx. */
function withModel(): { dir: string; model: string; bytes: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-outputs-'));
  const bytes = buildSampleModel();
  const model = join(dir, 'm.onnx');
  writeFileSync(model, bytes);
  return { dir, model, bytes };
}

function expectRefused(result: { code: number; out: string; err: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.err.split('\n').filter(Boolean)).toHaveLength(1);
  expect(result.err).toMatch(pattern);
}

describe('an output on an input', () => {
  it.each(['--save', '--header', '--csv'])('plan %s onto a hard link of the model: exit 2, the model intact', (option) => {
    const { dir, model, bytes } = withModel();
    const link = join(dir, 'link.onnx');
    linkSync(model, link);
    expectRefused(run(['plan', model, option, link]), /would overwrite the model it plans \(the same file as .*m\.onnx, through a hard link\)/);
    expect(new Uint8Array(readFileSync(model))).toEqual(bytes);
  });

  it('solve --out onto a hard link of the problem: exit 2, the problem intact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-outputs-'));
    const problem = join(dir, 'p.csv');
    const text = 'id,lower,upper,size\na,0,2,4\nb,1,3,4\n';
    writeFileSync(problem, text);
    linkSync(problem, join(dir, 'q.csv'));
    expectRefused(run(['solve', problem, '--out', join(dir, 'q.csv')]), /--out .*q\.csv would overwrite the problem it solves/);
    expect(readFileSync(problem, 'utf8')).toBe(text);
  });

  it('plan --csv whose per-region file is the model: exit 2 before any file is written', () => {
    const { dir, bytes } = withModel();
    const model = join(dir, 'q.sram.csv');
    writeFileSync(model, bytes);
    expectRefused(run(['plan', model, '--target', 'mcu', '--csv', join(dir, 'q.csv')]), /--csv .*q\.csv \(its file .*q\.sram\.csv\) would overwrite the model it plans/);
    expect(new Uint8Array(readFileSync(model))).toEqual(bytes);
    expect(existsSync(join(dir, 'q.ext-ram.csv'))).toBe(false);
  });

  it('plan --save onto the --target profile it reads: exit 2', () => {
    const { dir, model } = withModel();
    const target = join(dir, 't.json');
    const profile = JSON.stringify({ name: 't', regions: [{ name: 'ram' }] });
    writeFileSync(target, profile);
    expectRefused(run(['plan', model, '--target', target, '--save', target]), /--save .*t\.json would overwrite the target profile it reads/);
    expect(readFileSync(target, 'utf8')).toBe(profile);
  });
});

describe('two outputs on one file', () => {
  it('plan --header and --save the same file: exit 2 naming both, nothing written', () => {
    const { dir, model } = withModel();
    const same = join(dir, 'same.out');
    expectRefused(run(['plan', model, '--header', same, '--save', same]), /--save .*same\.out and --header .*same\.out would write the same file/);
    expect(existsSync(same)).toBe(false);
  });

  it('plan --header on a per-region file of --csv: exit 2', () => {
    const { dir, model } = withModel();
    expectRefused(
      run(['plan', model, '--target', 'mcu', '--csv', join(dir, 'cc.csv'), '--header', join(dir, 'cc.sram.csv')]),
      /--header .*cc\.sram\.csv and --csv .*cc\.csv \(its file .*cc\.sram\.csv\) would write the same file/,
    );
  });

  it('plan --csv whose per-region files differ only by case: exit 2, nothing written', () => {
    const { dir, model } = withModel();
    const target = join(dir, 'case.json');
    writeFileSync(target, JSON.stringify({ name: 't', regions: [{ name: 'S RAM', sizeLimit: 300000, fast: true }, { name: 's_ram' }] }));
    expectRefused(
      run(['plan', model, '--target', target, '--csv', join(dir, 'cc.csv')]),
      /--csv .*cc\.csv \(its file .*cc\.S_RAM\.csv\) and --csv .*cc\.csv \(its file .*cc\.s_ram\.csv\) differ only by case: one file on a case-insensitive disk/,
    );
    expect(existsSync(join(dir, 'cc.S_RAM.csv')) || existsSync(join(dir, 'cc.s_ram.csv'))).toBe(false);
  });

  it('plan --csv whose regions make one file name: the regions are named, and renaming one is the advice', () => {
    const { dir, model } = withModel();
    const target = join(dir, 'slash.json');
    writeFileSync(target, JSON.stringify({ name: 't', regions: [{ name: 'x/y', sizeLimit: 300000, fast: true }, { name: 'x_y' }] }));
    const csv = join(dir, 'p.csv');
    const result = run(['plan', model, '--target', target, '--csv', csv]);
    expectRefused(result, /--csv .*p\.csv writes a file per region, and regions 'x\/y' and 'x_y' both make .*p\.x_y\.csv \(characters other than letters, digits, - and _ become _\); rename one of the regions in the target$/m);
    expect(result.err).not.toContain('give each its own name');
    expect(existsSync(join(dir, 'p.x_y.csv'))).toBe(false);
  });

  it('plan --header and --save on two hard links of one existing file: exit 2', () => {
    const { dir, model } = withModel();
    writeFileSync(join(dir, 'a.out'), '');
    linkSync(join(dir, 'a.out'), join(dir, 'b.out'));
    expectRefused(run(['plan', model, '--header', join(dir, 'a.out'), '--save', join(dir, 'b.out')]), /would write the same file/);
  });

  it('two outputs to a device are both written', () => {
    const { model } = withModel();
    const { code } = run(['plan', model, '--header', '/dev/null', '--save', '/dev/null']);
    expect(code).toBe(0);
  });
});

describe('a write that fails', () => {
  it('says why in words', () => {
    const { dir, model } = withModel();
    expectRefused(run(['plan', model, '--save', join(dir, 'no', 'such', 'p.json')]), /cannot write .*p\.json: no such directory$/m);
    mkdirSync(join(dir, 'd'));
    expectRefused(run(['plan', model, '--save', join(dir, 'd')]), /cannot write .*d: it is a directory$/m);
  });

  it.runIf(existsSync('/proc/version'))('says why in words for a file the system provides (/proc/version: EIO, or EACCES without root)', () => {
    const { model } = withModel();
    expectRefused(run(['plan', model, '--save', '/proc/version']), /cannot write \/proc\/version: (the device or file system failed to write it \(EIO\)|permission denied)$/m);
  });

  it.each(['EIO', 'EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EISDIR', 'ENOTDIR', 'ENOENT', 'EEXIST', 'EINVAL', 'EFBIG', 'EAGAIN', 'ENODEV'])('puts %s in words', (code) => {
    const words = writeProblem(code, new Error(code));
    expect(words).toMatch(/^[a-z]/);
    expect(words.replace(`(${code})`, '')).not.toContain(code);
  });

  it('names an errno it has no words for as a refusal, with the code', () => {
    expect(writeProblem('EWEIRD', new Error('x'))).toBe('the system refused the write (EWEIRD)');
  });
});
