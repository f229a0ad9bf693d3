import { describe, expect, it } from 'vitest';
import { changedDims, dimScalings, emptyGrowthDims, growthDims } from './dim-growth';

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

  it('puts a buffer empty on one side only down to the dims planned as 0 there, which no ratio can name', () => {
    const changes = changedDims({ past: 0, seq: 1, total: 1 }, { past: 256, seq: 1, total: 257 });
    expect(emptyGrowthDims(0, 65536, changes)).toBe('past');
    expect(emptyGrowthDims(65536, 0, changes)).toBeUndefined(); // past is not 0 in b
    expect(emptyGrowthDims(65536, 0, changedDims({ past: 16, beams: 2 }, { past: 0, beams: 0 }))).toBe('beams or past');
    expect(emptyGrowthDims(0, 0, changes)).toBeUndefined();
    expect(emptyGrowthDims(1024, 2048, changes)).toBeUndefined();
    expect(emptyGrowthDims(0, 1024, changedDims({ seq: 1 }, { seq: 2 }))).toBeUndefined(); // empty for another reason
  });
});
