import { describe, expect, it } from 'vitest';
import { curveY, KEY, placeCurveKey, type CurveKeyPlace } from './curve-key';

const HEIGHT = 64;

/** Whether the key's box meets a curve point: the line at `curveY` of the share the curve has at x, 1.5 px wide. */
function coversCurve(place: CurveKeyPlace, shareAt: (x: number) => number, width: number): boolean {
  for (let x = 0; x <= width; x += 1) {
    const y = curveY(shareAt(x), HEIGHT, place.reserve);
    const inX = x >= place.x && x <= place.x + place.width;
    if (inX && y + 0.75 >= place.y && y - 0.75 <= place.y + place.height) return true;
  }
  return false;
}

/** shareIn for a curve whose share at x is shareAt(x): its most between x0 and x1. */
const most = (shareAt: (x: number) => number) => (x0: number, x1: number): number => {
  let m = 0;
  for (let x = Math.floor(x0); x <= Math.ceil(x1); x += 1) m = Math.max(m, shareAt(x));
  return m;
};

describe('the live-bytes curve key', () => {
  it('puts each name after the one before with a gap, so names never run together', () => {
    const place = placeCurveKey([24, 40], 400, HEIGHT, () => 0.2);
    const first = place.items[0]!;
    const second = place.items[1]!;
    expect(first).toBe(KEY.inset + KEY.pad);
    // The first item's swatch and name end a full gap before the second item's swatch.
    expect(second - (first + KEY.swatch + KEY.swatchGap + 24)).toBe(KEY.itemGap);
    expect(place.width).toBe(KEY.pad + (KEY.swatch + KEY.swatchGap + 24) + KEY.itemGap + (KEY.swatch + KEY.swatchGap + 40) + KEY.pad);
    expect(place.x).toBe(KEY.inset);
  });

  it('goes to the right corner when the curves reach higher on the left', () => {
    const place = placeCurveKey([30], 300, HEIGHT, (x0) => (x0 < 150 ? 0.95 : 0.4));
    expect(place.x + place.width).toBe(300 - KEY.inset);
    expect(place.items[0]).toBe(place.x + KEY.pad);
    expect(place.reserve).toBe(0);
  });

  it('stays on the left when the curves reach higher on the right, as on a plan that peaks at its end', () => {
    expect(placeCurveKey([30], 300, HEIGHT, (x0) => (x0 < 150 ? 0.4 : 0.95)).x).toBe(KEY.inset);
  });

  it('keeps a free corner in the curve box: the curves keep their whole height', () => {
    const shareAt = (x: number): number => (x < 150 ? 0.5 : 1);
    const place = placeCurveKey([28, 44], 300, HEIGHT, most(shareAt));
    expect(place.reserve).toBe(0);
    expect(coversCurve(place, shareAt, 300)).toBe(false);
  });

  it('covers no curve when the curves fill both top corners (ultraface and GPT-2 on mcu): the curves go under a strip kept for it', () => {
    for (const shareAt of [() => 1, (x: number) => (x % 7 < 3 ? 1 : 0.9), (x: number) => 0.85 + 0.15 * Math.sin(x / 5)]) {
      const place = placeCurveKey([28, 44], 300, HEIGHT, most(shareAt));
      expect(coversCurve(place, shareAt, 300)).toBe(false);
      expect(place.reserve).toBeGreaterThan(0);
      // Compact: no more than the key's own height and its margins.
      expect(place.reserve).toBeLessThanOrEqual(KEY.height + KEY.inset);
      expect(place.y).toBeGreaterThanOrEqual(0);
    }
  });

  it('draws the curves over the whole height without a key, as before', () => {
    expect(curveY(1, HEIGHT)).toBe(4);
    expect(curveY(0, HEIGHT)).toBe(HEIGHT - 2);
    expect(curveY(0, HEIGHT, 14)).toBe(HEIGHT - 2);
  });
});
