// The tool as a shell runs it: a reader that closes the pipe ends it quietly
// with the exit code of its verdict, and relative paths under `npm run` are read from the user's directory.

import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { densenetModel, DENSENET_121 } from '../src/model/testing/densenet-model';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { userDirectory } from './main';
import { run } from './testing/run-cli';

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

/** Bytes of output that surely outlast a pipe (64 KiB on Linux) and the first read from it: the writer meets the closed end. */
const FILLS_PIPE = 2 * 64 * 1024;

/** Two DenseNet-shaped models with many buffers (long JSON), at 32 and 64 pixels; the 64-pixel plan does not fit the mcu's SRAM. */
function largeModels(): { small: string; large: string } {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-pipe-models-'));
  const shape = { ...DENSENET_121, blocks: [6, 12, 96, 64] };
  const [small, large] = [join(dir, 'a.onnx'), join(dir, 'b.onnx')];
  writeFileSync(small, densenetModel({ ...shape, image: 32 }));
  writeFileSync(large, densenetModel({ ...shape, image: 64 }));
  return { small, large };
}

/**
 * Runs the tool with stdout into a pipe whose reader is gone before the first
 * byte (a FIFO opened for writing, its only reader then closed): every write
 * meets EPIPE, however short the output.
 */
function writeToClosedPipe(argv: readonly string[]): { code: number | null; err: string } {
  const fifo = join(mkdtempSync(join(tmpdir(), 'heapscope-fifo-')), 'out');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv], { cwd: ROOT, stdio: ['ignore', writer, 'pipe'], encoding: 'utf8' });
    return { code: r.status, err: r.stderr };
  } finally {
    closeSync(writer);
  }
}

describe('a reader that closes the pipe keeps the verdict in the exit code', () => {
  const { small, large } = largeModels();
  const over = [large, '--target', 'mcu', '--spill', 'off'];

  it.each([
    ['plan over its size limit', ['plan', ...over, '--json'], 3],
    ['plan with a file that fails', ['plan', ...over, '/no/such.onnx', '--json'], 2],
    ['inspect with a file that fails', ['inspect', small, '/no/such.onnx', '--json'], 2],
    ['diff over --budget', ['diff', small, large, '--budget', '1', '--json'], 3],
  ] as const)('%s: the exit code and stderr of a full run, after the reader took one byte', (_, argv, verdict) => {
    const full = run(argv);
    expect(full.code).toBe(verdict);
    expect(full.out.length).toBeGreaterThan(FILLS_PIPE);
    const { code, err } = readFirstByte(argv);
    expect(err).toBe(full.err);
    expect(code).toBe(verdict);
  }, 60_000);

  it('plan --save /dev/stdout over its size limit: exit 3, stderr the verdict alone', () => {
    const saved = join(mkdtempSync(join(tmpdir(), 'heapscope-save-')), 'plan.json');
    expect(run(['plan', ...over, '--save', saved]).code).toBe(3);
    expect(readFileSync(saved).length).toBeGreaterThan(FILLS_PIPE);
    const { code, err } = readFirstByte(['plan', ...over, '--save', '/dev/stdout']);
    expect(err).toMatch(/^heapscope: .*: DOES NOT FIT: region \S+ needs [\d,]+ bytes, [\d,]+ over its size limit of [\d,]+ bytes\n$/);
    expect(code).toBe(3);
  }, 60_000);

  it.each([
    ['plan over its size limit', (m: string) => ['plan', m, '--target', 'mcu', '--spill', 'off'], 3],
    ['inspect with a file that fails', (m: string) => ['inspect', m, '/no/such.onnx'], 2],
    ['diff over --budget', (m: string) => ['diff', m, m, '--budget', '1'], 3],
    ['sweep with a file that fails', (m: string) => ['sweep', m, '/no/such.onnx', '--dim', 'batch=1..4'], 2],
    ['solve of a bad problem', () => ['solve', tempCsv('id,lower\n'), '--json'], 2],
    ['targets', () => ['targets', '--json'], 0],
  ] as const)('%s: the exit code and stderr of a full run, the reader gone before the first byte', (_, args, verdict) => {
    const argv = args(withModel().model);
    const full = run(argv);
    expect(full.code).toBe(verdict);
    const { code, err } = writeToClosedPipe(argv);
    expect(err).toBe(full.err);
    expect(code).toBe(verdict);
  }, 60_000);
});

describe('output that cannot be written for another reason', () => {
  it.skipIf(!existsSync('/dev/full'))('is one line on stderr and exit 2 (stdout on a full device)', () => {
    const { model } = withModel();
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), 'plan', model, '--json'], { cwd: ROOT, stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.stderr).toBe('heapscope: cannot write the output: no space left on the device\n');
      expect(r.status).toBe(2);
    } finally {
      closeSync(full);
    }
  }, 60_000);
});

function tempCsv(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-csv-')), 'p.csv');
  writeFileSync(path, text);
  return path;
}

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
