// A model file is sniffed by its first bytes before it is read whole: a file
// just under the 2 GiB limit that cannot be a model gets its one-line error
// without the CLI reading it all, in words of the format its name says.

import * as fs from 'node:fs';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './testing/run-cli';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, readFileSync: vi.fn(actual.readFileSync) };
});

const dir = mkdtempSync(join(tmpdir(), 'hs-sniff-'));
/** A sparse file of zeros, one byte under the 2 GiB a model may have. */
function zeros(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, 2 ** 31 - 1);
  return path;
}
const readsOf = (path: string) => vi.mocked(fs.readFileSync).mock.calls.filter(([p]) => p === path).length;

afterEach(() => vi.mocked(fs.readFileSync).mockClear());

describe('a model file that cannot be a model', () => {
  it('named .onnx: refused from its first byte, never read whole', () => {
    const path = zeros('just.onnx');
    const r = run(['inspect', path]);
    expect([r.code, r.err]).toEqual([2, `heapscope: ${path}: this is not an ONNX or TensorFlow Lite model: its first byte (0x00) is not the tag of an ONNX ModelProto field, and it has no TFL3 identifier at byte 4\n`]);
    expect(readsOf(path)).toBe(0);
  });

  it('named .tflite: refused in words of TensorFlow Lite, never read whole, by plan as by inspect', () => {
    const path = zeros('just.tflite');
    for (const command of ['inspect', 'plan']) {
      const r = run([command, path]);
      expect([r.code, r.err]).toEqual([2, `heapscope: ${path}: this is not a TensorFlow Lite model: the file has no TensorFlow Lite identifier (TFL3 at byte 4)\n`]);
    }
    expect(readsOf(path)).toBe(0);
  });

  it('a JSON file is read whole, so its error says what it is: a saved plan, or JSON that is no plan', () => {
    const model = join(__dirname, '../../shared/models/winml_mnist.onnx');
    if (!fs.existsSync(model)) return;
    const plan = join(dir, 'mnist.plan.json');
    expect(run(['plan', model, '--save', plan]).code).toBe(0);
    const r = run(['inspect', plan]);
    expect([r.code, r.err]).toEqual([2, `heapscope: ${plan}: this is a heapscope saved plan, not a model: open it in the page, or compare it with \`heapscope diff\`\n`]);
    const config = join(dir, 'config.json');
    writeFileSync(config, '{"architectures":["GPT2"],"n_layer":2}');
    expect(run(['plan', config]).err).toContain('this is JSON but not a heapscope saved plan (no "format": "heapscope-plan" field)');
  });

  it('a real model is still read whole and decoded', () => {
    const model = join(__dirname, '../../shared/models/tflite/tflm_hello_world_int8.tflite');
    if (!fs.existsSync(model)) return;
    expect(run(['inspect', model]).code).toBe(0);
    expect(readsOf(model)).toBe(1);
  });
});
