// Where the key of the live-bytes curve goes: a row of swatch-and-name items
// on a background box, in the top corner (left or right) where the curves
// reach least high, so its names neither run into each other nor sit on a
// line. Pure, so the placement is tested to the pixel.

/** Sizes of the key's parts, in CSS pixels. */
export const KEY = { swatch: 10, swatchGap: 4, itemGap: 10, pad: 4, height: 15, inset: 3 } as const;

/** The key's box and where each item starts, in the curve's coordinates. */
export interface CurveKeyPlace {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly items: readonly number[]; // x of each item's swatch
}

/**
 * Places a key of items whose names measure `textWidths` in a curve box
 * `width` wide. `topIn(x0, x1)` is the least y (highest point) any curve
 * reaches between x0 and x1; the corner where that is lower wins, the left
 * one on a tie.
 */
export function placeCurveKey(textWidths: readonly number[], width: number, topIn: (x0: number, x1: number) => number): CurveKeyPlace {
  const items: number[] = [];
  let at = KEY.pad;
  textWidths.forEach((w, i) => {
    items.push(at);
    at += KEY.swatch + KEY.swatchGap + w + (i < textWidths.length - 1 ? KEY.itemGap : KEY.pad);
  });
  const boxWidth = at;
  const left = KEY.inset;
  const right = Math.max(left, width - KEY.inset - boxWidth);
  const x = topIn(right, right + boxWidth) > topIn(left, left + boxWidth) ? right : left;
  return { x, y: KEY.inset, width: boxWidth, height: KEY.height, items: items.map((i) => x + i) };
}
