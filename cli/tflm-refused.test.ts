// Models TensorFlow Lite Micro refuses when it allocates, written by the test:
// a DEQUANTIZE of float16 weights, which its reference kernel's Prepare refuses
// (dequantize_common.cc), a STRING constant and INT2 or UINT4 tensors, which
// InitializeAllocationInfo cannot size. No arena is presented as working for
// any.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeTflite } from '../src/model/testing/tflite-writer';
import { fitVerdict } from '../src/store/fit-words';
import { fitNeedsLine } from '../src/views/details/fit-words';
import { overLimitSideText } from '../src/views/compare/compared-figure';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';
import { dequantizeModel, INT8_QUANTIZATION, limitedTflmTarget } from './testing/tflm-refused-models';

const file = tempFiles('tflm-refused');

/**
 * `plan --json` of a model TFLM refuses on a target without a size limit:
 * exit 0 and fits true, as for any plan without a limit, and one warning on
 * stderr saying no arena works (it used to be empty, so a CI log said nothing).
 */
function refusedPlanJson(argv: readonly string[]): ReturnType<typeof JSON.parse> {
  const result = run(['plan', ...argv, '--json']);
  const plan = JSON.parse(result.out);
  expect(result.code).toBe(0);
  expect(plan.fits).toBe(true);
  expect(result.err).toBe(`heapscope: warning: ${argv[0]}: no tensor arena works: ${plan.runtimePlan.refused[0]}${plan.runtimePlan.refused.length > 1 ? ` (and ${plan.runtimePlan.refused.length - 1} more reason(s))` : ''}; fits is judged on size limits and no region has one, so this exits 0; --strict makes it fail\n`);
  return plan;
}

