// A style-transfer-like model of ONNX's experimental era (IR 3, opset 8), written
// with the test writer, decoded and inferred end to end: every tensor must be sized.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './onnx/decode-onnx';
import type { InferredModel } from './inferred';
import { inferShapes } from './infer/shapes';
import { GraphBuilder, attr } from './testing/onnx-writer';

/** Builds the model and returns its bytes and the expected shape of every value. */
function styleTransferModel(): { bytes: Uint8Array; expected: Record<string, readonly number[]> } {
  const g = new GraphBuilder('style');
  const x = g.input('image', 'float32', [1, 3, 64, 64]);
  const w = g.initializer('w', 'float32', [8, 3, 3, 3]);
  const b = g.initializer('b', 'float32', [8]);
  const starts = g.initializer('starts', 'int64', [1], [2]);
  const ends = g.initializer('ends', 'int64', [1], [4]);
  const scaled = g.node('ImageScaler', [x], { scale: attr.float(1 / 255), bias: attr.floats([-0.5, -0.5, -0.5]) });
  const conv = g.node('Conv', [scaled, w, b], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  const cropped = g.node('Crop', [conv], { border: [2, 2, 2, 2] });
  const affine = g.node('Affine', [cropped], { alpha: attr.float(2), beta: attr.float(0.1) });
  const tanh = g.node('ScaledTanh', [affine], { alpha: attr.float(1), beta: attr.float(1) });
  const up = g.node('Upsample', [tanh], { scales: attr.floats([1, 1, 2, 2]), mode: 'nearest' });
  const soft = g.node('ParametricSoftplus', [up], { alpha: attr.float(1), beta: attr.float(1) });
  const half = g.node('Scale', [soft], { scale: attr.float(0.5) });
  const mvn = g.node('MeanVarianceNormalization', [half], { across_channels: 0, normalize_variance: 1 });
  const window = g.node('Crop', [mvn], { border: [4, 5, 0, 0], scale: [100, 110] });
  const relu = g.node('ThresholdedRelu', [window], { alpha: attr.float(0.1) });
  const gain = g.node('GivenTensorFill', [], { shape: [1, 8, 1, 1], values: attr.floats([1, 2, 3, 4, 5, 6, 7, 8]) });
  const out = g.node('Add', [relu, gain]);
  const shape = g.node('Shape', [window]);
  const hw = g.node('DynamicSlice', [shape, starts, ends]);
  const mask = g.node('ConstantFill', [hw], { input_as_shape: 1, extra_shape: [3], dtype: 1, value: attr.float(1) });
  g.output(out, 'float32');
  g.output(mask, 'float32');
  const expected: Record<string, readonly number[]> = {
    [x]: [1, 3, 64, 64],
    [w]: [8, 3, 3, 3],
    [b]: [8],
    [starts]: [1],
    [ends]: [1],
    [scaled]: [1, 3, 64, 64],
    [conv]: [1, 8, 64, 64],
    [cropped]: [1, 8, 60, 60], // 64 − 2 − 2
    [affine]: [1, 8, 60, 60],
    [tanh]: [1, 8, 60, 60],
    [up]: [1, 8, 120, 120],
    [soft]: [1, 8, 120, 120],
    [half]: [1, 8, 120, 120],
    [mvn]: [1, 8, 120, 120],
    [window]: [1, 8, 100, 110], // scale [100, 110] from top 5 (105 ≤ 120) and left 4 (114 ≤ 120)
    [relu]: [1, 8, 100, 110],
    [gain]: [1, 8, 1, 1],
    [out]: [1, 8, 100, 110],
    [shape]: [4],
    [hw]: [2],
    [mask]: [100, 110, 3],
  };
  return { bytes: g.toBytes({ irVersion: 3, opset: 8 }), expected };
}

const shapesOf = (model: InferredModel): Record<string, readonly number[] | undefined> =>
  Object.fromEntries(model.values.map((v) => [v.name, v.shape]));

describe('a model of legacy ops, decoded and inferred', () => {
  it('sizes every tensor, with the shapes worked out by hand', () => {
    const { bytes, expected } = styleTransferModel();
    const model = inferShapes(decodeOnnx(bytes));
    const unsized = model.values.filter((v) => v.shape === undefined || v.bytes === undefined);
    expect(unsized.map((v) => `${v.name}: ${v.unknownReason ?? '?'}`)).toEqual([]);
    expect(shapesOf(model)).toEqual(expected);
    expect(model.diagnostics.filter((d) => d.code === 'no-shape-rule' || d.code === 'unknown-shape')).toEqual([]);
  });

  it('carries the shape arithmetic through DynamicSlice into ConstantFill', () => {
    const model = inferShapes(decodeOnnx(styleTransferModel().bytes));
    const mask = model.values.find((v) => v.name === model.outputs[1]);
    expect([mask?.shape, mask?.bytes]).toEqual([[100, 110, 3], 100 * 110 * 3 * 4]);
  });
});

describe('Upsample of each opset, decoded and inferred', () => {
  /** A one-Upsample model at `opset`, scaling H by 2 and W by 3 the way that opset spells it. */
  function upsampleModel(opset: number): Uint8Array {
    const g = new GraphBuilder('up');
    const x = g.input('x', 'float32', [1, 2, 5, 5]);
    let y: string;
    if (opset >= 9) {
      const scales = g.constant('float32', [4], [1, 1, 2, 3]);
      y = g.node('Upsample', [x, scales], { mode: 'nearest' });
    } else if (opset >= 7) {
      y = g.node('Upsample', [x], { scales: attr.floats([1, 1, 2, 3]) });
    } else {
      y = g.node('Upsample', [x], { height_scale: attr.float(2), width_scale: attr.float(3) });
    }
    g.output(y, 'float32');
    return g.toBytes({ irVersion: opset < 7 ? 3 : 4, opset });
  }

  for (const opset of [1, 6, 7, 8, 9, 10]) {
    it(`opset ${opset}`, () => {
      const model = inferShapes(decodeOnnx(upsampleModel(opset)));
      const y = model.values.find((v) => v.name === model.outputs[0]);
      expect(y?.shape).toEqual([1, 2, 10, 15]);
    });
  }
});
