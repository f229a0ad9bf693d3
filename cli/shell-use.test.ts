// The tool as a shell runs it: a reader that closes the pipe ends it quietly,
// and relative paths under `npm run` are read from the user's directory.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { userDirectory } from './main';

const ROOT = join(__dirname, '..');

/** A temp dir holding the sample model as m.onnx. */
function withModel(): { dir: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-shell-'));
  const model = join(dir, 'm.onnx');
  writeFileSync(model, buildSampleModel());
  return { dir, model };
}

/** Runs the tool in a shell pipeline whose reader (`head -c 1`) closes the pipe after the first byte; its exit code and stderr. */
function readFirstByte(argv: readonly string[]): { code: number; err: string } {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-pipe-'));
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv].map(quote).join(' ');
  spawnSync('bash', ['-c', `(${command} 2>${quote(join(dir, 'err'))}; echo $? >${quote(join(dir, 'rc'))}) | head -c 1 >/dev/null`], { cwd: ROOT });
  return { code: Number(readFileSync(join(dir, 'rc'), 'utf8')), err: readFileSync(join(dir, 'err'), 'utf8') };
}

describe('a reader that closes the pipe', () => {
  it('ends plan --json of several models quietly, exit 0', () => {
    const { dir, model } = withModel();
    const models = Array.from({ length: 6 }, (_, i) => {
      const copy = join(dir, `m${i}.onnx`);
      writeFileSync(copy, readFileSync(model));
      return copy;
    });
    const { code, err } = readFirstByte(['plan', ...models, '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('ends plan --csv /dev/stdout quietly, exit 0', () => {
    const { model } = withModel();
    const { code, err } = readFirstByte(['plan', model, '--target', 'mcu', '--csv', '/dev/stdout', '--header', '/dev/stdout']);
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});

describe('relative paths under npm run', () => {
  it('are read from the directory npm was run in (INIT_CWD), only for the heapscope script', () => {
    expect(userDirectory({ npm_lifecycle_event: 'heapscope', INIT_CWD: '/home/u/models' })).toBe('/home/u/models');
    expect(userDirectory({ npm_lifecycle_event: 'test', INIT_CWD: '/home/u/models' })).toBeUndefined();
    expect(userDirectory({})).toBeUndefined();
  });

  it('npm run -s heapscope from another directory plans a model named relative to it and writes there', () => {
    const { dir } = withModel();
    const r = spawnSync('npm', ['--prefix', ROOT, 'run', '-s', 'heapscope', '--', 'plan', 'm.onnx', '--save', 'out.json'], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^m\.onnx: target cpu/);
    expect(existsSync(join(dir, 'out.json'))).toBe(true);
  }, 60_000);
});
