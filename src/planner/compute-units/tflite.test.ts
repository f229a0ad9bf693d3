// Compute units (M3) on TensorFlow Lite graphs: which unit lists which builtin
// (its own name, or the ONNX op of the same computation), the kernel
// constraint read from NHWC filters, the level types of TFLite's conversions,
// and the partition of the real models of ../shared/models/tflite (skipped
// with a notice when the folder is absent), each plan re-validated.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredGraph, InferredModel } from '../../model/inferred';
import { nchwTwin } from '../fusion/testing/nchw-twin';
import { tfliteNet } from '../fusion/testing/tflite-net';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import type { TargetProfile } from '../targets/target';
import { analyse, unitDoc, withDtype } from '../testing/compute-units';
import { revalidatePlan } from '../testing/model-plan-check';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { convKernel, listsOp, unitSupports } from './partition';

/** x [1, 8, 8, 4] -> CONV_2D 3×3 -> DEPTHWISE 5×5 -> CONV_2D 1×1 -> MAX_POOL -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX. */
const net = (dtype: 'int8' | 'float32') =>
  tfliteNet([1, 8, 8, 4], dtype)
    .conv('c', 'x', { out: 8, kh: 3, kw: 1 })
    .dw('dw', 'c', { k: 5 })
    .conv('pw', 'dw', { out: 8 })
    .pool('mp', 'pw', { k: 2 })
    .node('RESHAPE', 'flat', ['mp'], [1, 128])
    .fc('fc', 'flat', 10)
    .node('SOFTMAX', 'sm', ['fc'], [1, 10])
    .output('sm')
    .graph();

const unitsOf = (doc: readonly ReturnType<typeof unitDoc>[]) => testTarget({ computeUnits: doc }).computeUnits;
/** The names of the nodes of `g` that `unit` lists. */
function listed(g: InferredGraph, unit: TargetProfile['computeUnits'][number]): string[] {
  const values = new Map(g.values.map((v) => [v.name, v]));
  return g.nodes.filter((n) => listsOp(unit, n, values)).map((n) => n.name);
}

describe('units list TFLite builtins by the ONNX op of the same computation', () => {
  const int8 = net('int8');
  const float = net('float32');

  it("an int8 unit listing Conv, MaxPool and Gemm runs the int8 CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D and FULLY_CONNECTED", () => {
    const [npu] = unitsOf([unitDoc('npu', ['Conv', 'MaxPool', 'Gemm'], 'int8', 64, true), unitDoc('cpu', ['*'], 'float32')]);
    expect(listed(int8, npu!)).toEqual(['c', 'dw', 'pw', 'mp', 'fc']);
    expect(listed(float, npu!)).toEqual(['c', 'dw', 'pw', 'mp', 'fc']);
  });

  it('FULLY_CONNECTED runs where Gemm or MatMul is listed', () => {
    const [a, b] = unitsOf([unitDoc('a', ['MatMul'], 'int8'), unitDoc('b', ['Gemm'], 'int8')]);
    expect([listed(int8, a!), listed(int8, b!)]).toEqual([['fc'], ['fc']]);
  });

  it('a float-only unit runs the float builtins, and of the int8 ones only those that are the same kernel on integers', () => {
    const [gpu] = unitsOf([unitDoc('gpu', ['Conv', 'MaxPool', 'Gemm', 'Reshape', 'Softmax'], 'float16', 16), unitDoc('cpu', ['*'])]);
    expect(listed(float, gpu!)).toEqual(['c', 'dw', 'pw', 'mp', 'flat', 'fc', 'sm']);
    // an int8 CONV_2D, FULLY_CONNECTED or SOFTMAX is a quantized kernel, as QLinearConv is; MAX_POOL_2D and RESHAPE keep their input's scale
    expect(listed(int8, gpu!)).toEqual(['mp', 'flat']);
  });

  it('a target may list TFLite builtins by name, bare or with their domain, and custom ops with theirs', () => {
    const [dsp] = unitsOf([unitDoc('dsp', ['SOFTMAX', 'tflite::RESHAPE', 'tflite.custom::Convolution2DTransposeBias'], 'float32')]);
    expect(listed(int8, dsp!)).toEqual(['flat', 'sm']);
    const op = (opType: string, domain: string) => ({ name: opType, opType, domain, inputs: [], outputs: [], subgraphs: [], constant: false });
    expect(listsOp(dsp!, op('Convolution2DTransposeBias', 'tflite.custom'), new Map())).toBe(true);
    // ONNX op names never reach a TFLite custom op, and a builtin name is not an ONNX op
    const [onnx] = unitsOf([unitDoc('npu', ['Conv', 'Convolution2DTransposeBias'], 'int8')]);
    expect([listsOp(onnx!, op('Convolution2DTransposeBias', 'tflite.custom'), new Map()), listsOp(dsp!, op('Softmax', ''), new Map())]).toEqual([false, false]);
  });

  it('reads a TFLite convolution kernel from the filter dims 1 and 2, for the maxConvKernel constraint', () => {
    const values = new Map(int8.values.map((v) => [v.name, v]));
    const node = (name: string) => int8.nodes.find((n) => n.name === name)!;
    expect(['c', 'dw', 'pw'].map((n) => convKernel(node(n), values))).toEqual([[3, 1], [5, 5], [1, 1]]);
    const small = testTarget({ computeUnits: [{ ...unitDoc('npu', ['Conv'], 'int8', 64, true), constraints: { maxConvKernel: 3 } }, unitDoc('cpu', ['*'])] }).computeUnits[0]!;
    expect(['c', 'dw', 'pw'].map((n) => unitSupports(small, node(n), values))).toEqual([true, false, true]);
  });
});

