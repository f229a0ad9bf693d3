import { describe, expect, it } from 'vitest';
import { ownBoundTitle, wasteBaseWords } from './bound-words';

/** The sample on mcu with the sram aligned to 4096 B: split between sram and ext-ram. */
const split = {
  peak: 3594240,
  lowerBound: 3278848,
  strategyBound: 3491840,
  strategy: 'best',
  regions: [{ lowerBound: 417792 }, { lowerBound: 3074048 }],
  waste: { total: 110592, holes: 0, alignmentPadding: 8192, scratchGrowth: 102400 },
} as unknown as Parameters<typeof wasteBaseWords>[0];

describe('wasteBaseWords', () => {
  it('measures a split plan from the bound of its split, the "own" figure of the header, and says what the split costs over the bound', () => {
    expect(wasteBaseWords(split)).toBe(
      'the bound of this split between the regions, 3.33 MiB, "own" in the header, on data bytes (its 8.00 KiB of alignment padding counted as waste); the split itself keeps the plan 208 KiB above the bound of any split, 3.13 MiB',
    );
  });

  it('measures a plan in one region from the bound the header shows', () => {
    const one = { ...split, lowerBound: 3491840, strategyBound: undefined, regions: [{ lowerBound: 3491840 }], waste: { ...split.waste, alignmentPadding: 0 } } as unknown as typeof split;
    expect(wasteBaseWords(one)).toBe('the bound, 3.33 MiB');
  });
});

describe('ownBoundTitle', () => {
  it('says what "own" bounds and that the bound beside it holds for every plan', () => {
    expect(ownBoundTitle(split)).toBe(
      "best's own bound, 3.33 MiB: no plan that makes best's choices (its split between the regions, the tensors it lets share bytes) can be smaller. The bound, 3.13 MiB, holds for every plan.",
    );
    expect(ownBoundTitle({ ...split, strategyBound: undefined } as typeof split)).toBeUndefined();
  });
});
