import { describe, expect, it } from 'vitest';
import type { TensorRow } from '../../store/selectors';
import { tensorRowWords } from './tensor-row-words';

const row = (over: Partial<TensorRow>): TensorRow => ({
  order: 0, name: 'logits', op: 'MatMul', kind: 'activation', dtype: 'float32', shape: '1×8', elements: 8, bytes: 32, note: undefined, state: false, kv: false, haystack: 'logits', ...over,
});

describe('tensorRowWords', () => {
  it('reads the tensor, its kind, type, shape and size, and the row\'s place in the list', () => {
    expect(tensorRowWords(row({}), 11, 40)).toBe('logits, activation, float32 1×8, 32 B, row 12 of 40');
  });
  it('says a size is unknown rather than reading it as nothing', () => {
    expect(tensorRowWords(row({ bytes: undefined, shape: '?' }), 0, 1)).toBe('logits, activation, float32 ?, size unknown, row 1 of 1');
  });
});
