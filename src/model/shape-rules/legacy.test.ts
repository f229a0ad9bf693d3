import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { SHAPE_RULES } from './index';
import { legacyRules } from './legacy';
import { elementwiseRules } from './elementwise';
import { nnRules } from './nn';
import { convRules } from './conv';
import { normRules } from './norm';
import { signalRules } from './signal';
import { miscRules } from './misc';
import { mlRules } from './ml';
import { reduceRules } from './reduce';
import { recurrentRules } from './recurrent';
import { tensorRules } from './tensor';
import { controlRules } from './control';
import { dataDependentRules } from './data-dependent';
import { microsoftRules } from './microsoft';
import type { RuleResult } from './types';
import type { RunOptions } from '../testing/shape-rule-context';
import { attr, f32, fact, firstFact, i64, runRule } from '../testing/shape-rule-context';

const legacy = (op: string, options: RunOptions) => runRule(legacyRules, op, { opset: 8, ...options });
const shapeOf = (result: RuleResult) => firstFact(result).shape;
const reasonOf = (result: RuleResult): string => ('unknown' in result ? result.unknown : 'known');
const floats = (values: number[], shape: number[] = [values.length]) => fact(DT.FLOAT, shape, values);

describe('registration', () => {
  it('adds each legacy op once: no other table has it, and the full table uses it', () => {
    const others = [
      elementwiseRules, nnRules, convRules, normRules, signalRules, miscRules, mlRules,
      reduceRules, recurrentRules, tensorRules, controlRules, dataDependentRules, microsoftRules,
    ];
    for (const key of Object.keys(legacyRules)) {
      expect(others.filter((table) => key in table), key).toEqual([]);
      expect(SHAPE_RULES[key], key).toBe(legacyRules[key]);
    }
  });
});

describe('ImageScaler', () => {
  it('keeps the shape and dtype of the image', () => {
    const out = legacy('ImageScaler', { inputs: [fact(DT.FLOAT16, [1, 3, 4, 5])], attrs: { scale: attr.float(0.5), bias: attr.floats([1, 2, 3]) } });
    expect(firstFact(out)).toEqual({ dtype: DT.FLOAT16, shape: [1, 3, 4, 5] });
  });

  it('folds scale × x + bias[channel] over a constant image', () => {
    const out = legacy('ImageScaler', { inputs: [floats([1, 2], [1, 2, 1, 1])], attrs: { scale: attr.float(2), bias: attr.floats([10, 20]) } });
    expect(firstFact(out).value).toEqual([12, 24]);
  });

  it('refuses a bias that does not match the channels, and a non-image input', () => {
    const bias = legacy('ImageScaler', { inputs: [f32([1, 3, 4, 4])], attrs: { bias: attr.floats([1, 2]) } });
    expect(reasonOf(bias)).toContain('2 values for 3 channels');
    expect(reasonOf(legacy('ImageScaler', { inputs: [f32([3, 4, 4])] }))).toContain('[3, 4, 4]');
  });
});

describe('Crop', () => {
  const crop = (shape: (number | undefined)[], border: number[], scale?: number[]) =>
    legacy('Crop', {
      inputs: [f32(shape)],
      attrs: scale === undefined ? { border: attr.ints(border) } : { border: attr.ints(border), scale: attr.ints(scale) },
    });

  it('removes the borders: H − top − bottom, W − left − right', () => {
    // H: 10 − 2 − 4 = 4; W: 12 − 1 − 3 = 8.
    expect(shapeOf(crop([2, 3, 10, 12], [1, 2, 3, 4]))).toEqual([2, 3, 4, 8]);
  });

  it('takes scale [h, w] from the left/top border when given', () => {
    expect(shapeOf(crop([2, 3, 10, 12], [1, 2, 0, 0], [5, 6]))).toEqual([2, 3, 5, 6]);
  });

  it('allows a zero-size crop and keeps an unknown axis unknown', () => {
    expect(shapeOf(crop([1, 3, 10, 12], [0, 5, 0, 5]))).toEqual([1, 3, 0, 12]);
    expect(shapeOf(crop([1, 3, undefined, 12], [1, 1, 1, 1]))).toEqual([1, 3, undefined, 10]);
  });

  it('answers unknown, naming the values, when the crop leaves the image', () => {
    expect(reasonOf(crop([1, 3, 10, 12], [0, 6, 0, 5]))).toBe('Crop borders 6 + 5 are larger than the input height 10');
    expect(reasonOf(crop([1, 3, 10, 12], [8, 0, 0, 0], [4, 5]))).toBe('Crop width 5 from border 8 runs past the input width 12');
    expect(reasonOf(crop([1, 3, 10, 12], [0, -1, 0, 0]))).toContain('negative');
    expect(reasonOf(crop([1, 3, 10, 12], [1, 1]))).toContain('needs 4 values');
  });
});

