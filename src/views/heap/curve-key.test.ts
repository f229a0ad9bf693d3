import { describe, expect, it } from 'vitest';
import { KEY, placeCurveKey } from './curve-key';

describe('the live-bytes curve key', () => {
  it('puts each name after the one before with a gap, so names never run together', () => {
    const place = placeCurveKey([24, 40], 400, () => 50);
    const first = place.items[0]!;
    const second = place.items[1]!;
    expect(first).toBe(KEY.inset + KEY.pad);
    // The first item's swatch and name end a full gap before the second item's swatch.
    expect(second - (first + KEY.swatch + KEY.swatchGap + 24)).toBe(KEY.itemGap);
    expect(place.width).toBe(KEY.pad + (KEY.swatch + KEY.swatchGap + 24) + KEY.itemGap + (KEY.swatch + KEY.swatchGap + 40) + KEY.pad);
    expect(place.x).toBe(KEY.inset);
  });

  it('goes to the right corner when the curves reach higher on the left', () => {
    const place = placeCurveKey([30], 300, (x0) => (x0 < 150 ? 5 : 40));
    expect(place.x + place.width).toBe(300 - KEY.inset);
    expect(place.items[0]).toBe(place.x + KEY.pad);
  });

  it('stays on the left when the curves reach higher on the right, as on a plan that peaks at its end', () => {
    expect(placeCurveKey([30], 300, (x0) => (x0 < 150 ? 40 : 5)).x).toBe(KEY.inset);
  });
});
