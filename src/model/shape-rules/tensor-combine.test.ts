import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { attr, f32, fact, factsOf, firstFact, i64, runRule } from '../testing/shape-rule-context';

describe('Concat', () => {
  it('joins shape vectors into a Reshape target', () => {
    const out = firstFact(runRule(tensorRules, 'Concat', { inputs: [i64([2]), i64([12]), i64([-1])], attrs: { axis: attr.int(0) } }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [3], value: [2, 12, -1] });
  });

  it('adds dims along the axis and fills unknown dims from other inputs', () => {
    const out = firstFact(
      runRule(tensorRules, 'Concat', { inputs: [f32([undefined, 3, 4]), f32([2, 5, 4])], attrs: { axis: attr.int(-2) } }),
    );
    expect(out.shape).toEqual([2, 8, 4]);
  });

  it('joins matrices along axis 1', () => {
    const out = firstFact(
      runRule(tensorRules, 'Concat', { inputs: [i64([1, 2], [2, 1]), i64([3, 4, 5, 6], [2, 2])], attrs: { axis: attr.int(1) } }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 3], value: [1, 3, 4, 2, 5, 6] });
  });
});

describe('Split', () => {
  it('splits evenly without sizes', () => {
    const outs = factsOf(runRule(tensorRules, 'Split', { inputs: [f32([6, 4])], outputs: 3 }));
    expect(outs.map((o) => o?.shape)).toEqual([[2, 4], [2, 4], [2, 4]]);
  });

  it('takes sizes from the attribute before opset 13 and the input after', () => {
    const old = runRule(tensorRules, 'Split', { inputs: [f32([4, 7])], attrs: { axis: attr.int(1), split: attr.ints([3, 4]) }, outputs: 2, opset: 11 });
    expect(factsOf(old).map((o) => o?.shape)).toEqual([[4, 3], [4, 4]]);
    const next = runRule(tensorRules, 'Split', { inputs: [f32([4, 7]), i64([5, 2])], attrs: { axis: attr.int(-1) }, outputs: 2, opset: 13 });
    expect(factsOf(next).map((o) => o?.shape)).toEqual([[4, 5], [4, 2]]);
  });

  it('makes the last chunk smaller with num_outputs (opset 18)', () => {
    const outs = runRule(tensorRules, 'Split', { inputs: [f32([7])], attrs: { num_outputs: attr.int(3) }, outputs: 3, opset: 18 });
    expect(factsOf(outs).map((o) => o?.shape)).toEqual([[3], [3], [1]]);
  });

  it('splits constant values', () => {
    const outs = runRule(tensorRules, 'Split', { inputs: [i64([1, 2, 3, 4, 5]), i64([2, 3])], outputs: 2 });
    expect(factsOf(outs).map((o) => o?.value)).toEqual([[1, 2], [3, 4, 5]]);
  });

  it('reports sizes that do not add up', () => {
    expect(runRule(tensorRules, 'Split', { inputs: [f32([5]), i64([2, 2])], outputs: 2 })).toHaveProperty('unknown');
  });
});

describe('Tile', () => {
  it('multiplies dims and repeats values', () => {
    const out = firstFact(runRule(tensorRules, 'Tile', { inputs: [i64([1, 2], [1, 2]), i64([2, 2])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 4], value: [1, 2, 1, 2, 1, 2, 1, 2] });
  });
});

describe('Expand', () => {
  it('broadcasts to the target, keeping larger input dims', () => {
    expect(firstFact(runRule(tensorRules, 'Expand', { inputs: [f32([3, 1]), i64([2, 1, 6])] })).shape).toEqual([2, 3, 6]);
  });

  it('expands constant values', () => {
    const out = firstFact(runRule(tensorRules, 'Expand', { inputs: [i64([1, 2], [2, 1]), i64([2, 3])] }));
    expect(out.value).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it('keeps the dims it can when the target is not constant', () => {
    const out = firstFact(runRule(tensorRules, 'Expand', { inputs: [f32([1, 4]), fact(DT.INT64, [3])] }));
    expect(out.shape).toEqual([undefined, undefined, 4]);
  });

  it('rejects incompatible dims', () => {
    expect(runRule(tensorRules, 'Expand', { inputs: [f32([3]), i64([4])] })).toHaveProperty('unknown');
  });
});

describe('Pad', () => {
  it('reads pads from the attribute before opset 11', () => {
    const out = runRule(tensorRules, 'Pad', { inputs: [f32([1, 3, 4, 4])], attrs: { pads: attr.ints([0, 0, 1, 2, 0, 0, 1, 2]) }, opset: 2 });
    expect(firstFact(out).shape).toEqual([1, 3, 6, 8]);
  });

  it('reads pads and axes inputs (opset 18), negative pads crop', () => {
    const out = runRule(tensorRules, 'Pad', { inputs: [f32([2, 5, 5]), i64([1, -1, 2, -1]), undefined, i64([-1, 1])], opset: 18 });
    // axes [2, 1]: axis 2 gains 1 + 2, axis 1 loses 1 at each end.
    expect(firstFact(out).shape).toEqual([2, 3, 8]);
    const wide = runRule(tensorRules, 'Pad', { inputs: [f32([2, 5, 5]), i64([0, 3, 0, 1]), undefined, i64([1, 2])], opset: 18 });
    expect(firstFact(wide).shape).toEqual([2, 5, 9]);
  });

  it('pads constant values with the constant_value input', () => {
    const out = runRule(tensorRules, 'Pad', { inputs: [i64([4, 5]), i64([1, 2]), i64([1], [])], opset: 13 });
    expect(firstFact(out).value).toEqual([1, 4, 5, 1, 1]);
  });
});
