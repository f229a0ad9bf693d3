import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { f32, i64, inferNode, outputShapes } from '../testing/infer-node';
import { foldedValue, intFact } from '../testing/run-rule';

describe('reduction shape rules', () => {
  it('reads axes from the attribute before opset 18 and from the input after', () => {
    expect(outputShapes('ReduceMean', [f32(3, 4, 5)], { opset: 13, attrs: { axes: [1], keepdims: 1 } })).toEqual([[3, 1, 5]]);
    expect(outputShapes('ReduceMean', [f32(3, 4, 5), i64([1])], { opset: 18, attrs: { keepdims: 0 } })).toEqual([[3, 5]]);
    expect(outputShapes('ReduceMax', [f32(3, 4, 5), i64([-1, 0])], { opset: 18 })).toEqual([[1, 4, 1]]);
  });

  it('takes ReduceSum axes as an input from opset 13', () => {
    expect(outputShapes('ReduceSum', [f32(3, 4, 5), i64([2])], { opset: 13, attrs: { keepdims: 0 } })).toEqual([[3, 4]]);
    expect(outputShapes('ReduceSum', [f32(3, 4, 5)], { opset: 11, attrs: { axes: [2], keepdims: 0 } })).toEqual([[3, 4]]);
  });

  it('reduces every axis when axes are absent, unless noop_with_empty_axes is set', () => {
    expect(outputShapes('ReduceL2', [f32(3, 4, 5)], { attrs: { keepdims: 0 } })).toEqual([[]]);
    expect(outputShapes('ReduceProd', [f32(3, 4, 5)])).toEqual([[1, 1, 1]]);
    expect(outputShapes('ReduceSum', [f32(3, 4, 5), i64([])], { attrs: { noop_with_empty_axes: 1 } })).toEqual([[3, 4, 5]]);
  });

  it('keeps the rank when axes come from a non-constant input with keepdims', () => {
    const r = inferNode('ReduceSum', [f32(3, 4), { dtype: DT.INT64, shape: [1] }], { opset: 13 });
    expect(r.outputs[0]?.shape).toBeUndefined();
    expect(r.outputs[0]?.unknownReason).toBeDefined();
  });

  it('folds reductions of small constants per axis', () => {
    expect(foldedValue('ReduceProd', [intFact([2, 3, 4])], { keepdims: 0 }, 17)).toEqual([24]);
    expect(foldedValue('ReduceSum', [intFact([1, 2, 3, 4, 5, 6], [2, 3]), intFact([1])], { keepdims: 0 })).toEqual([6, 15]);
    expect(foldedValue('ReduceMax', [intFact([1, 7, 3, 4, 5, 6], [2, 3]), intFact([0])], { keepdims: 1 })).toEqual([4, 7, 6]);
  });

  it('gives ArgMax/ArgMin int64 indices along one axis', () => {
    const [y] = inferNode('ArgMax', [f32(2, 3, 4)], { attrs: { axis: -1, keepdims: 0 } }).outputs;
    expect([y?.shape, y?.dtype]).toEqual([[2, 3], DT.INT64]);
    expect(outputShapes('ArgMin', [f32(2, 3, 4)], { attrs: { axis: 1 } })).toEqual([[2, 1, 4]]);
  });

  it('keeps CumSum shapes', () => {
    expect(outputShapes('CumSum', [f32(2, 3), i64([1], [])])).toEqual([[2, 3]]);
  });
});
