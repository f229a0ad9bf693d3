import { describe, expect, it } from 'vitest';
import { analyse, npuCpu, unitDoc } from '../testing/compute-units';
import { testTarget, tinyGraph } from '../testing/tiny-graph';

describe('sizes per level (M3)', () => {
  it('stores float tensors in the unit type and aligns to the unit, never below the region', () => {
    const g = tinyGraph().input('x', [1, 10]).node('Conv', ['x'], { a: [1, 10] }).node('Softmax', ['a'], { y: [1, 10] }).output('y').graph();
    const r = analyse(g, npuCpu(['Conv'], 32));
    const onNpu = r.sizes.viewOn(r.value('a'), r.unit('npu'));
    expect([onNpu.dtype, onNpu.rule, onNpu.bytes, onNpu.alignment, onNpu.allocated]).toEqual(['int8', 'unit', 10, 64, 64]);
    const onCpu = r.sizes.viewOn(r.value('a'), r.unit('cpu'));
    expect([onCpu.dtype, onCpu.rule, onCpu.bytes, onCpu.alignment, onCpu.allocated]).toEqual(['float32', 'unit', 40, 32, 64]);
  });

  it('keeps the file type of integer tensors and of units that store the model type', () => {
    const g = tinyGraph().input('x', [4], 'int64').node('Relu', ['x'], { y: [4] }, { dtype: 'float16' }).output('y').graph();
    const target = testTarget({ computeUnits: [unitDoc('npu', ['Relu'], 'int8'), unitDoc('cpu', ['*'])] });
    const r = analyse(g, target);
    expect(r.sizes.viewOn(r.value('x'), r.unit('npu'))).toMatchObject({ dtype: 'int64', rule: 'file', bytes: 32 });
    expect(r.sizes.viewOn(r.value('y'), r.unit('cpu'))).toMatchObject({ dtype: 'float16', rule: 'file', bytes: 8 });
  });

  it('gives an operator followed by fake quantization the quantized type, on units that honour it', () => {
    const g = tinyGraph()
      .input('x', [1, 16])
      .node('Gemm', ['x'], { a: [1, 16] })
      .node('QuantizeLinear', ['a'], { q: [1, 16] }, { dtype: 'uint8' })
      .output('q')
      .graph();
    const honours = testTarget({ computeUnits: [unitDoc('dsp', ['*'], 'int16', 1, true)] });
    const r = analyse(g, honours);
    expect(r.sizes.viewOn(r.value('a'), r.unit('dsp'))).toMatchObject({ dtype: 'uint8', rule: 'fake-quantization', bytes: 16 });
    const ignores = testTarget({ computeUnits: [unitDoc('dsp', ['*'], 'int16', 1, false)] });
    const s = analyse(g, ignores);
    expect(s.sizes.viewOn(s.value('a'), s.unit('dsp'))).toMatchObject({ dtype: 'int16', rule: 'unit', bytes: 32 });
  });

  it('takes the unit integer type, else int8, for a fake quantization that stays in floats', () => {
    const g = tinyGraph()
      .input('x', [1, 16])
      .node('Gemm', ['x'], { a: [1, 16] })
      .node('FakeQuantize', ['a'], { f: [1, 16] }, { domain: 'org.openvinotoolkit' })
      .output('f')
      .graph();
    const dsp = analyse(g, testTarget({ computeUnits: [unitDoc('dsp', ['*'], 'int16', 1, true)] }));
    expect(dsp.sizes.viewOn(dsp.value('a'), dsp.unit('dsp'))).toMatchObject({ dtype: 'int16', rule: 'fake-quantization', bytes: 32 });
    const float = analyse(g, testTarget({ computeUnits: [unitDoc('gpu', ['*'], 'float16', 1, true)] }));
    expect(float.sizes.viewOn(float.value('a'), float.unit('gpu'))).toMatchObject({ dtype: 'int8', rule: 'fake-quantization', bytes: 16 });
    // the FakeQuantize output itself is an ordinary float tensor of the unit
    expect(float.sizes.viewOn(float.value('f'), float.unit('gpu'))).toMatchObject({ dtype: 'float16', rule: 'unit', bytes: 32 });
  });

  it('sizes a QDQ pair by the quantized type where the unit computes quantized', () => {
    const g = tinyGraph()
      .input('x', [1, 16], 'uint8')
      .node('DequantizeLinear', ['x'], { d: [1, 16] })
      .node('Conv', ['d'], { y: [1, 16] })
      .output('y')
      .graph();
    const r = analyse(g, npuCpu(['DequantizeLinear', 'Conv']));
    expect(r.sizes.viewOn(r.value('d'), r.unit('npu'))).toMatchObject({ dtype: 'uint8', rule: 'qdq', bytes: 16 });
    expect(r.sizes.viewOn(r.value('d'), r.unit('cpu'))).toMatchObject({ dtype: 'float32', bytes: 64 });
  });

  it('gives a model input the view of the first function reading it and an output its producer', () => {
    const g = tinyGraph()
      .input('x', [1, 8])
      .node('Softmax', ['x'], { a: [1, 8] })
      .node('Conv', ['a', 'x'], { y: [1, 8] })
      .output('y')
      .graph();
    const r = analyse(g, npuCpu(['Conv']));
    expect(r.sizes.homeView(r.value('x'), r.partition)).toMatchObject({ unit: 'cpu', dtype: 'float32', allocated: 32 });
    expect(r.sizes.homeView(r.value('y'), r.partition)).toMatchObject({ unit: 'npu', dtype: 'int8', allocated: 64 });
    // the model level hands x to the CPU first; the NPU reads it later, in its own type
    expect(r.boundaries.map((b) => [b.tensor, b.from, b.to, b.reason, b.reader.dtype])).toEqual([
      ['x', 'model', 'npu#1', 'type-mismatch', 'int8'],
      ['a', 'cpu#0', 'npu#1', 'type-mismatch', 'int8'],
    ]);
  });
});

