import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RectIndex } from './rect-index';

type Box = readonly [number, number, number, number];

function indexOf(boxes: readonly Box[]): RectIndex {
  return RectIndex.build(boxes.length, (k, out) => out.set(boxes[k]!), (k) => k * 10);
}

function collect(run: (visit: (id: number) => void) => void): number[] {
  const ids: number[] = [];
  run((id) => ids.push(id));
  return ids.sort((a, b) => a - b);
}

const box = fc
  .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 900 }))
  .map(([x, y, w, h]): Box => [x, y, x + w, y + h]);

describe('RectIndex', () => {
  it('finds the rectangles under a point, min edges inclusive and max edges exclusive', () => {
    const index = indexOf([
      [0, 0, 2, 100],
      [1, 50, 3, 60],
      [2, 0, 4, 100],
    ]);
    expect(collect((v) => index.queryPoint(1.5, 55, v))).toEqual([0, 10]);
    expect(collect((v) => index.queryPoint(2, 55, v))).toEqual([10, 20]);
    expect(collect((v) => index.queryPoint(4, 10, v))).toEqual([]);
    expect(index.size).toBe(3);
  });

  it('answers an empty index with nothing', () => {
    const index = indexOf([]);
    expect(collect((v) => index.queryPoint(0, 0, v))).toEqual([]);
  });

  it('agrees with a linear scan on random rectangles, for points and ranges (several tree levels)', () => {
    fc.assert(
      fc.property(fc.array(box, { minLength: 0, maxLength: 700 }), fc.tuple(box, fc.integer({ min: 0, max: 240 }), fc.integer({ min: 0, max: 6000 })), (boxes, [range, px, py]) => {
        const index = indexOf(boxes);
        const byScanPoint = boxes.flatMap((b, k) => (px >= b[0] && px < b[2] && py >= b[1] && py < b[3] ? [k * 10] : []));
        expect(collect((v) => index.queryPoint(px, py, v))).toEqual(byScanPoint);
        const [x0, y0, x1, y1] = range;
        const byScanRange = boxes.flatMap((b, k) => (x1 >= b[0] && x0 <= b[2] && y1 >= b[1] && y0 <= b[3] ? [k * 10] : []));
        expect(collect((v) => index.queryRect(x0, y0, x1, y1, v))).toEqual(byScanRange);
      }),
      { numRuns: 150 },
    );
  });
});
