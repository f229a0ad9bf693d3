// Where an output goes is checked before the work: a missing directory is said
// before a model is read or a problem solved, and a FIFO that no program reads
// is refused in one line where opening it would wait for ever.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { run } from './testing/run-cli';

const ROOT = join(__dirname, '..');

/** A temp dir holding the sample model (m.onnx), a small problem (p.csv) and a FIFO (fifo). */
function workDir(): { dir: string; model: string; problem: string; fifo: string } {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-places-'));
  const model = join(dir, 'm.onnx');
  writeFileSync(model, buildSampleModel());
  const problem = join(dir, 'p.csv');
  writeFileSync(problem, 'id,lower,upper,size\na,0,2,4\nb,1,3,4\n');
  const fifo = join(dir, 'fifo');
  spawnSync('mkfifo', [fifo]);
  return { dir, model, problem, fifo };
}

/** Runs the tool in its own process (a write that waits for ever cannot stop the tests); a run past 30 s is killed and has status null. */
function runProcess(argv: readonly string[]): { code: number | null; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, err: r.stderr };
}

const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

describe.runIf(hasMkfifo)('an output that is a FIFO', () => {
  it.each([
    ['plan', '--save'],
    ['plan', '--csv'],
    ['plan', '--header'],
    ['solve', '--out'],
  ])('%s %s FIFO with no reader: exit 2 with one line saying so, no wait', (command, option) => {
    const { model, problem, fifo } = workDir();
    const r = runProcess([command, command === 'plan' ? model : problem, option, fifo]);
    expect(r.err).toBe(`heapscope: cannot write ${fifo}: it is a pipe (FIFO) that no program is reading; start its reader first\n`);
    expect(r.code).toBe(2);
  }, 60_000);

  it('with a reader, gets every output sent to it, and the reader sees the end', async () => {
    const { dir, model, fifo } = workDir();
    const got = join(dir, 'got');
    const reader = spawn('sh', ['-c', `cat "$1" > "$2"`, 'sh', fifo, got]);
    const ended = new Promise<number | null>((done) => reader.on('close', done));
    const r = runProcess(['plan', model, '--target', 'mcu', '--csv', fifo, '--header', fifo]);
    expect(r.code).toBe(0);
    expect(await ended).toBe(0);
    const text = readFileSync(got, 'utf8');
    expect(text).toContain('#ifndef HEAPSCOPE_');
    expect(text).toContain('region,id,lower,upper,size,alignment,offset');
  }, 60_000);
});

describe('an output whose directory is missing', () => {
  it('solve --out: said before the problem is read (a bad problem is not reached)', () => {
    const { dir } = workDir();
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'id,lower,upper,size\na,0,x,4\n');
    const r = run(['solve', bad, '--out', join(dir, 'nodir', 'x.csv')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`heapscope: cannot write ${join(dir, 'nodir', 'x.csv')}: no such directory\n`);
  });

  it.each(['--save', '--header', '--csv', '--save-tflite'])('plan %s: said before the model is read (a file that is no model is not reached)', (option) => {
    const { dir } = workDir();
    const notModel = join(dir, 'n.onnx');
    writeFileSync(notModel, 'hello');
    const r = run(['plan', notModel, option, join(dir, 'nodir', 'x.out')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`heapscope: cannot write ${join(dir, 'nodir', 'x.out')}: no such directory\n`);
  });

  it('plan --save under a file: a part of the path is not a directory, before planning', () => {
    const { dir, model } = workDir();
    const notModel = join(dir, 'n.onnx');
    writeFileSync(notModel, 'hello');
    const r = run(['plan', notModel, '--save', join(model, 'x.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`heapscope: cannot write ${join(model, 'x.json')}: a part of the path is not a directory\n`);
  });
});
