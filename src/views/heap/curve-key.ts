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
  readonly reserve: number; // pixels at the top of the curve box kept for the key, above every curve (0: a corner was free)
}

/**
 * The y of `share` of the curve's largest value (0..1) in a curve box
 * `height` tall whose top `reserve` pixels are kept for the key.
 */
export function curveY(share: number, height: number, reserve = 0): number {
  return height - 2 - share * (height - 6 - reserve);
}

/**
 * Places a key of items whose names measure `textWidths` in a curve box
 * `width` × `height`. `shareIn(x0, x1)` is the largest share (0..1) of the
 * curve's largest value any curve or line reaches between x0 and x1. The key
 * goes in the top corner where the curves reach least high, the left one on a
 * tie, when they stay below it there; when they reach it in both (ultraface
 * and GPT-2 on mcu, whose live bytes sit at their peak for most steps), the
 * top of the box is kept for the key and the curves are drawn below it
 * (`reserve`), so the key covers none.
 */
export function placeCurveKey(textWidths: readonly number[], width: number, height: number, shareIn: (x0: number, x1: number) => number): CurveKeyPlace {
  const items: number[] = [];
  let at = KEY.pad;
  textWidths.forEach((w, i) => {
    items.push(at);
    at += KEY.swatch + KEY.swatchGap + w + (i < textWidths.length - 1 ? KEY.itemGap : KEY.pad);
  });
  const boxWidth = at;
  const left = KEY.inset;
  const right = Math.max(left, width - KEY.inset - boxWidth);
  const [leftShare, rightShare] = [shareIn(left, left + boxWidth), shareIn(right, right + boxWidth)];
  const x = rightShare < leftShare ? right : left;
  const free = curveY(Math.min(leftShare, rightShare), height) >= KEY.inset + KEY.height + 1;
  if (free) return { x, y: KEY.inset, width: boxWidth, height: KEY.height, items: items.map((i) => x + i), reserve: 0 };
  // The strip: the key 1 px from the top, the curves' highest point 2 px under it.
  const y = 1;
  const reserve = y + KEY.height + 2 - curveY(1, height);
  return { x, y, width: boxWidth, height: KEY.height, items: items.map((i) => x + i), reserve };
}
