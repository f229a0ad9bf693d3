import { describe, expect, it } from 'vitest';
import { changedDims, dimScalings, growthDims } from './dim-growth';

describe('growthDims', () => {
  const changes = changedDims({ batch: 1, seq: 128, heads: 4, kept: 3 }, { batch: 2, seq: 256, heads: 4, kept: 3, extra: 9 });

  it('lists only the dims planned with different values', () => {
    expect(changes).toEqual([
      { name: 'batch', a: 1, b: 2 },
      { name: 'extra', a: undefined, b: 9 },
      { name: 'seq', a: 128, b: 256 },
    ]);
  });

  it('names one dim, a product, a square, and every dim when two fit alike', () => {
    const scalings = dimScalings(changes);
    expect(growthDims(1000, 2000, scalings)).toBe('batch or seq');
    expect(growthDims(1000, 4000, scalings)).toBe('batch×seq or batch² or seq²');
    expect(growthDims(1000, 3000, scalings)).toBeUndefined();
    expect(growthDims(1000, 1000, scalings)).toBeUndefined();
    const batchOnly = dimScalings(changedDims({ batch: 1, seq: 64 }, { batch: 3, seq: 128 }));
    expect(growthDims(4096, 3 * 4096, batchOnly)).toBe('batch');
    expect(growthDims(4096, 6 * 4096, batchOnly)).toBe('batch×seq');
    expect(growthDims(4096, 4 * 4096, batchOnly)).toBe('seq²');
    expect(growthDims(4096, 2048, batchOnly)).toBeUndefined();
    // int4 tensors round up to whole bytes: 7 values are 4 bytes, 21 values 11 bytes.
    expect(growthDims(4, 11, batchOnly)).toBe('batch');
  });

  it('ignores a dim planned as 0 on either side', () => {
    expect(dimScalings(changedDims({ past: 0 }, { past: 16 }))).toEqual([]);
  });
});
