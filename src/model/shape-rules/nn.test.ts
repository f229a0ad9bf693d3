import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { f32, i64, inferNode, outputShapes } from '../testing/infer-node';

describe('dense nn shape rules', () => {
  it('multiplies Gemm operands with and without transposes', () => {
    expect(outputShapes('Gemm', [f32(3, 5), f32(5, 4), f32(4)])).toEqual([[3, 4]]);
    expect(outputShapes('Gemm', [f32(5, 3), f32(4, 5)], { attrs: { transA: 1, transB: 1 } })).toEqual([[3, 4]]);
  });

  it('follows numpy.matmul for 1-D and batched operands', () => {
    expect(outputShapes('MatMul', [f32(2, 3, 4), f32(4, 5)])).toEqual([[2, 3, 5]]);
    expect(outputShapes('MatMul', [f32(4), f32(4, 5)])).toEqual([[5]]);
    expect(outputShapes('MatMul', [f32(2, 3, 4), f32(4)])).toEqual([[2, 3]]);
    expect(outputShapes('MatMul', [f32(4), f32(4)])).toEqual([[]]);
    expect(outputShapes('MatMul', [f32(7, 1, 3, 4), f32(5, 4, 2)])).toEqual([[7, 5, 3, 2]]);
  });

  it('types the integer matmuls', () => {
    const u8 = (...shape: number[]) => ({ dtype: DT.UINT8, shape });
    expect(inferNode('MatMulInteger', [u8(2, 3), u8(3, 4)]).outputs[0]?.dtype).toBe(DT.INT32);
    const q = inferNode('QLinearMatMul', [u8(2, 3), f32(), u8(), u8(3, 4), f32(), u8(), f32(), { dtype: DT.INT8, shape: [] }]);
    expect([q.outputs[0]?.shape, q.outputs[0]?.dtype]).toEqual([[2, 4], DT.INT8]);
  });

  it('keeps shapes through Softmax, LogSoftmax and Hardmax', () => {
    for (const op of ['Softmax', 'LogSoftmax', 'Hardmax']) expect(outputShapes(op, [f32(3, 4, 5)]), op).toEqual([[3, 4, 5]]);
  });

  it('reads Einsum equations, explicit, implicit and with ellipsis', () => {
    expect(outputShapes('Einsum', [f32(2, 3), f32(3, 4)], { attrs: { equation: 'ij,jk->ik' } })).toEqual([[2, 4]]);
    // Implicit mode keeps the letters used once, in alphabetical order: the repeated b is summed.
    expect(outputShapes('Einsum', [f32(5, 2, 3), f32(5, 3, 4)], { attrs: { equation: 'bij, bjk' } })).toEqual([[2, 4]]);
    expect(outputShapes('Einsum', [f32(5, 2, 3), f32(5, 3, 4)], { attrs: { equation: 'bij,bjk->bik' } })).toEqual([[5, 2, 4]]);
    expect(outputShapes('Einsum', [f32(3, 3)], { attrs: { equation: 'ii->i' } })).toEqual([[3]]);
    expect(outputShapes('Einsum', [f32(3, 3)], { attrs: { equation: 'ii' } })).toEqual([[]]);
    expect(outputShapes('Einsum', [f32(2, 7, 3, 4), f32(7, 4, 5)], { attrs: { equation: '...ij,...jk->...ik' } })).toEqual([[2, 7, 3, 5]]);
    expect(outputShapes('Einsum', [f32(3, 4)], { attrs: { equation: 'ij->ji' } })).toEqual([[4, 3]]);
  });

  it('sizes Col2Im, GridSample, AffineGrid and SpaceToDepth', () => {
    expect(outputShapes('Col2Im', [f32(1, 5, 5), i64([5, 5]), i64([1, 5])])).toEqual([[1, 1, 5, 5]]);
    expect(outputShapes('GridSample', [f32(1, 3, 10, 10), f32(1, 6, 7, 2)])).toEqual([[1, 3, 6, 7]]);
    expect(outputShapes('AffineGrid', [f32(2, 2, 3), i64([2, 3, 5, 6])])).toEqual([[2, 5, 6, 2]]);
    expect(outputShapes('AffineGrid', [f32(2, 3, 4), i64([2, 3, 4, 5, 6])])).toEqual([[2, 4, 5, 6, 3]]);
    expect(outputShapes('SpaceToDepth', [f32(1, 3, 4, 6)], { attrs: { blocksize: 2 } })).toEqual([[1, 12, 2, 3]]);
  });

  it('sizes opset-23 Attention in 4-D and 3-D layouts with a key/value cache', () => {
    const four = outputShapes('Attention', [f32(2, 8, 16, 64), f32(2, 2, 16, 64), f32(2, 2, 16, 32), undefined, f32(2, 2, 10, 64), f32(2, 2, 10, 32)], { outputs: 4, opset: 23 });
    expect(four).toEqual([[2, 8, 16, 32], [2, 2, 26, 64], [2, 2, 26, 32], [2, 8, 16, 26]]);
    const three = outputShapes('Attention', [f32(2, 16, 512), f32(2, 16, 128), f32(2, 16, 128)], { opset: 23, attrs: { q_num_heads: 8, kv_num_heads: 2 } });
    expect(three).toEqual([[2, 16, 512]]);
  });
});
