import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { attr, f32, fact, firstFact, i64, runRule } from '../testing/shape-rule-context';

describe('Shape', () => {
  it('gives the dims as an int64 value', () => {
    const out = firstFact(runRule(tensorRules, 'Shape', { inputs: [f32([2, 3, 5])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [3], value: [2, 3, 5] });
  });

  it('slices with start/end like Python from opset 15, negative and out-of-range included', () => {
    const run = (start: number, end?: number) =>
      firstFact(
        runRule(tensorRules, 'Shape', {
          inputs: [f32([2, 3, 5, 7])],
          attrs: end === undefined ? { start: attr.int(start) } : { start: attr.int(start), end: attr.int(end) },
          opset: 15,
        }),
      ).value;
    expect(run(1)).toEqual([3, 5, 7]);
    expect(run(-2)).toEqual([5, 7]);
    expect(run(0, -1)).toEqual([2, 3, 5]);
    expect(run(-10, 10)).toEqual([2, 3, 5, 7]);
    expect(run(3, 1)).toEqual([]);
  });

  it('keeps the rank but not the value when a dim is unknown', () => {
    const out = firstFact(runRule(tensorRules, 'Shape', { inputs: [f32([undefined, 4])] }));
    expect(out.shape).toEqual([2]);
    expect(out.value).toBeUndefined();
  });
});

describe('Size', () => {
  it('is an int64 scalar holding the element count', () => {
    expect(firstFact(runRule(tensorRules, 'Size', { inputs: [f32([2, 3, 4])] }))).toEqual({ dtype: DT.INT64, shape: [], value: [24] });
  });
});

describe('Reshape', () => {
  it('copies dims for 0 and infers one -1', () => {
    const out = firstFact(runRule(tensorRules, 'Reshape', { inputs: [f32([2, 12, 64]), i64([0, -1, 4, 16])] }));
    expect(out.shape).toEqual([2, 12, 4, 16]);
  });

  it('keeps a literal 0 with allowzero', () => {
    const out = firstFact(
      runRule(tensorRules, 'Reshape', { inputs: [f32([0, 4]), i64([0, 4])], attrs: { allowzero: attr.int(1) }, opset: 14 }),
    );
    expect(out.shape).toEqual([0, 4]);
  });

  it('reads the target from the shape attribute before opset 5', () => {
    const out = firstFact(runRule(tensorRules, 'Reshape', { inputs: [f32([6, 4])], attrs: { shape: attr.ints([3, -1]) }, opset: 4 }));
    expect(out.shape).toEqual([3, 8]);
  });

  it('carries a constant value through', () => {
    const out = firstFact(runRule(tensorRules, 'Reshape', { inputs: [i64([1, 2, 3, 4]), i64([2, 2])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [1, 2, 3, 4] });
  });

  it('gives the rank from the target length when the target is not constant', () => {
    const out = firstFact(runRule(tensorRules, 'Reshape', { inputs: [f32([2, 3]), fact(DT.INT64, [3])] }));
    expect(out.shape).toEqual([undefined, undefined, undefined]);
    expect(out.note).toMatch(/not a constant/);
  });

  it('reports an element-count mismatch', () => {
    const result = runRule(tensorRules, 'Reshape', { inputs: [f32([2, 3]), i64([4, 2])] });
    expect(result).toEqual({ unknown: expect.stringMatching(/6 elements.*8 elements/) });
  });
});

describe('Flatten', () => {
  it('splits at the axis, negative axes counting from the end', () => {
    expect(firstFact(runRule(tensorRules, 'Flatten', { inputs: [f32([2, 3, 4, 5])] })).shape).toEqual([2, 60]);
    const neg = runRule(tensorRules, 'Flatten', { inputs: [f32([2, 3, 4, 5])], attrs: { axis: attr.int(-1) } });
    expect(firstFact(neg).shape).toEqual([24, 5]);
    const zero = runRule(tensorRules, 'Flatten', { inputs: [f32([2, 3])], attrs: { axis: attr.int(0) } });
    expect(firstFact(zero).shape).toEqual([1, 6]);
  });
});

describe('Squeeze and Unsqueeze', () => {
  it('reads axes from the attribute before opset 13 and from the input after', () => {
    const old = runRule(tensorRules, 'Squeeze', { inputs: [f32([1, 3, 1, 5])], attrs: { axes: attr.ints([0]) }, opset: 11 });
    expect(firstFact(old).shape).toEqual([3, 1, 5]);
    const next = runRule(tensorRules, 'Squeeze', { inputs: [f32([1, 3, 1, 5]), i64([-2])], opset: 13 });
    expect(firstFact(next).shape).toEqual([1, 3, 5]);
  });

  it('drops every 1 without axes', () => {
    expect(firstFact(runRule(tensorRules, 'Squeeze', { inputs: [f32([1, 3, 1, 5])], opset: 13 })).shape).toEqual([3, 5]);
  });

  it('refuses to squeeze a dim that is not 1', () => {
    expect(runRule(tensorRules, 'Squeeze', { inputs: [f32([2, 3]), i64([0])] })).toHaveProperty('unknown');
  });

  it('inserts axes against the output rank and keeps the value', () => {
    const old = runRule(tensorRules, 'Unsqueeze', { inputs: [i64([7])], attrs: { axes: attr.ints([0]) }, opset: 11 });
    expect(firstFact(old)).toEqual({ dtype: DT.INT64, shape: [1, 1], value: [7] });
    const scalar = runRule(tensorRules, 'Unsqueeze', { inputs: [i64([7], []), i64([0])], opset: 13 });
    expect(firstFact(scalar)).toEqual({ dtype: DT.INT64, shape: [1], value: [7] });
    const neg = runRule(tensorRules, 'Unsqueeze', { inputs: [f32([3, 4]), i64([-1, 1])], opset: 13 });
    expect(firstFact(neg).shape).toEqual([3, 1, 4, 1]);
  });
});

describe('Transpose', () => {
  it('permutes dims and constant values', () => {
    const out = firstFact(
      runRule(tensorRules, 'Transpose', { inputs: [i64([1, 2, 3, 4, 5, 6], [2, 3])], attrs: { perm: attr.ints([1, 0]) } }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [3, 2], value: [1, 4, 2, 5, 3, 6] });
  });

  it('reverses the dims without perm', () => {
    expect(firstFact(runRule(tensorRules, 'Transpose', { inputs: [f32([2, 3, 4])] })).shape).toEqual([4, 3, 2]);
  });
});

describe('Identity', () => {
  it('passes the fact through unchanged', () => {
    const input = i64([3, 4]);
    expect(firstFact(runRule(tensorRules, 'Identity', { inputs: [input] }))).toBe(input);
  });
});
