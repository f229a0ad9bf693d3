import { describe, expect, it } from 'vitest';
import { labelRoom } from './label-room';

describe('labelRoom', () => {
  it('keeps labels that do not meet where the layout put them', () => {
    const ys = labelRoom([
      { x: 0, y: 0, text: '1×128×32 · 16.0 KiB', bends: 0 },
      { x: 0, y: 40, text: '1×128×32 · 16.0 KiB', bends: 0 },
      { x: 200, y: 0, text: '2×1×4×0×8 · 0 B', bends: 2 },
    ]);
    expect(ys).toEqual([0, 40, 0]);
  });

  it("moves a bent edge's label off a straight edge's label it would run into (GPT-2's FastGelu: '64.0 KiB1×128×32')", () => {
    // the layered layout put a skip edge's label right after the main column's
    const ys = labelRoom([
      { x: 170, y: 433, text: '1×128×32 · 16.0 KiB', bends: 3 },
      { x: 50, y: 431, text: '1×128×128 · 64.0 KiB', bends: 0 },
    ]);
    expect(ys[1]).toBe(431); // the straight edge keeps its place
    expect(ys[0]).not.toBe(433);
    expect(Math.abs(ys[0]! - 431)).toBeGreaterThanOrEqual(12); // a line apart at least
  });

  it('leaves out a label with no free line within two of its place, never stacking two', () => {
    const crowd = [-24, -12, 0, 12, 24].map((y) => ({ x: 0, y, text: 'wide wide wide', bends: 0 }));
    const ys = labelRoom([...crowd, { x: 10, y: 0, text: 'late', bends: 4 }]);
    expect(ys.slice(0, 5)).toEqual([-24, -12, 0, 12, 24]);
    expect(ys[5]).toBeUndefined();
  });

  it('places thousands of labels in a column without two overlapping', () => {
    const labels = Array.from({ length: 5000 }, (_, i) => ({ x: (i % 7) * 20, y: Math.floor(i / 7) * 5, text: '1×4096 · 16.0 KiB', bends: i % 3 }));
    const ys = labelRoom(labels);
    const boxes = labels.flatMap((l, i) => (ys[i] === undefined ? [] : [{ left: l.x + 3, right: l.x + 3 + l.text.length * 6.02, top: ys[i]! + 1, bottom: ys[i]! + 13 }]));
    expect(boxes.length).toBeGreaterThan(200); // about one per 12 px line of the 3,570 px column
    const sorted = [...boxes].sort((a, b) => a.top - b.top);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j]!.top < sorted[i]!.bottom; j++) {
        const a = sorted[i]!;
        const b = sorted[j]!;
        expect(a.right <= b.left || b.right <= a.left).toBe(true);
      }
    }
  });
});
