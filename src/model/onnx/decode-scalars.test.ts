// 64-bit integers as protobufjs hands them out (Long objects in Node, numbers in
// browser bundles) and UTF-8 bytes.

import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { int64ToNumber } from './decode-scalars';
import { utf8 } from '../utf8';

const { onnx } = onnxProto;

/** int64 and uint64 values as protobufjs decodes them from a TensorProto. */
function decodedLongs(int64: object[], uint64: object[]): { int64: unknown[]; uint64: unknown[] } {
  const bytes = onnx.TensorProto.encode({ int64Data: int64 as unknown as number[], uint64Data: uint64 as unknown as number[] }).finish();
  const tensor = onnx.TensorProto.decode(bytes);
  return { int64: tensor.int64Data, uint64: tensor.uint64Data };
}

describe('int64ToNumber', () => {
  it('reads the Long objects protobufjs returns, signed and unsigned, as the numbers they hold', () => {
    const bits = (high: number, low: number): object => ({ high, low });
    const longs = decodedLongs(
      [bits(-1, -5), bits(1, 0), bits(-2, -1), bits(0x7fffffff, -1), bits(-0x80000000, 0)],
      [bits(-1, -1), bits(0, 42)],
    );
    expect(longs.int64.every((v) => typeof v === 'object')).toBe(true);
    expect(longs.int64.map(int64ToNumber)).toEqual([-5, 2 ** 32, -(2 ** 32) - 1, 2 ** 63, -(2 ** 63)]);
    expect(longs.uint64.map(int64ToNumber)).toEqual([2 ** 64, 42]);
  });

  it('passes numbers and bigints through and turns anything else into NaN', () => {
    expect(int64ToNumber(12)).toBe(12);
    expect(int64ToNumber(7n)).toBe(7);
    expect(int64ToNumber('3')).toBeNaN();
    expect(int64ToNumber(undefined)).toBeNaN();
  });
});

describe('utf8', () => {
  it('decodes text and tolerates missing or broken bytes', () => {
    expect(utf8(new TextEncoder().encode('größe ✓'))).toBe('größe ✓');
    expect(utf8(undefined)).toBe('');
    expect(utf8(new Uint8Array([0x61, 0xff]))).toBe('a\ufffd');
  });
});