describe('boundary decisions (M3, function level)', () => {
  const decisions = (r: ReturnType<typeof analyse>) => r.boundaries.map((b) => [b.tensor, b.from, b.to, b.shared, b.reason]);

  it('copies on a type mismatch, in both directions', () => {
    const g = tinyGraph()
      .input('x', [1, 8])
      .node('Conv', ['x'], { a: [1, 8] }, { name: 'c' })
      .node('Softmax', ['a'], { b: [1, 8] }, { name: 's' })
      .node('Conv', ['b'], { y: [1, 8] }, { name: 'c2' })
      .output('y')
      .graph();
    const r = analyse(g, npuCpu(['Conv']));
    expect(decisions(r)).toEqual([
      ['a', 'npu#0', 'cpu#1', false, 'type-mismatch'],
      ['b', 'cpu#1', 'npu#2', false, 'type-mismatch'],
    ]);
    expect(r.boundaries[0]).toMatchObject({ copy: 'a@cpu#1', home: { dtype: 'int8' }, reader: { dtype: 'float32' } });
  });

  it('shares when type and alignment agree, and copies on an alignment the home buffer does not meet', () => {
    const g = tinyGraph()
      .input('x', [6])
      .node('Relu', ['x'], { a: [6] }, { name: 'r' })
      .node('Tanh', ['a'], { y: [6] }, { name: 't' })
      .output('y')
      .graph();
    const coarseToFine = testTarget({ computeUnits: [unitDoc('npu', ['Relu'], 'model', 64), unitDoc('cpu', ['*'], 'model', 16)] });
    expect(decisions(analyse(g, coarseToFine))).toEqual([['a', 'npu#0', 'cpu#1', true, 'compatible']]);
    const fineToCoarse = testTarget({ computeUnits: [unitDoc('cpu', ['Relu'], 'model', 16), unitDoc('dsp', ['*'], 'model', 128)] });
    expect(decisions(analyse(g, fineToCoarse))).toEqual([['a', 'cpu#0', 'dsp#1', false, 'alignment']]);
  });

  it('copies when the tensor is read after the reading function takes it, and for graph outputs', () => {
    const g = tinyGraph()
      .input('x', [4])
      .node('Relu', ['x'], { a: [4] }, { name: 'r' })
      .node('Tanh', ['a'], { b: [4] }, { name: 't' })
      .node('Add', ['a', 'b'], { y: [4] }, { name: 'late' })
      .output('y', 'a')
      .graph();
    const target = testTarget({ computeUnits: [unitDoc('npu', ['Relu', 'Add']), unitDoc('cpu', ['*'])] });
    // 'late' runs on the NPU again, after the CPU's Tanh: a third function.
    expect(decisions(analyse(g, target))).toEqual([
      ['a', 'npu#0', 'cpu#1', false, 'read-later'],
      ['a', 'npu#0', 'npu#2', false, 'read-later'],
      ['b', 'cpu#1', 'npu#2', true, 'compatible'],
    ]);
  });

  it('copies everywhere in the baseline, saying where sharing was possible', () => {
    const g = tinyGraph().input('x', [6]).node('Relu', ['x'], { a: [6] }).node('Tanh', ['a'], { y: [6] }).output('y').graph();
    const target = testTarget({ computeUnits: [unitDoc('npu', ['Relu']), unitDoc('cpu', ['*'])] });
    const baseline = analyse(g, target, true);
    expect(decisions(baseline)).toEqual([['a', 'npu#0', 'cpu#1', false, 'layout']]);
    expect(baseline.boundaries[0]!.detail).toBe('both sides could share (both sides store float32 in 24 bytes aligned to 1), but this plan copies at every boundary');
  });
});
