import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { f32, i64, inferNode, outputShapes } from '../testing/infer-node';

const scalar = (value: number) => i64([value], []);

describe('signal-processing shape rules', () => {
  it('makes 1-D windows of the requested size and type', () => {
    const [w] = inferNode('HannWindow', [scalar(10)], { opset: 17, attrs: { output_datatype: DT.DOUBLE } }).outputs;
    expect([w?.shape, w?.dtype]).toEqual([[10], DT.DOUBLE]);
  });

  it('sizes STFT frames and one-sided bins', () => {
    // 128-sample signal, frame step 8, window 16: (128 - 16) / 8 + 1 = 15 frames, 16/2 + 1 = 9 bins.
    expect(outputShapes('STFT', [f32(1, 128, 1), scalar(8), f32(16)], { opset: 17 })).toEqual([[1, 15, 9, 2]]);
    expect(outputShapes('STFT', [f32(1, 128, 1), scalar(8), undefined, scalar(16)], { opset: 17, attrs: { onesided: 0 } })).toEqual([[1, 15, 16, 2]]);
  });

  it('transforms the DFT axis (attribute before opset 20, input after)', () => {
    expect(outputShapes('DFT', [f32(3, 5, 1)], { opset: 17 })).toEqual([[3, 5, 2]]);
    expect(outputShapes('DFT', [f32(3, 10, 1), undefined], { opset: 17, attrs: { onesided: 1 } })).toEqual([[3, 6, 2]]);
    expect(outputShapes('DFT', [f32(3, 10, 2), scalar(16), scalar(1)], { opset: 20 })).toEqual([[3, 16, 2]]);
  });

  it('sizes MelWeightMatrix from its scalar inputs', () => {
    const inputs = [scalar(8), scalar(16), scalar(8192), { dtype: DT.FLOAT, shape: [], value: [0] }, { dtype: DT.FLOAT, shape: [], value: [4096] }];
    expect(outputShapes('MelWeightMatrix', inputs, { opset: 17 })).toEqual([[9, 8]]);
  });
});

describe('other standard shape rules', () => {
  it('drops the matrix axes of Det', () => {
    expect(outputShapes('Det', [f32(2, 3, 3)])).toEqual([[2]]);
    expect(outputShapes('Det', [f32(3, 3)])).toEqual([[]]);
  });

  it('generates random tensors of the attribute shape and dtype', () => {
    const [y] = inferNode('RandomNormal', [], { attrs: { shape: [2, 5], dtype: DT.DOUBLE } }).outputs;
    expect([y?.shape, y?.dtype, y?.kind]).toEqual([[2, 5], DT.DOUBLE, 'output']);
    expect(inferNode('RandomUniformLike', [{ dtype: DT.FLOAT16, shape: [4] }]).outputs[0]?.dtype).toBe(DT.FLOAT16);
    expect(inferNode('Multinomial', [f32(3, 10)], { attrs: { sample_size: 7 } }).outputs.map((o) => [o.shape, o.dtype])).toEqual([[[3, 7], DT.INT32]]);
  });

  it('sizes EyeLike, Bernoulli and CenterCropPad', () => {
    expect(inferNode('EyeLike', [f32(3, 4)], { attrs: { dtype: DT.INT32 } }).outputs.map((o) => [o.shape, o.dtype])).toEqual([[[3, 4], DT.INT32]]);
    expect(outputShapes('Bernoulli', [f32(6)])).toEqual([[6]]);
    expect(outputShapes('CenterCropPad', [f32(20, 10, 3), i64([10, 7, 3])])).toEqual([[10, 7, 3]]);
    expect(outputShapes('CenterCropPad', [f32(20, 8, 3), i64([10, 9])], { attrs: { axes: [0, -2] } })).toEqual([[10, 9, 3]]);
  });

  it('sizes TfIdfVectorizer by its largest n-gram index, per row', () => {
    const attrs = { mode: 'TF', min_gram_length: 2, max_gram_length: 2, max_skip_count: 0, ngram_counts: [0, 4], ngram_indexes: [0, 1, 2, 3, 4, 5, 6], pool_int64s: [2, 3, 5, 4, 5, 6, 7, 8, 6, 7] };
    expect(outputShapes('TfIdfVectorizer', [{ dtype: DT.INT32, shape: [2, 6] }], { attrs })).toEqual([[2, 7]]);
    expect(outputShapes('TfIdfVectorizer', [{ dtype: DT.INT32, shape: [12] }], { attrs })).toEqual([[7]]);
  });

  it('keeps the cache shape through TensorScatter', () => {
    expect(outputShapes('TensorScatter', [f32(2, 4, 16, 8), f32(2, 4, 1, 8), { dtype: DT.INT64, shape: [2] }], { opset: 24 })).toEqual([[2, 4, 16, 8]]);
  });

  it('updates every tensor of a training optimizer with its own shape', () => {
    const r = inferNode(
      'Adagrad',
      [f32(), i64([0], []), f32(3), f32(2, 2), f32(3), f32(2, 2), f32(3), f32(2, 2)],
      { outputs: 4, domain: 'ai.onnx.preview.training' },
    );
    expect(r.outputs.map((o) => o.shape)).toEqual([[3], [2, 2], [3], [2, 2]]);
  });
});

describe('classical-ML shape rules', () => {
  const ml = { domain: 'ai.onnx.ml' };

  it('keeps shapes and retypes encoders', () => {
    const encoded = inferNode('LabelEncoder', [{ dtype: DT.STRING, shape: [5] }], { ...ml, attrs: { keys_strings: ['a'], values_int64s: [1] } });
    expect(encoded.outputs.map((o) => [o.shape, o.dtype])).toEqual([[[5], DT.INT64]]);
    expect(outputShapes('Scaler', [f32(4, 3)], ml)).toEqual([[4, 3]]);
  });

  it('gives classifiers labels per row and scores per class', () => {
    const r = inferNode('LinearClassifier', [f32(6, 4)], { ...ml, outputs: 2, attrs: { classlabels_ints: [0, 1, 2], coefficients: [0] } });
    expect(r.outputs.map((o) => [o.shape, o.dtype])).toEqual([[[6], DT.INT64], [[6, 3], DT.FLOAT]]);
    expect(outputShapes('TreeEnsembleRegressor', [f32(6, 4)], { ...ml, attrs: { n_targets: 2 } })).toEqual([[6, 2]]);
  });

  it('extracts the indexed features of the last axis', () => {
    expect(outputShapes('ArrayFeatureExtractor', [f32(3, 10), i64([1, 4])], ml)).toEqual([[3, 2]]);
  });
});
