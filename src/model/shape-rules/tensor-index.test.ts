import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { sliceAxis } from './tensor-index';
import { attr, f32, fact, firstFact, i64, runRule } from '../testing/shape-rule-context';

// INT64 bounds as exported models write them, after conversion to a JS number.
const INT64_MAX = Number(9223372036854775807n);
const INT64_MIN = Number(-9223372036854775808n);

describe('sliceAxis', () => {
  it('clamps like Python slicing', () => {
    expect(sliceAxis(10, 2, 5, 1).length).toBe(3);
    expect(sliceAxis(10, -3, INT64_MAX, 1).length).toBe(3);
    expect(sliceAxis(10, 0, INT64_MAX, 3).length).toBe(4);
    expect(sliceAxis(10, -1, INT64_MIN, -1).length).toBe(10);
    expect(sliceAxis(10, 8, 2, -2).length).toBe(3);
    expect(sliceAxis(10, 5, 2, 1).length).toBe(0);
    expect(sliceAxis(0, -1, INT64_MIN, -1).length).toBe(0);
  });
});

describe('Slice', () => {
  it('reads starts/ends/axes/steps inputs from opset 10 and slices values', () => {
    const out = firstFact(
      runRule(tensorRules, 'Slice', { inputs: [i64([2, 3, 5, 7]), i64([-2]), i64([INT64_MAX]), i64([0]), i64([1])] }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [2], value: [5, 7] });
  });

  it('reverses with a negative step', () => {
    const out = firstFact(runRule(tensorRules, 'Slice', { inputs: [i64([1, 2, 3, 4]), i64([-1]), i64([INT64_MIN]), i64([0]), i64([-1])] }));
    expect(out.value).toEqual([4, 3, 2, 1]);
  });

  it('slices several axes of a matrix with steps', () => {
    const data = i64([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [3, 4]);
    const out = firstFact(runRule(tensorRules, 'Slice', { inputs: [data, i64([0, 1]), i64([3, 4]), i64([0, 1]), i64([2, 2])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [1, 3, 9, 11] });
  });

  it('reads attributes before opset 10', () => {
    const out = firstFact(
      runRule(tensorRules, 'Slice', {
        inputs: [f32([4, 8, 6])],
        attrs: { starts: attr.ints([1, 0]), ends: attr.ints([3, -2]), axes: attr.ints([0, 2]) },
        opset: 9,
      }),
    );
    expect(out.shape).toEqual([2, 8, 4]);
  });

  it('leaves only the sliced axes unknown when the bounds are not constant', () => {
    const out = firstFact(runRule(tensorRules, 'Slice', { inputs: [f32([4, 8]), fact(DT.INT64, [1]), fact(DT.INT64, [1]), i64([1])] }));
    expect(out.shape).toEqual([4, undefined]);
  });

  it('leaves an unknown dim unknown', () => {
    const out = firstFact(runRule(tensorRules, 'Slice', { inputs: [f32([undefined, 8]), i64([0, 0]), i64([1, 4])] }));
    expect(out.shape).toEqual([undefined, 4]);
  });
});

describe('Gather', () => {
  it('picks from a shape vector with a negative scalar index', () => {
    const out = firstFact(runRule(tensorRules, 'Gather', { inputs: [i64([2, 3, 5]), i64([-1], [])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [], value: [5] });
  });

  it('places the indices shape at the axis', () => {
    const out = firstFact(
      runRule(tensorRules, 'Gather', { inputs: [f32([5, 6, 7]), fact(DT.INT64, [2, 3])], attrs: { axis: attr.int(1) } }),
    );
    expect(out.shape).toEqual([5, 2, 3, 7]);
  });

  it('gathers rows of a constant matrix along axis 1', () => {
    const data = i64([1, 2, 3, 4, 5, 6], [2, 3]);
    const out = firstFact(runRule(tensorRules, 'Gather', { inputs: [data, i64([2, 0])], attrs: { axis: attr.int(1) } }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [3, 1, 6, 4] });
  });

  it('reports an out-of-range index', () => {
    expect(runRule(tensorRules, 'Gather', { inputs: [i64([2, 3]), i64([2], [])] })).toHaveProperty('unknown');
  });
});

describe('GatherElements and GatherND', () => {
  it('GatherElements takes the indices shape and computes values', () => {
    const data = i64([1, 2, 3, 4], [2, 2]);
    const out = firstFact(
      runRule(tensorRules, 'GatherElements', { inputs: [data, i64([0, 0, 1, 0], [2, 2])], attrs: { axis: attr.int(1) } }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [1, 1, 4, 3] });
  });

  it('GatherND keeps the leading indices dims and the trailing data dims', () => {
    const out = firstFact(runRule(tensorRules, 'GatherND', { inputs: [f32([2, 3, 4, 5]), fact(DT.INT64, [2, 7, 2])] }));
    expect(out.shape).toEqual([2, 7, 4, 5]);
    const batched = runRule(tensorRules, 'GatherND', {
      inputs: [f32([2, 3, 4, 5]), fact(DT.INT64, [2, 7, 1])],
      attrs: { batch_dims: attr.int(1) },
    });
    expect(firstFact(batched).shape).toEqual([2, 7, 4, 5]);
  });
});

describe('Scatter family', () => {
  it('keeps the data shape', () => {
    for (const op of ['ScatterElements', 'ScatterND', 'Scatter']) {
      const out = firstFact(runRule(tensorRules, op, { inputs: [f32([4, 5]), fact(DT.INT64, [2, 1]), f32([2, 5])] }));
      expect(out.shape).toEqual([4, 5]);
    }
  });
});