describe('element-wise legacy activations', () => {
  const half = fact(DT.FLOAT16, [2, 3]);

  it('keeps shape and dtype', () => {
    for (const op of ['Affine', 'ScaledTanh', 'ParametricSoftplus', 'Scale']) {
      expect(firstFact(legacy(op, { inputs: [half] })), op).toEqual({ dtype: DT.FLOAT16, shape: [2, 3] });
    }
  });

  it('folds constant values through each function', () => {
    const run = (op: string, attrs: Record<string, number>, values: number[]) =>
      firstFact(legacy(op, { inputs: [floats(values)], attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, attr.float(v)])) })).value;
    expect(run('Affine', { alpha: 2, beta: 1 }, [1, 2, 3])).toEqual([3, 5, 7]);
    expect(run('Scale', { scale: 3 }, [1, -2])).toEqual([3, -6]);
    expect(run('ScaledTanh', { alpha: 2, beta: 0.5 }, [0])).toEqual([0]);
    expect(run('ParametricSoftplus', { alpha: 2, beta: 1 }, [0])).toEqual([2 * Math.log(2)]);
  });
});

describe('ConstantFill', () => {
  it('uses the shape and dtype attributes and fills the value', () => {
    const out = legacy('ConstantFill', { attrs: { shape: attr.ints([2, 3]), dtype: attr.int(DT.INT64), value: attr.float(7.9) } });
    expect(firstFact(out)).toEqual({ dtype: DT.INT64, shape: [2, 3], value: [7, 7, 7, 7, 7, 7] });
  });

  it('reads the shape from a constant input with input_as_shape, then appends extra_shape', () => {
    const out = legacy('ConstantFill', { inputs: [i64([2, 4])], attrs: { input_as_shape: attr.int(1), extra_shape: attr.ints([3]) } });
    expect([firstFact(out).dtype, shapeOf(out)]).toEqual([DT.FLOAT, [2, 4, 3]]);
  });

  it("copies the input's shape otherwise", () => {
    const out = legacy('ConstantFill', { inputs: [f32([5, 6])], attrs: { extra_shape: attr.ints([2]), dtype: attr.int(DT.BOOL), value: attr.float(0.5) } });
    expect(firstFact(out)).toMatchObject({ dtype: DT.BOOL, shape: [5, 6, 2] });
    expect(firstFact(out).value?.every((v) => v === 1)).toBe(true);
  });

  it('keeps the rank when the shape input is not a constant', () => {
    const out = legacy('ConstantFill', { inputs: [fact(DT.INT64, [3])], attrs: { input_as_shape: attr.int(1) } });
    expect(firstFact(out)).toMatchObject({ shape: [undefined, undefined, undefined], note: 'the ConstantFill shape input is not a constant' });
  });

  it('answers unknown for a negative dim or a missing shape', () => {
    expect(reasonOf(legacy('ConstantFill', { attrs: { shape: attr.ints([2, -1]) } }))).toBe('ConstantFill shape [2, -1] has a negative or fractional dim');
    expect(reasonOf(legacy('ConstantFill', { inputs: [i64([2, -3])], attrs: { input_as_shape: attr.int(1) } }))).toContain('[2, -3]');
    expect(reasonOf(legacy('ConstantFill', {}))).toContain('needs a shape attribute or an input');
  });
});

