import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { floatAttr } from '../testing/ir-builder';
import { f32, inferNode, outputShapes } from '../testing/infer-node';
import { foldedValue, intFact } from '../testing/run-rule';

describe('element-wise shape rules', () => {
  it('keeps the shape and dtype of unary ops', () => {
    for (const op of ['Relu', 'Sigmoid', 'Erf', 'HardSwish', 'Gelu', 'Softplus', 'Mish']) {
      const [y] = inferNode(op, [{ dtype: DT.FLOAT16, shape: [2, 3, 5] }]).outputs;
      expect(y?.shape, op).toEqual([2, 3, 5]);
      expect(y?.dtype, op).toBe(DT.FLOAT16);
    }
  });

  it('broadcasts binary and variadic ops', () => {
    expect(outputShapes('Add', [f32(4, 1, 6), f32(5, 1)])).toEqual([[4, 5, 6]]);
    expect(outputShapes('Max', [f32(3), f32(2, 1), f32(1, 1, 3)])).toEqual([[1, 2, 3]]);
    expect(outputShapes('Pow', [f32(2, 3), f32()])).toEqual([[2, 3]]);
  });

  it('folds shape arithmetic on constant int vectors, truncating integer division', () => {
    expect(foldedValue('Add', [intFact([2, 3, 4]), intFact([1], [])])).toEqual([3, 4, 5]);
    expect(foldedValue('Mul', [intFact([2, 3]), intFact([4, 5])])).toEqual([8, 15]);
    expect(foldedValue('Div', [intFact([7, -7]), intFact([2], [])])).toEqual([3, -3]);
    expect(foldedValue('Div', [{ dtype: DT.FLOAT, shape: [1], value: [7] }, { dtype: DT.FLOAT, shape: [], value: [2] }])).toEqual([3.5]);
    expect(foldedValue('Max', [intFact([1, 9]), intFact([5, 2]), intFact([3], [])])).toEqual([5, 9]);
    expect(foldedValue('Neg', [intFact([2])])).toEqual([-2]);
  });

  it('does not fold when an input is not constant', () => {
    expect(foldedValue('Add', [intFact([2, 3]), { dtype: DT.INT64, shape: [2] }])).toBeUndefined();
  });

  it('folds Mod with Python or C sign rules', () => {
    expect(foldedValue('Mod', [intFact([-1, 5]), intFact([4], [])], { fmod: 0 })).toEqual([3, 1]);
    expect(foldedValue('Mod', [intFact([-1, 5]), intFact([4], [])], { fmod: 1 })).toEqual([-1, 1]);
  });

  it('clips constant values by bound inputs', () => {
    const bound = (v: number) => ({ dtype: DT.INT64, shape: [], value: [v] });
    expect(foldedValue('Clip', [intFact([-3, 2, 9]), bound(0), bound(5)], {}, 13)).toEqual([0, 2, 5]);
  });

  it('gives PRelu the shape of X', () => {
    expect(outputShapes('PRelu', [f32(1, 8, 4, 4), f32(8, 1, 1)])).toEqual([[1, 8, 4, 4]]);
  });

  it('reads Clip bounds as inputs from opset 11 and as attributes before', () => {
    expect(outputShapes('Clip', [f32(3, 4), f32(), f32()], { opset: 13 })).toEqual([[3, 4]]);
    expect(outputShapes('Clip', [f32(3, 4)], { opset: 6, attrs: { min: floatAttr(0), max: floatAttr(6) } })).toEqual([[3, 4]]);
  });

  it('gives Dropout a bool mask from opset 10 and an X-typed mask before', () => {
    const newer = inferNode('Dropout', [f32(2, 3)], { outputs: 2, opset: 13 }).outputs;
    expect(newer.map((o) => [o.shape, o.dtype])).toEqual([[[2, 3], DT.FLOAT], [[2, 3], DT.BOOL]]);
    const older = inferNode('Dropout', [f32(2, 3)], { outputs: 2, opset: 7 }).outputs;
    expect(older[1]?.dtype).toBe(DT.FLOAT);
  });

  it('types the quantization outputs', () => {
    const q = inferNode('QuantizeLinear', [f32(2, 3), f32(), { dtype: DT.INT8, shape: [], value: [0] }]).outputs[0];
    expect([q?.dtype, q?.bytes]).toEqual([DT.INT8, 6]);
    const qDefault = inferNode('QuantizeLinear', [f32(2, 3), f32()]).outputs[0];
    expect(qDefault?.dtype).toBe(DT.UINT8);
    const dq = inferNode('DequantizeLinear', [{ dtype: DT.INT8, shape: [4] }, { dtype: DT.FLOAT16, shape: [] }], { opset: 19 }).outputs[0];
    expect([dq?.dtype, dq?.shape]).toEqual([DT.FLOAT16, [4]]);
    const dyn = inferNode('DynamicQuantizeLinear', [f32(3, 4)], { outputs: 3 }).outputs;
    expect(dyn.map((o) => [o.dtype, o.shape])).toEqual([[DT.UINT8, [3, 4]], [DT.FLOAT, []], [DT.UINT8, []]]);
  });

  it('gives IsNaN and IsInf a bool output', () => {
    const [y] = inferNode('IsNaN', [f32(5)]).outputs;
    expect([y?.dtype, y?.bytes]).toEqual([DT.BOOL, 5]);
  });
});
