import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { attr, f32, fact, firstFact, i64, irTensor, runRule } from '../testing/shape-rule-context';

describe('Constant', () => {
  it('reads a tensor value', () => {
    const out = firstFact(runRule(tensorRules, 'Constant', { attrs: { value: attr.tensor(irTensor(DT.INT64, [2], [0, -1])) } }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2], value: [0, -1] });
  });

  it('reads value_int(s) and value_float(s)', () => {
    expect(firstFact(runRule(tensorRules, 'Constant', { attrs: { value_int: attr.int(5) } }))).toEqual({ dtype: DT.INT64, shape: [], value: [5] });
    expect(firstFact(runRule(tensorRules, 'Constant', { attrs: { value_ints: attr.ints([1, 2]) } })).shape).toEqual([2]);
    const floats = firstFact(runRule(tensorRules, 'Constant', { attrs: { value_floats: attr.floats([0.5]) } }));
    expect(floats).toEqual({ dtype: DT.FLOAT, shape: [1], value: [0.5] });
  });

  it('explains a missing value', () => {
    expect(runRule(tensorRules, 'Constant', {})).toEqual({ unknown: expect.stringMatching(/no value/) });
  });
});

describe('ConstantOfShape', () => {
  it('builds the shape from its input with the dtype of the value attribute', () => {
    const out = firstFact(
      runRule(tensorRules, 'ConstantOfShape', { inputs: [i64([2, 3])], attrs: { value: attr.tensor(irTensor(DT.INT64, [1], [7])) } }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 3], value: [7, 7, 7, 7, 7, 7] });
  });

  it('defaults to float32 zeros and keeps the rank of an unknown shape', () => {
    expect(firstFact(runRule(tensorRules, 'ConstantOfShape', { inputs: [i64([2])] }))).toEqual({ dtype: DT.FLOAT, shape: [2], value: [0, 0] });
    const open = firstFact(runRule(tensorRules, 'ConstantOfShape', { inputs: [fact(DT.INT64, [3])] }));
    expect(open.shape).toEqual([undefined, undefined, undefined]);
  });

  it('does not hold the value of a large tensor', () => {
    const out = firstFact(runRule(tensorRules, 'ConstantOfShape', { inputs: [i64([1000, 1000])] }));
    expect(out.shape).toEqual([1000, 1000]);
    expect(out.value).toBeUndefined();
  });
});

describe('Range', () => {
  it('generates values, including negative deltas', () => {
    expect(firstFact(runRule(tensorRules, 'Range', { inputs: [i64([0], []), i64([5], []), i64([2], [])] }))).toEqual({
      dtype: DT.INT64,
      shape: [3],
      value: [0, 2, 4],
    });
    expect(firstFact(runRule(tensorRules, 'Range', { inputs: [i64([10], []), i64([4], []), i64([-3], [])] })).value).toEqual([10, 7]);
    expect(firstFact(runRule(tensorRules, 'Range', { inputs: [i64([3], []), i64([1], []), i64([1], [])] })).shape).toEqual([0]);
  });

  it('has one unknown dim when a bound is not constant', () => {
    const out = firstFact(runRule(tensorRules, 'Range', { inputs: [i64([0], []), fact(DT.INT64, []), i64([1], [])] }));
    expect(out.shape).toEqual([undefined]);
  });
});

describe('Cast and CastLike', () => {
  it('changes the dtype and converts values', () => {
    const out = firstFact(runRule(tensorRules, 'Cast', { inputs: [fact(DT.FLOAT, [3], [1.9, -1.9, 0])], attrs: { to: attr.int(DT.INT64) } }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [3], value: [1, -1, 0] });
    const bools = firstFact(runRule(tensorRules, 'Cast', { inputs: [i64([0, 3])], attrs: { to: attr.int(DT.BOOL) } }));
    expect(bools.value).toEqual([0, 1]);
  });

  it('reads the type name form of `to` before opset 6', () => {
    const out = firstFact(runRule(tensorRules, 'Cast', { inputs: [f32([2])], attrs: { to: attr.string('INT32') }, opset: 1 }));
    expect(out.dtype).toBe(DT.INT32);
  });

  it('CastLike takes the dtype of its second input', () => {
    const out = firstFact(runRule(tensorRules, 'CastLike', { inputs: [i64([4]), f32([])] }));
    expect(out).toEqual({ dtype: DT.FLOAT, shape: [1], value: [4] });
  });
});
