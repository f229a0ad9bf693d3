import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import { npuCpu, unitDoc } from '../testing/compute-units';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { computeUnitPlan } from './compute-plan';
import { placerOf } from '../testing/placer';

const buffer = (plan: ModelPlan, name: string) => plan.buffers.find((b) => b.name === name)!;
const sized = (plan: ModelPlan, ...names: string[]) => names.map((n) => [n, buffer(plan, n).kind, buffer(plan, n).bytes, buffer(plan, n).size]);

describe('the compute-unit plan (M3)', () => {
  it('lays out a copied boundary as a buffer of its own, sized for the reading unit, and reports it', () => {
    const g = tinyGraph()
      .input('x', [1, 10])
      .node('Conv', ['x'], { a: [1, 10] }, { name: 'conv' })
      .node('Softmax', ['a'], { y: [1, 10] }, { name: 'soft' })
      .output('y')
      .model();
    const plan = planModel(g, npuCpu(['Conv']));
    expect(plan.valid).toBe(true);
    expect(sized(plan, 'x', 'a', 'a@cpu#1', 'y')).toEqual([
      ['x', 'input', 10, 64],
      ['a', 'activation', 10, 64],
      ['a@cpu#1', 'copy', 40, 48],
      ['y', 'output', 40, 48],
    ]);
    // the copy runs in the CPU function, right before the node that reads it
    expect(plan.steps.map((s) => s.node)).toEqual(['conv', 'copy:a@cpu#1', 'soft']);
    expect(buffer(plan, 'a@cpu#1')).toMatchObject({ start: 1, node: 'copy:a@cpu#1' });
    expect(plan.functions).toEqual([
      { name: 'npu#0', unit: 'npu', nodes: ['conv'], copies: [], firstStep: 0, lastStep: 0 },
      { name: 'cpu#1', unit: 'cpu', nodes: ['soft'], copies: ['copy:a@cpu#1'], firstStep: 1, lastStep: 2 },
    ]);
    expect(plan.boundaries).toEqual([
      {
        tensor: 'a',
        from: 'npu#0',
        to: 'cpu#1',
        shared: false,
        reason: 'type-mismatch',
        detail: 'npu stores int8, cpu reads float32',
        fromType: 'int8',
        toType: 'float32',
        bytes: 64,
        copy: 'a@cpu#1',
        copyBytes: 48,
      },
    ]);
    expect(plan.units).toEqual([
      { name: 'npu', activations: 'int8', fakeQuantization: true, alignment: 64, functions: 1, nodes: 1 },
      { name: 'cpu', activations: 'float32', fakeQuantization: false, alignment: 16, functions: 1, nodes: 1 },
    ]);
  });

  it('sizes every planned tensor by its level: fake quantization, QDQ, model inputs and outputs', () => {
    const g = tinyGraph()
      .input('x', [1, 16])
      .node('Conv', ['x'], { a: [1, 16] }, { name: 'conv' })
      .node('QuantizeLinear', ['a'], { q: [1, 16] }, { name: 'quant', dtype: 'uint8' })
      .node('DequantizeLinear', ['q'], { d: [1, 16] }, { name: 'dequant' })
      .node('Conv', ['d'], { z: [1, 16] }, { name: 'conv2' })
      .node('Softmax', ['d'], { y: [1, 16] }, { name: 'soft' })
      .output('z', 'y')
      .model();
    const plan = planModel(g, npuCpu(['Conv', 'QuantizeLinear', 'DequantizeLinear']));
    expect(sized(plan, 'x', 'a', 'q', 'd', 'z', 'd@cpu#1', 'y')).toEqual([
      ['x', 'input', 16, 64], // model input: the NPU function reading it stores int8
      ['a', 'activation', 16, 64], // followed by QuantizeLinear: its uint8
      ['q', 'activation', 16, 64],
      ['d', 'activation', 16, 64], // a QDQ pair on a quantized unit: uint8
      ['z', 'output', 16, 64], // model output: its NPU function's int8
      ['d@cpu#1', 'copy', 64, 64], // the CPU computes float32
      ['y', 'output', 64, 64],
    ]);
    expect(plan.boundaries.map((b) => [b.tensor, b.fromType, b.toType, b.reason])).toEqual([['d', 'uint8', 'float32', 'type-mismatch']]);
    // the same graph on the CPU alone keeps every float tensor in float32
    const cpu = planModel(g, presetTarget('cpu'));
    expect(['x', 'a', 'q', 'd', 'y'].map((n) => buffer(cpu, n).bytes)).toEqual([64, 64, 16, 64, 64]);
  });

  /** x (10 floats) -> NPU Conv -> a (1000) -> CPU Tanh -> b (1000) -> NPU Conv -> y (10). */
  const expandReduce = () =>
    tinyGraph()
      .input('x', [10])
      .node('Conv', ['x'], { a: [1000] }, { name: 'expand' })
      .node('Tanh', ['a'], { b: [1000] }, { name: 'tanh' })
      .node('Conv', ['b'], { y: [10] }, { name: 'reduce' })
      .output('y')
      .model();

  it('shares a boundary both units can use, which plans smaller than copying at every boundary', () => {
    const g = expandReduce();
    const target = testTarget({ alignment: 16, computeUnits: [unitDoc('npu', ['Conv'], 'model', 64), unitDoc('cpu', ['*'], 'model', 64)] });
    const plan = planModel(g, target);
    expect(plan.boundaries.map((b) => [b.tensor, b.from, b.to, b.shared, b.reason])).toEqual([
      ['a', 'npu#0', 'cpu#1', true, 'compatible'],
      ['b', 'cpu#1', 'npu#2', true, 'compatible'],
    ]);
    expect(plan.buffers.filter((b) => b.kind === 'copy')).toEqual([]);
    const baseline = computeUnitPlan(g, target, { place: placerOf(target), copyAll: true })!;
    expect(baseline.boundaries.map((b) => [b.tensor, b.shared, b.reason])).toEqual([
      ['a', false, 'layout'],
      ['b', false, 'layout'],
    ]);
    const copiesPeak = assignOffsets(baseline.built.problem, 'm1').peak;
    expect(plan.unitComparison).toEqual({ sharedPeak: plan.peak, copiesPeak, kept: 'shared' });
    // shared: the 4000-byte tensor and the small input; copied: the tensor and its copy at once
    expect([plan.peak, copiesPeak]).toEqual([4096, 8064]);
  });

  it('keeps the plan with copies everywhere when it lays out smaller, and gives the boundaries it copies the reason', () => {
    const g = expandReduce();
    // b comes back from a 16-byte CPU to a 64-byte NPU: a forced copy. Sharing a would keep b in the
    // NPU's 4032-byte buffer next to that copy; copying a lets the CPU store b in 4000 bytes.
    const target = testTarget({ alignment: 16, computeUnits: [unitDoc('npu', ['Conv'], 'model', 64), unitDoc('cpu', ['*'], 'model', 16)] });
    const plan = planModel(g, target);
    expect(plan.boundaries.map((b) => [b.tensor, b.shared, b.reason, b.copy])).toEqual([
      ['a', false, 'layout', 'a@cpu#1'],
      ['b', false, 'alignment', 'b@npu#2'],
    ]);
    expect(plan.boundaries.map((b) => b.detail)).toEqual([
      'both sides could share, but sharing laid out 8064 bytes and copying at every boundary 8032',
      'cpu aligns to 16 bytes (4000 allocated), npu needs 64 (4032)',
    ]);
    expect(plan.unitComparison).toEqual({ sharedPeak: 8064, copiesPeak: 8032, kept: 'copies' });
    expect(plan.peak).toBe(8032);
    expect(sized(plan, 'a', 'a@cpu#1', 'b', 'b@npu#2')).toEqual([
      ['a', 'activation', 4000, 4032],
      ['a@cpu#1', 'copy', 4000, 4000],
      ['b', 'activation', 4000, 4000],
      ['b@npu#2', 'copy', 4000, 4032],
    ]);
  });

  it('runs the copies and functions in the execution order the partition was made on, not the file order', () => {
    const g = tinyGraph()
      .input('x', [1, 8])
      .node('Conv', ['x'], { a: [1, 8] }, { name: 'conv_a' })
      .node('Conv', ['x'], { b: [1, 8] }, { name: 'conv_b' })
      .node('Softmax', ['a'], { c: [1, 8] }, { name: 'soft_a' })
      .node('Softmax', ['b'], { d: [1, 8] }, { name: 'soft_b' })
      .node('Add', ['c', 'd'], { y: [1, 8] }, { name: 'add' })
      .output('y')
      .model();
    const target = testTarget({
      computeUnits: [unitDoc('npu', ['Conv', 'Add'], 'int8', 64, true), unitDoc('cpu', ['*'], 'float32', 16)],
      planning: { order: 'depth-first' },
    });
    const plan = planModel(g, target);
    expect(plan.order.policy).toBe('depth-first');
    expect(plan.steps.map((s) => s.node)).toEqual(['conv_a', 'copy:a@cpu#1', 'soft_a', 'conv_b', 'copy:b@cpu#3', 'soft_b', 'copy:c@npu#4', 'copy:d@npu#4', 'add']);
    expect(plan.functions.map((f) => [f.name, f.firstStep, f.lastStep])).toEqual([
      ['npu#0', 0, 0],
      ['cpu#1', 1, 2],
      ['npu#2', 3, 3],
      ['cpu#3', 4, 5],
      ['npu#4', 6, 8],
    ]);
  });

  it('puts each op on the first unit of phone-dsp that runs it, aligning its buffers to that unit', () => {
    const g = tinyGraph()
      .input('x', [1, 3, 8, 8])
      .weight('w9', [3, 3, 9, 9])
      .weight('w3', [3, 3, 3, 3])
      .node('Conv', ['x', 'w9'], { a: [1, 3, 8, 8] }, { name: 'conv9' })
      .node('Conv', ['a', 'w3'], { b: [1, 3, 8, 8] }, { name: 'conv3' })
      .node('Softmax', ['b'], { c: [1, 3, 8, 8] }, { name: 'soft' })
      .node('TopK', ['c'], { v: [1, 3, 8, 2] }, { name: 'topk' })
      .output('v')
      .model();
    const plan = planModel(g, presetTarget('phone-dsp'));
    // the NPU comes first but takes Conv kernels up to 7x7 only; Softmax is the DSP's; TopK is on no list: the CPU
    expect(plan.functions.map((f) => [f.name, f.nodes])).toEqual([
      ['dsp#0', ['conv9']],
      ['npu#1', ['conv3']],
      ['dsp#2', ['soft']],
      ['cpu#3', ['topk']],
    ]);
    // DSP int16 aligned to 128, NPU int8 aligned to 64, CPU float32 (the 64-byte region is its floor)
    expect(sized(plan, 'x', 'a', 'a@npu#1', 'b', 'b@dsp#2', 'c', 'c@cpu#3', 'v')).toEqual([
      ['x', 'input', 384, 384],
      ['a', 'activation', 384, 384],
      ['a@npu#1', 'copy', 192, 192],
      ['b', 'activation', 192, 192],
      ['b@dsp#2', 'copy', 384, 384],
      ['c', 'activation', 384, 384],
      ['c@cpu#3', 'copy', 768, 768],
      ['v', 'output', 192, 192],
    ]);
    for (const name of ['x', 'a', 'b@dsp#2', 'c']) expect([name, buffer(plan, name).offset % 128]).toEqual([name, 0]);
    expect(plan.units?.map((u) => [u.name, u.alignment, u.functions, u.nodes])).toEqual([
      ['npu', 64, 1, 1],
      ['dsp', 128, 2, 2],
      ['cpu', 64, 1, 1],
    ]);
  });
});
