// tensorValues on tensors built by hand (exact bytes) and on tensors that went through
// the writer and the decoder (typed fields and raw data alike).

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './onnx/decode-onnx';
import { DT } from './dtype';
import type { IrTensor } from './ir';
import { bfloat16ToNumber, halfToNumber, tensorValues } from './tensor-values';
import { GraphBuilder, type DTypeSpec, type TensorData } from './testing/onnx-writer';

const rawTensor = (dtype: number, dims: number[], bytes: number[]): IrTensor => ({
  name: 't', dtype, dims, raw: new Uint8Array(bytes), values: undefined, strings: undefined, external: undefined,
});

/** Writes one initializer, decodes the model and returns the tensor. */
function roundTrip(dtype: DTypeSpec, dims: number[], data: TensorData, storage: 'raw' | 'fields'): IrTensor {
  const g = new GraphBuilder();
  g.output(g.node('Identity', [g.initializer('t', dtype, dims, data, { storage })]));
  const tensor = decodeOnnx(g.toBytes()).graph.initializers[0];
  if (tensor === undefined) throw new Error('no initializer');
  return tensor;
}

describe('tensorValues', () => {
  it('reads little-endian raw bytes of every integer width', () => {
    expect(tensorValues(rawTensor(DT.INT8, [3], [0x01, 0xff, 0x80]))).toEqual([1, -1, -128]);
    expect(tensorValues(rawTensor(DT.UINT16, [2], [0x01, 0x02, 0xff, 0xff]))).toEqual([0x0201, 0xffff]);
    expect(tensorValues(rawTensor(DT.INT32, [1], [0xfe, 0xff, 0xff, 0xff]))).toEqual([-2]);
    expect(tensorValues(rawTensor(DT.INT64, [2], [5, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]))).toEqual([
      5,
      2 ** 63,
    ]);
    expect(tensorValues(rawTensor(DT.BOOL, [3], [0, 1, 7]))).toEqual([0, 1, 1]);
  });

  it('decodes float16 and bfloat16 bits', () => {
    expect([0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00, 0x8000].map(halfToNumber)).toEqual([1, -2, 65504, 2 ** -24, Infinity, -0]);
    expect(Number.isNaN(halfToNumber(0x7e00))).toBe(true);
    expect([0x3f80, 0xc000, 0x4049].map(bfloat16ToNumber)).toEqual([1, -2, 3.140625]);
    expect(tensorValues(rawTensor(DT.FLOAT16, [2], [0x00, 0x3c, 0x00, 0xb8]))).toEqual([1, -0.5]);
  });

  it('unpacks int4 and uint4, low nibble first', () => {
    expect(tensorValues(rawTensor(22, [3], [0xf1, 0x07]))).toEqual([1, -1, 7]);
    expect(tensorValues(rawTensor(21, [3], [0xf1, 0x07]))).toEqual([1, 15, 7]);
  });

  it.each([
    ['float32', [2, 2], [1.5, -2, 0, 1e10]],
    ['float64', [3], [0.1, -1e300, 5]],
    ['int64', [3], [-1, 0, 2 ** 40]],
    ['int32', [2], [-7, 123456]],
    ['int8', [2], [-128, 127]],
    ['uint8', [2], [0, 255]],
    ['uint64', [2], [0, 2 ** 40]],
    ['float16', [3], [1, -0.25, 2048]],
    ['bfloat16', [2], [1, -3]],
    ['bool', [2], [1, 0]],
    ['int4', [3], [-8, 7, 3]],
    ['uint4', [3], [15, 0, 9]],
  ] as const)('reads %s values written as raw data and as typed fields alike', (dtype, dims, values) => {
    for (const storage of ['raw', 'fields'] as const) {
      const read = tensorValues(roundTrip(dtype, [...dims], values, storage));
      expect(read, storage).toEqual(dtype === 'float32' ? values.map(Math.fround) : values);
    }
  });

  it('reads scalars and empty tensors', () => {
    expect(tensorValues(roundTrip('int64', [], [42], 'raw'))).toEqual([42]);
    expect(tensorValues(roundTrip('float32', [0, 3], [], 'raw'))).toEqual([]);
  });

  it('gives undefined when the values cannot or should not be read', () => {
    const base = rawTensor(DT.FLOAT, [2], [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
    expect(tensorValues(base)).toEqual([1, 2]);
    expect(tensorValues(base, 1)).toBeUndefined();
    expect(tensorValues({ ...base, dims: [3] })).toBeUndefined();
    expect(tensorValues({ ...base, raw: undefined, external: { location: 'w.bin', offset: 0, length: 8 } })).toBeUndefined();
    expect(tensorValues({ ...base, dtype: DT.STRING, raw: undefined, strings: ['a', 'b'] })).toBeUndefined();
    expect(tensorValues(rawTensor(17, [2], [0x38, 0x40]))).toBeUndefined();
    expect(tensorValues({ ...base, raw: undefined, values: [1] })).toBeUndefined();
    expect(tensorValues({ ...base, raw: undefined })).toBeUndefined();
  });
});
