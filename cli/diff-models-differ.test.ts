// Two different models are compared by one cause, `models-differ`, also when
// their peaks are equal: the same memory at the peak is no unchanged plan.
// Skips when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const HELLO = join(__dirname, '../../shared/models/tflite/tflm_hello_world_int8.tflite');
const RELU = join(__dirname, '../../shared/models/wonnx_single_relu.onnx');

describe.skipIf(!existsSync(HELLO) || !existsSync(RELU))('diff of two different models with equal peaks', () => {
  it('gives models-differ as the one cause, of 0 bytes, not "no cause"', () => {
    const json = JSON.parse(run(['diff', HELLO, RELU, '--json']).out);
    expect(json.delta).toBe(0);
    expect(json.modelsDiffer).toBe(true);
    expect(json.causes).toEqual([expect.objectContaining({ kind: 'models-differ', bytes: 0 })]);
    const text = run(['diff', HELLO, RELU]);
    expect(text.code).toBe(0);
    expect(text.out).not.toContain('no cause');
    expect(text.out).toMatch(/\n {9}±?0 B {2}A and B are different models \(tflm_hello_world_int8\.tflite, wonnx_single_relu\.onnx: .*\): buffers are matched by name only; the peak is the same\n/);
  });
});