describe('GivenTensorFill', () => {
  it('is float of the shape attribute, holding the values', () => {
    const out = legacy('GivenTensorFill', { attrs: { shape: attr.ints([2, 2]), values: attr.floats([1, 2, 3, 4]) } });
    expect(firstFact(out)).toEqual({ dtype: DT.FLOAT, shape: [2, 2], value: [1, 2, 3, 4] });
  });

  it("follows the input's shape and float type, or its value with input_as_shape", () => {
    const like = legacy('GivenTensorFill', { inputs: [fact(DT.FLOAT16, [3])], attrs: { extra_shape: attr.ints([2]) } });
    expect(firstFact(like)).toEqual({ dtype: DT.FLOAT16, shape: [3, 2] });
    const asShape = legacy('GivenTensorFill', { inputs: [i64([4, 5])], attrs: { input_as_shape: attr.int(1) } });
    expect(firstFact(asShape)).toEqual({ dtype: DT.FLOAT, shape: [4, 5] });
  });

  it('drops values that do not match the shape', () => {
    const out = legacy('GivenTensorFill', { attrs: { shape: attr.ints([3]), values: attr.floats([1, 2]) } });
    expect(firstFact(out)).toEqual({ dtype: DT.FLOAT, shape: [3] });
  });
});

describe('MeanVarianceNormalization and ThresholdedRelu (registered with the element-wise rules)', () => {
  it('keep the input shape with opset-1 attributes and with later ones', () => {
    const mvn1 = runRule(SHAPE_RULES, 'MeanVarianceNormalization', {
      inputs: [f32([1, 3, 8, 8])],
      attrs: { across_channels: attr.int(1), normalize_variance: attr.int(0) },
      opset: 1,
    });
    expect(shapeOf(mvn1)).toEqual([1, 3, 8, 8]);
    const mvn9 = runRule(SHAPE_RULES, 'MeanVarianceNormalization', { inputs: [f32([2, 4, 5])], attrs: { axes: attr.ints([0, 2]) }, opset: 9 });
    expect(shapeOf(mvn9)).toEqual([2, 4, 5]);
    const relu = runRule(SHAPE_RULES, 'ThresholdedRelu', { inputs: [fact(DT.DOUBLE, [7])], attrs: { alpha: attr.float(2) }, opset: 1 });
    expect(firstFact(relu)).toEqual({ dtype: DT.DOUBLE, shape: [7] });
  });
});

