import { describe, expect, it } from 'vitest';
import { estimateNote, namePieces, pointSentence } from './growth-tooltip';

describe("a growth point's figures in words", () => {
  it("gives each region's peak as a lower estimate too when some size is unknown at the point", () => {
    const regions = [
      { name: 'sram', peak: 160, lowerBound: 160 },
      { name: 'ext-ram', peak: 4096, lowerBound: 4096 },
    ];
    const point = { value: 8, peak: 4256, lowerBound: 4256, regions, complete: false, fits: true };
    expect(pointSentence(point, 'n')).toBe("n = 8: peak ≥ 4.16 KiB (lower estimate; the sum of each memory's own peak, sram ≥ 160 B + ext-ram ≥ 4.00 KiB), lower bound 4.16 KiB.");
    expect(pointSentence({ ...point, complete: true }, 'n')).toBe("n = 8: peak 4.16 KiB (the sum of each memory's own peak, sram 160 B + ext-ram 4.00 KiB), lower bound 4.16 KiB.");
  });

  it('names a peak of one memory holding bytes bare, the empty memory listed', () => {
    const regions = [
      { name: 'sram', peak: 0, lowerBound: 0 },
      { name: 'ext-ram', peak: 4096, lowerBound: 4096 },
    ];
    const point = { value: 8, peak: 4096, lowerBound: 4096, regions, complete: true, fits: true };
    expect(pointSentence(point, 'n')).toBe('n = 8: peak 4.00 KiB, lower bound 4.00 KiB; sram 0 B, ext-ram 4.00 KiB.');
  });
});

describe("where a name in the card may break", () => {
  it('breaks after underscores, slashes and dots only', () => {
    expect(namePieces('past_sequence_length')).toEqual(['past_', 'sequence_', 'length']);
    expect(namePieces('/model/layers.0/attn')).toEqual(['/', 'model/', 'layers.', '0/', 'attn']);
    expect(namePieces('logits')).toEqual(['logits']);
    expect(namePieces('a__b')).toEqual(['a__', 'b']);
    expect(namePieces('')).toEqual([]);
  });
});

describe("why a growth point's peak is a lower estimate", () => {
  const regions = [
    { name: 'ram', peak: 400, lowerBound: 400 },
    { name: 'sram', peak: 0, lowerBound: 0 },
  ];
  // sweepPoint gives a tensor past 2^53 − 1 bytes as its first unknown too: the card names it too large, never an unknown size
  const past = { regions, pastLimit: 'scores_out', unknown: "'scores_out': it needs more than 2^53 − 1 bytes (9007199254740991)" };

  it('names a tensor past 2^53 − 1 bytes in no region with a size limit too large, planned as 0 bytes', () => {
    expect(estimateNote(past)).toBe("too large: 'scores_out' needs more than 2^53 − 1 bytes, planned as 0 bytes in no region with a size limit");
  });

  it('names the region with a limit that holds it', () => {
    const held = { ...past, regions: [regions[0]!, { ...regions[1]!, pastLimit: ['scores_out'] }] };
    expect(estimateNote(held)).toBe("too large: 'scores_out' needs more than 2^53 − 1 bytes, over the size limit of sram, which holds it");
  });

  it('names a size unknown as unknown, and says nothing of a point with every size known', () => {
    expect(estimateNote({ regions, unknown: "'y': shape unknown" })).toBe("unknown size: 'y': shape unknown");
    expect(estimateNote({ regions })).toBeUndefined();
  });
});
