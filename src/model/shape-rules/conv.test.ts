import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { f32, i64, inferNode, outputShapes } from '../testing/infer-node';

describe('convolution and pooling shape rules', () => {
  it('applies pads, strides and dilations to Conv', () => {
    // 7x5 input, 3x3 kernel, stride 2, pads 1: ONNX test_conv_with_strides_padding gives 4x3.
    expect(outputShapes('Conv', [f32(1, 1, 7, 5), f32(1, 1, 3, 3)], { attrs: { strides: [2, 2], pads: [1, 1, 1, 1] } })).toEqual([[1, 1, 4, 3]]);
    expect(outputShapes('Conv', [f32(1, 3, 32, 32), f32(16, 3, 3, 3)], { attrs: { dilations: [2, 2] } })).toEqual([[1, 16, 28, 28]]);
  });

  it('pads to ceil(in / stride) with SAME auto_pad and not at all with VALID', () => {
    const attrs = (autoPad: string) => ({ auto_pad: autoPad, strides: [2, 2], kernel_shape: [3, 3] });
    expect(outputShapes('Conv', [f32(1, 1, 7, 5), f32(2, 1, 3, 3)], { attrs: attrs('SAME_LOWER') })).toEqual([[1, 2, 4, 3]]);
    expect(outputShapes('Conv', [f32(1, 1, 7, 5), f32(2, 1, 3, 3)], { attrs: attrs('VALID') })).toEqual([[1, 2, 3, 2]]);
  });

  it('handles 1-D and 3-D convolutions and grouped weights', () => {
    expect(outputShapes('Conv', [f32(2, 4, 10), f32(8, 2, 3)], { attrs: { group: 2 } })).toEqual([[2, 8, 8]]);
    expect(outputShapes('Conv', [f32(1, 1, 4, 4, 4), f32(1, 1, 2, 2, 2)])).toEqual([[1, 1, 3, 3, 3]]);
  });

  it('says why an input without batch and channel axes has no output, instead of sizing an array by -1', () => {
    const { model } = inferNode('Conv', [f32(7), f32(1, 1, 3)]);
    expect(model.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-shape', message: "Conv 'Conv_0': the input has rank 1, without the batch and channel axes" }));
  });

  it('keeps the batch dim symbolic-bound', () => {
    const r = inferNode('Conv', [f32('N', 3, 8, 8), f32(4, 3, 1, 1)], { dims: { N: 5 } });
    expect(r.outputs[0]?.shape).toEqual([5, 4, 8, 8]);
  });

  it('types ConvInteger as int32 and QLinearConv as its output zero point', () => {
    const u8 = (...shape: number[]) => ({ dtype: DT.UINT8, shape });
    expect(inferNode('ConvInteger', [u8(1, 1, 3, 3), u8(1, 1, 2, 2)]).outputs[0]?.dtype).toBe(DT.INT32);
    const q = inferNode('QLinearConv', [u8(1, 1, 5, 5), f32(), u8(), { dtype: DT.INT8, shape: [2, 1, 3, 3] }, f32(), u8(), f32(), { dtype: DT.INT8, shape: [] }]);
    expect([q.outputs[0]?.shape, q.outputs[0]?.dtype]).toEqual([[1, 2, 3, 3], DT.INT8]);
  });

  it('sizes DeformConv like Conv', () => {
    const offsets = f32(1, 18, 3, 3);
    expect(outputShapes('DeformConv', [f32(1, 4, 5, 5), f32(6, 4, 3, 3), offsets], { opset: 19 })).toEqual([[1, 6, 3, 3]]);
  });

  it('grows ConvTranspose by stride with output_padding, or takes output_shape', () => {
    // ONNX test_convtranspose: 3x3 input, 3x3 kernel, 2 output channels -> 5x5.
    expect(outputShapes('ConvTranspose', [f32(1, 1, 3, 3), f32(1, 2, 3, 3)])).toEqual([[1, 2, 5, 5]]);
    const attrs = { strides: [3, 2], output_padding: [1, 1] };
    expect(outputShapes('ConvTranspose', [f32(1, 1, 3, 3), f32(1, 2, 3, 3)], { attrs })).toEqual([[1, 2, 10, 8]]);
    expect(outputShapes('ConvTranspose', [f32(1, 1, 3, 3), f32(1, 2, 3, 3)], { attrs: { strides: [3, 2], output_shape: [10, 8] } })).toEqual([[1, 2, 10, 8]]);
    expect(outputShapes('ConvTranspose', [f32(1, 1, 3, 3), f32(1, 2, 3, 3)], { attrs: { strides: [2, 2], auto_pad: 'SAME_UPPER' } })).toEqual([[1, 2, 6, 6]]);
    expect(outputShapes('ConvTranspose', [f32(1, 4, 3, 3), f32(4, 2, 3, 3)], { attrs: { group: 2 } })).toEqual([[1, 4, 5, 5]]);
  });

  it('gives MaxPool int64 indices and honours ceil_mode', () => {
    const pool = inferNode('MaxPool', [f32(1, 1, 4, 4)], { outputs: 2, attrs: { kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1 } });
    expect(pool.outputs.map((o) => [o.shape, o.dtype])).toEqual([[[1, 1, 2, 2], DT.FLOAT], [[1, 1, 2, 2], DT.INT64]]);
    expect(outputShapes('MaxPool', [f32(1, 1, 4, 4)], { attrs: { kernel_shape: [3, 3], strides: [2, 2] } })).toEqual([[1, 1, 1, 1]]);
    expect(outputShapes('AveragePool', [f32(1, 3, 32, 32)], { attrs: { kernel_shape: [2, 2], auto_pad: 'SAME_UPPER' } })).toEqual([[1, 3, 32, 32]]);
  });

  it('reduces every spatial dim to 1 in global pools', () => {
    expect(outputShapes('GlobalAveragePool', [f32(2, 7, 5, 5)])).toEqual([[2, 7, 1, 1]]);
    expect(outputShapes('GlobalMaxPool', [f32(1, 3, 4, 5, 6)])).toEqual([[1, 3, 1, 1, 1]]);
  });

  it('sizes MaxUnpool from its output_shape input or from the kernel', () => {
    const idx = { dtype: DT.INT64, shape: [1, 1, 2, 2] };
    expect(outputShapes('MaxUnpool', [f32(1, 1, 2, 2), idx], { attrs: { kernel_shape: [2, 2], strides: [2, 2] } })).toEqual([[1, 1, 4, 4]]);
    expect(outputShapes('MaxUnpool', [f32(1, 1, 2, 2), idx, i64([1, 1, 5, 5])], { attrs: { kernel_shape: [2, 2], strides: [2, 2] } })).toEqual([[1, 1, 5, 5]]);
  });

  it('pools one map per region of interest', () => {
    expect(outputShapes('RoiAlign', [f32(1, 16, 10, 10), f32(3, 4), { dtype: DT.INT64, shape: [3] }], { attrs: { output_height: 5, output_width: 4 } })).toEqual([[3, 16, 5, 4]]);
    expect(outputShapes('MaxRoiPool', [f32(1, 8, 10, 10), f32(6, 5)], { attrs: { pooled_shape: [2, 3] } })).toEqual([[6, 8, 2, 3]]);
  });

  it('reports a pool without kernel_shape as unknown, naming the node', () => {
    const r = inferNode('MaxPool', [f32(1, 1, 4, 4)]);
    expect(r.outputs[0]?.shape).toBeUndefined();
    expect(r.model.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-shape', node: 'MaxPool_0' }));
  });
});
