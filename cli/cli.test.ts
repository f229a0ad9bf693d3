import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const hasModels = existsSync(MODELS);
if (!hasModels) console.log(`notice: ${MODELS} is absent; CLI tests on real models are skipped`);
const SAMPLE = join(__dirname, '../public/sample.onnx');

function tempFile(name: string, bytes: Uint8Array | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-cli-'));
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('heapscope inspect', () => {
  it('prints every value with name, dtype, shape and bytes as one JSON object', () => {
    const { code, out, err } = run(['inspect', SAMPLE, '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.file).toBe(SAMPLE);
    expect(report.nodes).toBeGreaterThan(10);
    expect(report.unknownShapes).toEqual([]);
    const activations = report.values.filter((v: { kind: string }) => v.kind === 'activation');
    expect(activations.length).toBeGreaterThan(10);
    for (const v of activations) {
      expect(typeof v.name).toBe('string');
      expect(v.dtype).toBe('float32');
      expect(v.bytes).toBe(4 * v.shape.reduce((a: number, b: number) => a * b, 1));
    }
  });

  it('binds a symbolic dim with --dim and the sizes follow it', () => {
    const one = JSON.parse(run(['inspect', SAMPLE, '--json', '--dim', 'batch=1']).out);
    const four = JSON.parse(run(['inspect', SAMPLE, '--json', '--dim', 'batch=4']).out);
    expect(four.dims).toContainEqual({ name: 'batch', value: 4, source: 'user', axes: ['image:0'], rule: 'given by the user' });
    expect(four.activationBytes).toBe(4 * one.activationBytes);
  });

  it('prints JSON Lines for several files, an error line for the bad one, and exits 2', () => {
    const broken = tempFile('broken.onnx', new Uint8Array(readFileSync(SAMPLE).subarray(0, 700)));
    const { code, out, err } = run(['inspect', SAMPLE, broken, SAMPLE, '--json']);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.file)).toEqual([SAMPLE, broken, SAMPLE]);
    expect(lines[1].error.code).toBe('truncated');
    expect(lines[1].error.message).toMatch(/ends early|truncated/i);
    expect(lines[0].nodes).toBe(lines[2].nodes);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['a missing file', ['inspect', '/no/such/model.onnx'], /no such file/],
    ['an empty file', ['inspect', tempFile('empty.onnx', '')], /empty/i],
    ['a PNG renamed .onnx', ['inspect', tempFile('image.onnx', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))], /PNG/],
    ['a bad --dim', ['inspect', SAMPLE, '--dim', 'batch=zero'], /--dim batch must be a non-negative integer/],
    ['an unknown option', ['inspect', SAMPLE, '--frobnicate'], /unknown option --frobnicate/],
    ['an unknown command', ['inflate', SAMPLE], /unknown command "inflate"/],
  ])('rejects %s with one readable line and exit code 2', (_what, argv, message) => {
    const { code, err } = run(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it.skipIf(!hasModels)('reads real models with no unknown activation shape', () => {
    const files = ['ultraface_RFB-320.onnx', 'winml_SqueezeNet_fp16.onnx', 'tiny-llama-fp32-missing-external-data.onnx'];
    const { code, out } = run(['inspect', ...files.map((f) => join(MODELS, f)), '--json']);
    expect(code).toBe(0);
    for (const line of out.trim().split('\n')) expect(JSON.parse(line).unknownShapes).toEqual([]);
  });

  it('works as the npm script, with the documented exit codes', () => {
    const ok = spawnSync('npm', ['run', '-s', 'heapscope', '--', 'inspect', SAMPLE, '--json'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).nodes).toBeGreaterThan(10);
    const bad = spawnSync('npm', ['run', '-s', 'heapscope', '--', 'inspect', '/no/such.onnx'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/heapscope: cannot read \/no\/such.onnx: no such file/);
  });
});

describe('heapscope without a command', () => {
  it('prints the usage and exits 2 with one line on stderr saying why', () => {
    const { code, out, err } = run([]);
    expect(code).toBe(2);
    expect(out).toMatch(/^usage: heapscope <command>/);
    expect(err).toBe('heapscope: no command given (commands: inspect, plan, solve, diff, targets, sweep, version)\n');
  });
});