describe('Upsample of every opset', () => {
  const upsample = (opset: number, options: RunOptions) => runRule(SHAPE_RULES, 'Upsample', { opset, ...options });
  const nchwScales = { height_scale: attr.float(2), width_scale: attr.float(3) };

  it('opsets 1–6: height_scale and width_scale on an NCHW input', () => {
    for (const opset of [1, 6]) {
      expect(shapeOf(upsample(opset, { inputs: [f32([1, 2, 3, 4])], attrs: nchwScales })), `opset ${opset}`).toEqual([1, 2, 6, 12]);
    }
    expect(reasonOf(upsample(1, { inputs: [f32([2, 3, 4])], attrs: nchwScales }))).toContain('got rank 3');
    expect(reasonOf(upsample(1, { inputs: [f32([1, 2, 3, 4])], attrs: { width_scale: attr.float(2) } }))).toContain('height_scale and width_scale');
  });

  it('opsets 7–8: the scales attribute, flooring dim × scale', () => {
    expect(shapeOf(upsample(7, { inputs: [f32([1, 2, 3, 3])], attrs: { scales: attr.floats([1, 1, 2, 2]) } }))).toEqual([1, 2, 6, 6]);
    // 3 × 1.5 = 4.5, floored to 4.
    expect(shapeOf(upsample(8, { inputs: [f32([1, 1, 3, 3])], attrs: { scales: attr.floats([1, 1, 1.5, 2.5]) } }))).toEqual([1, 1, 4, 7]);
  });

  it('opsets 9–10: the scales input, unknown axes when it is not a constant', () => {
    expect(shapeOf(upsample(9, { inputs: [f32([1, 2, 3, 3]), floats([1, 1, 2, 3])] }))).toEqual([1, 2, 6, 9]);
    expect(shapeOf(upsample(10, { inputs: [f32([2, 5]), floats([1, 4])] }))).toEqual([2, 20]);
    const dynamic = upsample(9, { inputs: [f32([1, 2, 3, 3]), fact(DT.FLOAT, [4])] });
    expect(firstFact(dynamic)).toMatchObject({ shape: [undefined, undefined, undefined, undefined], note: 'the Upsample scales are not constants' });
  });

  it('answers unknown for scales below 1 or of the wrong rank', () => {
    expect(reasonOf(upsample(9, { inputs: [f32([1, 2, 4, 4]), floats([1, 1, 0.5, 0.5])] }))).toBe('Upsample scales [1, 1, 0.5, 0.5] must each be at least 1');
    expect(reasonOf(upsample(7, { inputs: [f32([1, 2, 4, 4])], attrs: { scales: attr.floats([1, 1, -2, 2]) } }))).toContain('[1, 1, -2, 2]');
    expect(reasonOf(upsample(7, { inputs: [f32([1, 2, 4, 4])], attrs: { scales: attr.floats([2, 2]) } }))).toContain('do not match rank 4');
  });
});

describe('DynamicSlice', () => {
  it('slices like Slice with starts, ends and axes inputs', () => {
    // Axis 0: [1, 3) of 4 → 2; axis 2: [2, −1) of 6 → 3.
    const out = legacy('DynamicSlice', { inputs: [f32([4, 10, 6]), i64([1, 2]), i64([3, -1]), i64([0, 2])] });
    expect(shapeOf(out)).toEqual([2, 10, 3]);
  });

  it('slices the leading axes without axes, and carries constant values', () => {
    const out = legacy('DynamicSlice', { inputs: [i64([2, 3, 4, 5]), i64([1]), i64([3])] });
    expect(firstFact(out)).toEqual({ dtype: DT.INT64, shape: [2], value: [3, 4] });
  });

  it('leaves the sliced axes unknown when the bounds are not constants', () => {
    const out = legacy('DynamicSlice', { inputs: [f32([4, 10]), fact(DT.INT64, [1]), fact(DT.INT64, [1]), i64([1])] });
    expect(shapeOf(out)).toEqual([4, undefined]);
  });
});

describe('FC and GRUUnit', () => {
  it('FC coerces X at axis and W at axis_w: [M, N]', () => {
    // X [2, 3, 4, 5] at axis 1: M = 2, K = 60; W [10, 60]: N = 10.
    expect(shapeOf(legacy('FC', { inputs: [f32([2, 3, 4, 5]), f32([10, 60]), f32([10])] }))).toEqual([2, 10]);
    const axes = { axis: attr.int(2), axis_w: attr.int(2) };
    expect(shapeOf(legacy('FC', { inputs: [f32([2, 3, 4, 5]), f32([2, 5, 20]), f32([10])], attrs: axes }))).toEqual([6, 10]);
    expect(reasonOf(legacy('FC', { inputs: [f32([2, 3, 4, 5]), f32([10, 50]), f32([10])] }))).toContain('K=60 but weight [10, 50] gives K=50');
  });

  it("GRUUnit's hidden state keeps the previous one's shape", () => {
    const out = legacy('GRUUnit', { inputs: [f32([1, 4, 16]), f32([1, 4, 48]), f32([4]), f32([1])] });
    expect(firstFact(out)).toEqual({ dtype: DT.FLOAT, shape: [1, 4, 16] });
  });
});