describe("a DEQUANTIZE whose input TFLite Micro's reference kernel refuses (DequantizePrepare: int8 or int16, uint8 in newer releases)", () => {
  it('float16 weights: the plan says TFLM refuses the model and why, and presents no arena as working', () => {
    const path = file('f16.tflite', dequantizeModel('FLOAT16'));
    const plan = refusedPlanJson([path, '--target', 'tflm']);
    const why = plan.runtimePlan.refused as string[];
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/^TensorFlow Lite Micro's reference kernels refuse this model: a DEQUANTIZE has a FLOAT16 input \(first DEQUANTIZE_0, reading 'w'\)/);
    expect(plan.diagnostics).toContainEqual({ code: 'tflm-unsupported', message: why[0] });
    const text = run(['plan', path, '--target', 'tflm']).out;
    expect(text).toContain('arena         NONE works: TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena');
    expect(text).toContain(`refused       ${why[0]}`);
    expect(text).not.toMatch(/arena +declare/);
  });

  it('--strict refuses it, so CI cannot pass a model TFLite Micro will not allocate', () => {
    const path = file('f16s.tflite', dequantizeModel('FLOAT16'));
    const strict = run(['plan', path, '--target', 'tflm', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.err).toMatch(/--strict: no tensor arena works: TensorFlow Lite Micro's reference kernels refuse this model: a DEQUANTIZE has a FLOAT16 input/);
    // the warning without --strict is left to its refusal: one line naming why, not two
    expect(strict.err.split('\n').filter((l) => l.includes('no tensor arena works'))).toHaveLength(1);
    expect(strict.err).not.toContain('heapscope: warning: ');
    // int8 weights, which the kernel takes: no warning, and --strict has nothing to refuse
    expect(run(['plan', file('i8w.tflite', dequantizeModel('INT8', INT8_QUANTIZATION)), '--target', 'tflm']).err).toBe('');
    expect(run(['plan', file('i8s.tflite', dequantizeModel('INT8', INT8_QUANTIZATION)), '--target', 'tflm', '--strict']).code).toBe(0);
  });

  it('the C header stops the build with #error', () => {
    const path = file('f16h.tflite', dequantizeModel('FLOAT16'));
    const header = file('f16.h', new Uint8Array());
    expect(run(['plan', path, '--target', 'tflm', '--header', header]).code).toBe(0);
    const text = readFileSync(header, 'utf8');
    expect(text).toContain('#error "heapscope: TensorFlow Lite Micro refuses this model; AllocateTensors() fails whatever the arena"');
    expect(text).toContain(' * REFUSED: ');
  });

  it('does not fit an arena of any size limit: fits is false, plan exits 3 naming the region, and the page says "Does not fit"', () => {
    const target = file('limited.json', limitedTflmTarget('limited', 65_536));
    const refused = run(['plan', file('f16l.tflite', dequantizeModel('FLOAT16')), '--target', target, '--json']);
    expect(refused.code).toBe(3);
    const plan = JSON.parse(refused.out);
    expect(plan.fits).toBe(false);
    expect(plan.regions[0].overBy).toBe(0); // were TFLM to accept it, its figures would be within the limit
    expect(refused.err).toMatch(/^heapscope: .*f16l\.tflite: DOES NOT FIT: region arena: no tensor arena works, within its size limit of 65,536 bytes or any other: TensorFlow Lite Micro refuses the model/);
    expect(fitVerdict(plan)).toBe('Does not fit: TensorFlow Lite Micro refuses the model, no tensor arena works, within the limit or any other');
    // Compare's side summary says it too, where it shows a region over its limit
    expect(overLimitSideText(plan)).toBe('does not fit: TensorFlow Lite Micro refuses it, no arena works');
    // int8 weights, which the kernel takes: the same limit holds it
    const accepted = planJson([file('i8l.tflite', dequantizeModel('INT8', INT8_QUANTIZATION)), '--target', target]);
    expect(accepted.fits).toBe(true);
    expect(fitVerdict(accepted)).toBeUndefined();
    expect(overLimitSideText(accepted)).toBeUndefined();
  });

  it('under a limit below its figures, the verdict is the refusal, with no "needs … more" that more memory would answer', () => {
    const target = file('tight.json', limitedTflmTarget('tight', 256));
    const path = file('f16t.tflite', dequantizeModel('FLOAT16'));
    const json = run(['plan', path, '--target', target, '--json']);
    expect(json.code).toBe(3);
    const plan = JSON.parse(json.out);
    expect(plan.regions[0].overBy).toBeGreaterThan(0);
    expect(plan.fitNeeds.length).toBeGreaterThan(0); // the figures' own needs, were TFLM to accept the model
    expect(json.err).toMatch(/: DOES NOT FIT: region arena: no tensor arena works, within its size limit of 256 bytes or any other: TensorFlow Lite Micro refuses the model \('refused'\)\n$/);
    expect(json.err).not.toContain('needs');
    const text = run(['plan', path, '--target', target]);
    expect(text.code).toBe(3);
    expect(text.out).toContain("\n  DOES NOT FIT  region arena: no tensor arena works, within its 256 B limit or any other: TensorFlow Lite Micro refuses the model (why: 'refused' below)\n");
    expect(text.out).not.toMatch(/DOES NOT FIT {2}region arena needs|to fit +needs/);
    // the page: the verdict and Details say the refusal, not how much more memory
    expect(fitVerdict(plan)).toBe('Does not fit: TensorFlow Lite Micro refuses the model, no tensor arena works, within the limit or any other');
    expect(fitNeedsLine(plan)).toBeUndefined();
    expect(fitNeedsLine({ ...plan, runtimePlan: { ...plan.runtimePlan, refused: undefined } })).toMatch(/^To fit needs /);
  });

  it('plan prints its DOES NOT FIT line on stdout too when its figures are within the limit', () => {
    const target = file('roomy.json', limitedTflmTarget('roomy', 65_536));
    const text = run(['plan', file('f16r.tflite', dequantizeModel('FLOAT16')), '--target', target]);
    expect(text.code).toBe(3);
    expect(text.out).toContain("\n  DOES NOT FIT  region arena: no tensor arena works, within its 64.0 KiB limit or any other: TensorFlow Lite Micro refuses the model (why: 'refused' below)\n");
  });

  it('int8 weights, which the kernel takes, are planned as before with no refusal', () => {
    const plan = planJson([file('i8.tflite', dequantizeModel('INT8', INT8_QUANTIZATION)), '--target', 'tflm']);
    expect(plan.runtimePlan.refused).toBeUndefined();
    expect(plan.diagnostics.map((d: { code: string }) => d.code)).not.toContain('tflm-unsupported');
  });
});

describe('a STRING constant, which TFLite Micro sizes (and fails on) when it plans, weights included', () => {
  it('is refused on target tflm with one line naming the tensor, and planned on the other targets', () => {
    const bytes = writeTflite({
      subgraphs: [
        {
          tensors: [{ shape: [1, 4], name: 'x' }, { shape: [1, 4], name: 'y' }, { shape: [1], type: 'STRING', name: 'vocab', data: new Uint8Array(16) }],
          inputs: [0],
          outputs: [1],
          operators: [{ op: 'RELU', inputs: [0], outputs: [1] }],
        },
      ],
    });
    const path = file('string.tflite', bytes);
    const refused = run(['plan', path, '--target', 'tflm']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/tensor 2 of subgraph 0 \('vocab'\) is a constant of type STRING, which TensorFlow Lite Micro cannot size: AllocateTensors\(\) fails on it/);
    expect(refused.err.trim().split('\n')).toHaveLength(1);
    expect(run(['plan', path, '--target', 'cpu']).code).toBe(0);
  });
});

describe('INT2 and UINT4 tensors, which TfLiteTypeSizeOf cannot size (INT4 alone of the sub-byte types)', () => {
  /** x (INT2, 40 elements) -> CAST -> y (UINT4, 40 elements), and w, a UINT4 constant of 8 elements (4 B packed). */
  const subByteModel = (): Uint8Array =>
    writeTflite({
      subgraphs: [
        {
          tensors: [
            { shape: [1, 40], type: 'INT2', name: 'x' },
            { shape: [1, 40], type: 'UINT4', name: 'y' },
            { shape: [8], type: 'UINT4', name: 'w', data: new Uint8Array(4) },
          ],
          inputs: [0],
          outputs: [1],
          operators: [{ op: 'CAST', inputs: [0], outputs: [1] }],
        },
      ],
    });

  it('on target tflm: refused with a line per type naming the tensors, no arena works, and the figures say what they give them', () => {
    const path = file('subbyte.tflite', subByteModel());
    const plan = refusedPlanJson([path, '--target', 'tflm']);
    const why = plan.runtimePlan.refused as string[];
    expect(why).toEqual([
      "TensorFlow Lite Micro refuses this model: it cannot size the INT2 tensor 'x', as its TfLiteTypeSizeOf sizes INT4 alone of the sub-byte types (TfLiteTypeGetSize is 0 for 2 bits), so AllocateTensors() fails; the figures give it a byte per element, as TFLM gives INT4",
      "TensorFlow Lite Micro refuses this model: it cannot size 2 UINT4 tensors (first 'y'), as its TfLiteTypeSizeOf sizes INT4 alone of the sub-byte types (TfLiteTypeGetSize is 0 for 4 bits), so AllocateTensors() fails; the figures give them a byte per element, as TFLM gives INT4",
    ]);
    expect(plan.diagnostics.filter((d: { code: string }) => d.code === 'tflm-unsupported').map((d: { message: string }) => d.message)).toEqual(why);
    expect(plan.buffers.map((b: { name: string; bytes: number }) => [b.name, b.bytes])).toEqual([['x', 40], ['y', 40]]);
    expect(plan.weights.bytes).toBe(4); // the constant in flash, as the file stores it
    const text = run(['plan', path, '--target', 'tflm']).out;
    expect(text).toContain('arena         NONE works: TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena');
    expect(run(['plan', path, '--target', 'tflm', '--strict']).code).toBe(2);
  });

  it('on the other targets: planned, sized packed as the file stores them (INT2 four to a byte, UINT4 two)', () => {
    const path = file('subbyte-cpu.tflite', subByteModel());
    const plan = planJson([path, '--target', 'cpu']);
    expect(plan.buffers.map((b: { name: string; bytes: number }) => [b.name, b.bytes])).toEqual([['x', 10], ['y', 20]]);
    expect(plan.weights.bytes).toBe(4);
    expect(plan.diagnostics).toEqual([]);
  });
});
