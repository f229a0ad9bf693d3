import { describe, expect, it } from 'vitest';
import type { InferredValue } from '../../model/inferred';
import { attributeRows, attributeText, tensorType } from './node-signature-words';

const value = (shape: readonly number[] | undefined, extra: Partial<InferredValue> = {}): InferredValue => ({
  name: 'x',
  kind: 'activation',
  dtype: 1,
  dtypeName: 'float32',
  shape,
  bytes: undefined,
  producer: undefined,
  consumers: [],
  ...extra,
});

describe('node signature words', () => {
  it('writes numbers, lists and strings as Netron does', () => {
    expect(attributeText(3)).toBe('3');
    expect(attributeText(0.1 + 0.2)).toBe('0.3');
    expect(attributeText(1e-5)).toBe('0.00001');
    expect(attributeText([1, 1, 0, 0])).toBe('[1, 1, 0, 0]');
    expect(attributeText([])).toBe('[]');
    expect(attributeText(Array.from({ length: 20 }, (_, i) => i))).toBe('[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, … 4 more]');
    expect(attributeText('SAME_UPPER')).toBe('SAME_UPPER');
    expect(attributeText('x'.repeat(100))).toBe(`${'x'.repeat(80)}…`);
  });

  it('lists attributes by name', () => {
    expect(attributeRows({ strides: [2, 2], group: 32, kernel_shape: [3, 3] })).toEqual([
      { name: 'group', text: '32' },
      { name: 'kernel_shape', text: '[3, 3]' },
      { name: 'strides', text: '[2, 2]' },
    ]);
    expect(attributeRows(undefined)).toEqual([]);
  });

  it('types a tensor with its dtype and shape', () => {
    expect(tensorType(value([1, 3, 224, 224]))).toBe('float32[1×3×224×224]');
    expect(tensorType(value([]))).toBe('float32 scalar');
    expect(tensorType(value(undefined, { dtypeName: '?' }))).toBe('?[?]');
    expect(tensorType(value([100], { upperBound: true }))).toBe('float32[100] (at most)');
    expect(tensorType(undefined)).toBe('?');
  });
});
