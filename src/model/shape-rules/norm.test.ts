import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { f32, i64, inferNode, outputShapes } from '../testing/infer-node';

describe('normalization and loss shape rules', () => {
  it('gives BatchNormalization per-channel training statistics', () => {
    const x = f32(2, 3, 4, 5);
    const r = inferNode('BatchNormalization', [x, f32(3), f32(3), f32(3), f32(3)], { outputs: 3, opset: 15, attrs: { training_mode: 1 } });
    expect(r.outputs.map((o) => o.shape)).toEqual([[2, 3, 4, 5], [3], [3]]);
  });

  it('sizes LayerNormalization statistics by axis, in the stash type', () => {
    const r = inferNode('LayerNormalization', [{ dtype: DT.FLOAT16, shape: [2, 3, 8] }, f32(8), f32(8)], { outputs: 3, attrs: { axis: 1 } });
    expect(r.outputs.map((o) => [o.shape, o.dtype])).toEqual([
      [[2, 3, 8], DT.FLOAT16],
      [[2, 1, 1], DT.FLOAT],
      [[2, 1, 1], DT.FLOAT],
    ]);
  });

  it('keeps shapes through instance, group, RMS and local response normalization', () => {
    for (const op of ['InstanceNormalization', 'GroupNormalization', 'RMSNormalization', 'LRN', 'MeanVarianceNormalization', 'LpNormalization']) {
      expect(outputShapes(op, [f32(2, 6, 5, 5), f32(6), f32(6)]), op).toEqual([[2, 6, 5, 5]]);
    }
  });

  it('reduces the losses unless reduction is none', () => {
    const labels = { dtype: DT.INT64, shape: [3, 4] };
    expect(outputShapes('NegativeLogLikelihoodLoss', [f32(3, 5, 4), labels])).toEqual([[]]);
    expect(outputShapes('NegativeLogLikelihoodLoss', [f32(3, 5, 4), labels], { attrs: { reduction: 'none' } })).toEqual([[3, 4]]);
    const sce = inferNode('SoftmaxCrossEntropyLoss', [f32(3, 5, 4), labels], { outputs: 2, attrs: { reduction: 'none' } });
    expect(sce.outputs.map((o) => o.shape)).toEqual([[3, 4], [3, 5, 4]]);
  });

  it('infers the scalar loss of a mean-reduced SoftmaxCrossEntropyLoss with weights', () => {
    expect(outputShapes('SoftmaxCrossEntropyLoss', [f32(3, 5), i64([0, 1, 2], [3]), f32(5)])).toEqual([[]]);
  });
});
