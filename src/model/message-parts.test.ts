import { describe, expect, it } from 'vitest';
import { shownDims } from './message-parts';

describe('shownDims', () => {
  it('joins a few dims and bounds a long list', () => {
    expect(shownDims([1, 3, 224, 224])).toBe('1×3×224×224');
    expect(shownDims([])).toBe('');
    expect(shownDims(Array.from({ length: 1_000_000 }, (_, i) => i))).toBe('0×1×2×3×4×5×6×…×999999 (1000000 dims)');
  });
});
