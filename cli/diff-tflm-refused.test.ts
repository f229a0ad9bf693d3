// `diff` on target tflm when TensorFlow Lite Micro refuses a side (a DEQUANTIZE
// of float16 weights, which its reference kernel's Prepare refuses): no arena
// works for that side, so `--budget` never calls it within, and the arena
// lines say which side no arena works for.

import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';
import { dequantizeModel, INT8_QUANTIZATION, limitedTflmTarget } from './testing/tflm-refused-models';

const file = tempFiles('diff-tflm-refused');

describe('diff --budget on target tflm, b refused by TFLite Micro', () => {
  const accepted = file('i8.tflite', dequantizeModel('INT8', INT8_QUANTIZATION));
  const refused = file('f16.tflite', dequantizeModel('FLOAT16'));

  it('is over any budget, however large, and exits 3 with one line saying no arena works', () => {
    const json = run(['diff', accepted, refused, '--target', 'tflm', '--budget', '64MiB', '--json']);
    expect(json.code).toBe(3);
    const out = JSON.parse(json.out);
    // the verdict is the refusal, not a figure against the budget: budgetJudged says so
    expect(out).toMatchObject({ overBudget: true, budgetVerdict: 'refused', budgetJudged: { of: 'refusedB' } });
    expect(out.runtime.a.refused).toBe(false);
    expect(out.runtime.b.refused).toBe(true);
    const lines = json.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^heapscope: .*f16\.tflite: no tensor arena works, within the budget of 67,108,864 bytes or any other: TensorFlow Lite Micro's reference kernels refuse this model: a DEQUANTIZE has a FLOAT16 input/);
  });

  it('the text says b is refused, not within with bytes to spare', () => {
    const text = run(['diff', accepted, refused, '--target', 'tflm', '--budget', '64KiB']);
    expect(text.code).toBe(3);
    expect(text.out).toContain('  b: NO arena works: TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena');
    expect(text.out).toMatch(/\nbudget 64\.0 KiB \(65,536 bytes, not judged on a figure: TensorFlow Lite Micro refuses b\): b REFUSED by TensorFlow Lite Micro, over any budget: AllocateTensors\(\) fails whatever the arena\n$/);
    expect(text.out).not.toContain('to spare');
  });

  it('with a limited arena, b refused does not fit its target (fitsB), as plan says of it', () => {
    const target = file('limited.json', limitedTflmTarget('limited', 65_536));
    const json = run(['diff', accepted, refused, '--target', target, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ fitsA: true, fitsB: false });
    // the text gives b its DOES NOT FIT line, as plan prints it: the refusal, no bytes more would help; the exit code stays diff's (no --budget: 0)
    const text = run(['diff', accepted, refused, '--target', target]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('\n  b DOES NOT FIT  region arena: no tensor arena works, within its 64.0 KiB limit or any other: TensorFlow Lite Micro refuses the model (why: its tflm-unsupported diagnostic)\n');
    expect(text.out).not.toContain('a DOES NOT FIT');
  });

  it('b refused on tflm against an a planned for another target: refused too, though only b is a TFLM plan', () => {
    const json = run(['diff', refused, refused, '--b-target', 'tflm', '--budget', '64MiB', '--json']);
    expect(json.code).toBe(3);
    const out = JSON.parse(json.out);
    expect(out).toMatchObject({ overBudget: true, budgetVerdict: 'refused', refusedB: true });
    expect(out.refusedA).toBeUndefined();
    expect(out.runtime).toBeUndefined();
    const text = run(['diff', refused, refused, '--b-target', 'tflm', '--budget', '64MiB']);
    expect(text.code).toBe(3);
    expect(text.out).toContain(': b REFUSED by TensorFlow Lite Micro, over any budget');
    expect(text.out).not.toContain('to spare');
  });

  it('a refused a leaves b judged on its own arena, and the arena lines say no arena works for a', () => {
    const text = run(['diff', refused, accepted, '--target', 'tflm', '--budget', '64KiB']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('  a: NO arena works: TensorFlow Lite Micro refuses this model');
    expect(text.out).not.toContain('  b: NO arena works');
    expect(text.out).toMatch(/: b within, .* to spare\n$/);
  });

  it('warns that no arena works for a refused a, which --budget does not judge, and keeps the exit code and JSON', () => {
    const warning = /^heapscope: warning: .*f16\.tflite: no tensor arena works: TensorFlow Lite Micro's reference kernels refuse this model: a DEQUANTIZE has a FLOAT16 input.*; --budget judges b alone, so a's refusal leaves the exit code as it is; --strict makes it fail$/;
    const within = run(['diff', refused, accepted, '--target', 'tflm', '--budget', '64KiB']);
    expect(within.code).toBe(0);
    expect(within.err.trim().split('\n')).toEqual([expect.stringMatching(warning)]);
    const json = run(['diff', refused, accepted, '--target', 'tflm', '--budget', '64KiB', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ budgetVerdict: 'within', overBudget: false, refusedA: true });
    // b over the budget too: b's verdict line first, then the warning of a; still exit 3
    const over = run(['diff', refused, accepted, '--target', 'tflm', '--budget', '16']);
    expect(over.code).toBe(3);
    const lines = over.err.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^heapscope: .*i8\.tflite needs .* bytes, over the budget of 16 bytes by /);
    expect(lines[1]).toMatch(warning);
  });

  it('says a model refused on both sides once, in the budget verdict of b', () => {
    const both = run(['diff', refused, refused, '--target', 'tflm', '--budget', '64KiB']);
    expect(both.code).toBe(3);
    expect(both.err.trim().split('\n')).toEqual([expect.stringMatching(/^heapscope: .*f16\.tflite: no tensor arena works, within the budget of 65,536 bytes or any other: /)]);
  });
});

describe('diff on target tflm without --budget, a side refused by TFLite Micro', () => {
  const accepted = file('i8-nobudget.tflite', dequantizeModel('INT8', INT8_QUANTIZATION));
  const refused = file('f16-nobudget.tflite', dequantizeModel('FLOAT16'));
  const refusedToo = file('f16-other.tflite', dequantizeModel('FLOAT16'));
  // the line plan prints for the model refused within no size limit
  const planWarning = (model: string): string => run(['plan', model, '--target', 'tflm']).err;

  it('warns of a refused b as plan does, and exits 0: nothing judges it', () => {
    expect(planWarning(refused)).toMatch(/^heapscope: warning: .*f16-nobudget\.tflite: no tensor arena works: .*--strict makes it fail\n$/);
    const json = run(['diff', accepted, refused, '--target', 'tflm', '--json']);
    expect(json.err).toBe(planWarning(refused));
    expect(json.code).toBe(0);
  });

  it('warns of a refused a too, and of each side once when both are refused', () => {
    const text = run(['diff', refused, accepted, '--target', 'tflm']);
    expect(text.err).toBe(planWarning(refused));
    expect(text.code).toBe(0);
    const both = run(['diff', refused, refusedToo, '--target', 'tflm', '--json']);
    expect(both.err).toBe(planWarning(refused) + planWarning(refusedToo));
    expect(both.code).toBe(0);
    expect(run(['diff', refused, refused, '--target', 'tflm', '--json']).err).toBe(planWarning(refused));
  });

  it('leaves the refusal to --strict\'s own line, and to DOES NOT FIT under a limited arena', () => {
    const strict = run(['diff', accepted, refused, '--target', 'tflm', '--strict', '--json']);
    expect(strict.err).not.toContain('warning');
    expect(strict.err).toMatch(/f16-nobudget\.tflite \(b\): --strict: no tensor arena works/);
    expect(strict.code).toBe(2);
    const target = file('limited-nobudget.json', limitedTflmTarget('limited', 65_536));
    const limited = run(['diff', accepted, refused, '--target', target, '--json']);
    expect(limited.err).toBe('');
    expect(limited.code).toBe(0);
  });
});