describe('level types of TFLite conversions (M3 step 2)', () => {
  const honours = testTarget({ computeUnits: [unitDoc('dsp', ['*'], 'int16', 1, true)] });

  it('a float tensor read by QUANTIZE takes its quantized type; a requantized integer tensor keeps its own', () => {
    const g = tinyGraph()
      .input('x', [1, 16])
      .node('FULLY_CONNECTED', ['x'], { a: [1, 16] }, { domain: 'tflite' })
      .node('QUANTIZE', ['a'], { q: [1, 16] }, { domain: 'tflite', dtype: 'int8' })
      .node('QUANTIZE', ['q'], { r: [1, 16] }, { domain: 'tflite', dtype: 'uint8' })
      .output('r')
      .graph();
    const r = analyse(g, honours);
    expect(r.sizes.viewOn(r.value('a'), r.unit('dsp'))).toMatchObject({ dtype: 'int8', rule: 'fake-quantization', bytes: 16 });
    expect(r.sizes.viewOn(r.value('q'), r.unit('dsp'))).toMatchObject({ dtype: 'int8', rule: 'file', bytes: 16 });
    const wide = analyse(withDtype(g, 'q', 'int16'), honours);
    expect(wide.sizes.viewOn(wide.value('q'), wide.unit('dsp'))).toMatchObject({ dtype: 'int16', rule: 'file', bytes: 32 });
  });

  it('a DEQUANTIZE output is read as its integer input on a quantized unit', () => {
    const g = tinyGraph().input('x', [1, 16], 'int8').node('DEQUANTIZE', ['x'], { d: [1, 16] }, { domain: 'tflite' }).node('LOGISTIC', ['d'], { y: [1, 16] }, { domain: 'tflite' }).output('y').graph();
    const r = analyse(g, honours);
    expect(r.sizes.viewOn(r.value('d'), r.unit('dsp'))).toMatchObject({ dtype: 'int8', rule: 'qdq', bytes: 16 });
  });
});

const MODELS = fileURLToPath(new URL('../../../../shared/models/tflite', import.meta.url));
const present = existsSync(MODELS);
if (!present) console.log(`TFLite compute-unit tests skipped: ${MODELS} is absent`);

function model(name: string): InferredModel {
  return inferShapes(decodeModel(new Uint8Array(readFileSync(join(MODELS, `${name}.tflite`)))), {});
}

/** A plan re-validated from its record, its lower bound at most its peak. */
function checkedPlan(m: InferredGraph, t: TargetProfile): ModelPlan {
  const plan = planModel(m, t);
  const dram = new Map([[t.planning.activationRegion, t.regions.find((r) => r.name === t.planning.activationRegion)!.alignment]]);
  expect(revalidatePlan(plan, dram).violations).toEqual([]);
  expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
  return plan;
}

const functionsOf = (plan: ModelPlan) => plan.functions.map((f) => [f.unit, f.nodes]);

describe.skipIf(!present)('compute units on TFLite models', () => {
  it('tflm_person_detect, phone: the int8 NPU runs all but RESHAPE and SOFTMAX, as it runs the ONNX twin', () => {
    const m = model('tflm_person_detect');
    const plan = checkedPlan(m, presetTarget('phone'));
    const cpu = m.nodes.filter((n) => n.opType === 'RESHAPE' || n.opType === 'SOFTMAX').map((n) => n.name);
    expect(functionsOf(plan)).toEqual([['npu', m.nodes.slice(0, -2).map((n) => n.name)], ['cpu', cpu]]);
    // both int8: the boundary tensor is shared, not copied
    expect(plan.boundaries.map((b) => [b.from, b.to, b.shared])).toEqual([['npu#0', 'cpu#1', true]]);
    expect(plan.diagnostics.filter((d) => d.code === 'unsupported-op')).toEqual([]);
    expect(functionsOf(checkedPlan(nchwTwin(m), presetTarget('phone')))).toEqual(functionsOf(plan));
  });

  it('tflm_person_detect, phone-dsp: the int16 DSP takes the int8 RESHAPE and SOFTMAX', () => {
    const plan = checkedPlan(model('tflm_person_detect'), presetTarget('phone-dsp'));
    expect(plan.functions.map((f) => [f.unit, f.nodes.length])).toEqual([['npu', 29], ['dsp', 2]]);
  });

  it('mediapipe_selfie_segmentation, phone: only the custom transpose convolution falls back to the CPU', () => {
    const m = model('mediapipe_selfie_segmentation');
    const plan = checkedPlan(m, presetTarget('phone'));
    const cpu = plan.functions.filter((f) => f.unit === 'cpu').flatMap((f) => f.nodes);
    expect(cpu.map((n) => m.nodes.find((x) => x.name === n)!.opType)).toEqual(['Convolution2DTransposeBias']);
    expect(plan.functions.filter((f) => f.unit === 'npu').flatMap((f) => f.nodes)).toHaveLength(135);
  });
});
