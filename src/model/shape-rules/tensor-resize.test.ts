import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { attr, f32, fact, firstFact, i64, runRule } from '../testing/shape-rule-context';

const floats = (values: number[]) => fact(DT.FLOAT, [values.length], values);
const empty = fact(DT.FLOAT, [0], []);

describe('Resize', () => {
  it('floors dim × scale (opset 10: scales is input 1)', () => {
    const out = runRule(tensorRules, 'Resize', { inputs: [f32([1, 3, 5, 5]), floats([1, 1, 1.5, 2])], opset: 10 });
    expect(firstFact(out).shape).toEqual([1, 3, 7, 10]);
  });

  it('uses sizes when given and the scales input is empty (opset 11+)', () => {
    const out = runRule(tensorRules, 'Resize', { inputs: [f32([1, 3, 5, 5]), empty, empty, i64([1, 3, 9, 11])], opset: 13 });
    expect(firstFact(out).shape).toEqual([1, 3, 9, 11]);
  });

  it('resizes only the listed axes (opset 18)', () => {
    const out = runRule(tensorRules, 'Resize', {
      inputs: [f32([1, 3, 4, 6]), undefined, floats([2, 0.5])],
      attrs: { axes: attr.ints([2, -1]) },
      opset: 18,
    });
    expect(firstFact(out).shape).toEqual([1, 3, 8, 3]);
  });

  it('keeps the aspect ratio with not_larger and not_smaller', () => {
    const run = (policy: string) =>
      firstFact(
        runRule(tensorRules, 'Resize', {
          inputs: [f32([1, 3, 20, 40]), undefined, undefined, i64([10, 10])],
          attrs: { axes: attr.ints([2, 3]), keep_aspect_ratio_policy: attr.string(policy) },
          opset: 18,
        }),
      ).shape;
    expect(run('not_larger')).toEqual([1, 3, 5, 10]);
    expect(run('not_smaller')).toEqual([1, 3, 10, 20]);
    expect(run('stretch')).toEqual([1, 3, 10, 10]);
  });

  it('scales the roi extent with tf_crop_and_resize', () => {
    const out = runRule(tensorRules, 'Resize', {
      inputs: [f32([1, 1, 10, 10]), floats([0, 0, 0, 0, 1, 1, 0.5, 1]), floats([1, 1, 2, 2])],
      attrs: { coordinate_transformation_mode: attr.string('tf_crop_and_resize') },
      opset: 13,
    });
    expect(firstFact(out).shape).toEqual([1, 1, 10, 20]);
  });

  it('leaves the resized axes unknown when scales are not constant', () => {
    const out = runRule(tensorRules, 'Resize', { inputs: [f32([1, 3, 5, 5]), undefined, fact(DT.FLOAT, [4])], opset: 13 });
    expect(firstFact(out).shape).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('Upsample', () => {
  it('reads scales from the attribute (opset 7) or the input (opset 9)', () => {
    const old = runRule(tensorRules, 'Upsample', { inputs: [f32([1, 2, 3, 3])], attrs: { scales: attr.floats([1, 1, 2, 2]) }, opset: 7 });
    expect(firstFact(old).shape).toEqual([1, 2, 6, 6]);
    const next = runRule(tensorRules, 'Upsample', { inputs: [f32([1, 2, 3, 3]), floats([1, 1, 2, 3])], opset: 9 });
    expect(firstFact(next).shape).toEqual([1, 2, 6, 9]);
  });
});

describe('DepthToSpace and OneHot', () => {
  it('DepthToSpace moves channels into space', () => {
    const out = runRule(tensorRules, 'DepthToSpace', { inputs: [f32([1, 8, 2, 3])], attrs: { blocksize: attr.int(2) } });
    expect(firstFact(out).shape).toEqual([1, 2, 4, 6]);
  });

  it('OneHot inserts depth at the axis with the dtype of values', () => {
    const out = runRule(tensorRules, 'OneHot', { inputs: [fact(DT.INT64, [2, 3]), i64([10], []), floats([0, 1])], attrs: { axis: attr.int(1) } });
    expect(firstFact(out)).toEqual({ dtype: DT.FLOAT, shape: [2, 10, 3] });
    const last = runRule(tensorRules, 'OneHot', { inputs: [fact(DT.INT64, [2, 3]), i64([10], []), floats([0, 1])] });
    expect(firstFact(last).shape).toEqual([2, 3, 10]);
  });
});
