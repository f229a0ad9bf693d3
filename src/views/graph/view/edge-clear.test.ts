import { describe, expect, it } from 'vitest';
import type { PlacedBox } from '../../../worker/layout/protocol';
import { busiestOffset, clearOfEdges, EDGE_MARGIN } from './edge-clear';

const box = (id: string, x: number, y: number, width = 60, height = 30): PlacedBox => ({ id, x, y, width, height });

/** True when no box of the first screen is cut by the pane's left or right edge at offset `x`. */
function noneCut(boxes: readonly PlacedBox[], x: number, width: number, height: number): boolean {
  return boxes
    .filter((b) => b.y < height && b.width <= width - 2 * EDGE_MARGIN)
    .every((b) => b.x + x + b.width <= 0 || b.x + x >= width || (b.x + x >= 0 && b.x + x + b.width <= width));
}

describe('clearOfEdges', () => {
  const view = { width: 250, height: 300, k: 1, y: 0 };

  it('keeps an offset that cuts nothing', () => {
    const boxes = [box('a', 20, 0), box('b', 120, 0)];
    expect(clearOfEdges(boxes, 0, view)).toBe(0);
  });

  it('moves a box cut by the left edge into view, the nearest way that cuts nothing', () => {
    // Inputs side by side in the first row, the view centred so the left one is half out.
    const boxes = [box('left', 0, 0), box('mid', 100, 0), box('right', 200, 0), box('below', 30, 200)];
    const x = -30;
    expect(noneCut(boxes, x, 250, 300)).toBe(false);
    const moved = clearOfEdges(boxes, x, view);
    expect(noneCut(boxes, moved, 250, 300)).toBe(true);
    // Of the offsets that cut nothing, one showing the most boxes: the cut input comes in rather than going out.
    expect(moved).toBeGreaterThanOrEqual(EDGE_MARGIN);
  });

  it('moves a box cut by the left edge to the margin when that cuts nothing else', () => {
    const boxes = [box('left', 0, 0), box('mid', 100, 0)];
    expect(clearOfEdges(boxes, -30, view)).toBe(EDGE_MARGIN);
  });

  it('lets a box go wholly out of view when that is nearer than bringing it in', () => {
    const boxes = [box('far-left', -200, 0), box('a', 20, 0), box('b', 120, 0), box('c', 230, 0)];
    const moved = clearOfEdges(boxes, -10, view);
    expect(noneCut(boxes, moved, 250, 300)).toBe(true);
    expect(Math.abs(moved + 10)).toBeLessThanOrEqual(250);
  });

  it('ignores frames wider than the pane and boxes below the first screen', () => {
    const boxes = [box('frame', -100, 0, 600, 400), box('a', 20, 0), box('deep', -30, 900)];
    expect(clearOfEdges(boxes, 0, view)).toBe(0);
  });

  it('gives the offset back when no offset cuts nothing', () => {
    // Boxes packed edge to edge wider than the pane: some box is always cut.
    const boxes = Array.from({ length: 10 }, (_, i) => box(`b${i}`, (i - 5) * 81, 0, 80));
    expect(clearOfEdges(boxes, -15, { ...view, width: 150 })).toBe(-15);
  });
});

describe('busiestOffset', () => {
  // The top of GPT-2 with a past as ELK lays it out, in pixels at the first view's scale, centred on its
  // attention mask (x 8): the main column zigzags left as it goes down, so in a 253 px pane every offset
  // but the mask's own cuts some box.
  const gpt2 = [
    box('in:input_ids', -96, 18, 62, 20),
    box('in:position_ids', -178, 18, 68, 20),
    box('n0', -96, 80, 62, 24),
    box('n1', -175, 80, 62, 24),
    box('n2', -142, 146, 116, 24),
    box('in:attention_mask', 8, 150, 77, 20),
    box('kv-in:', -327, 150, 106, 20),
    box('n3', -100, 225, 70, 24),
    box('n4', -203, 291, 98, 24),
    box('n5', -229, 357, 112, 24),
    box('n6', -332, 423, 98, 24),
    box('n7', -326, 489, 86, 24),
    box('n8', -332, 555, 98, 24),
  ];
  const view = { width: 253, height: 570, k: 1, y: 0 };
  const whole = (boxes: readonly PlacedBox[], x: number) => boxes.filter((b) => b.x + x >= 0 && b.x + x + b.width <= view.width && b.y + b.height <= view.height).map((b) => b.id);

  it('shows the top of a zigzag column whole, with its inputs, over the lone box no offset would cut', () => {
    expect(whole(gpt2, 0)).toEqual(['in:attention_mask']);
    const x = busiestOffset(gpt2, 0, view);
    expect(whole(gpt2, x)).toEqual(['in:input_ids', 'in:position_ids', 'n0', 'n1', 'n2', 'n3', 'n4']);
  });

  it('cuts nothing when an offset that cuts nothing shows as many boxes', () => {
    const boxes = [box('in:a', 0, 0), box('b', 100, 0), box('c', 300, 0)];
    const x = busiestOffset(boxes, -20, { ...view, width: 250 });
    expect(noneCut(boxes, x, 250, 570)).toBe(true);
    expect(whole(boxes, x)).toEqual(['in:a', 'b']);
  });

  it('prefers a screen with more graph inputs to a busier one with fewer', () => {
    const boxes = [box('in:a', 0, 0), ...Array.from({ length: 4 }, (_, i) => box(`n${i}`, 1000 + (i % 2) * 80, 50 * Math.floor(i / 2)))];
    const x = busiestOffset(boxes, 0, view);
    expect(whole(boxes, x)).toContain('in:a');
  });
});
