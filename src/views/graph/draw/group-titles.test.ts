import { describe, expect, it } from 'vitest';
import { titleSpan } from './group-titles';

describe('titleSpan', () => {
  it('leaves a title as drawn while its frame starts in view, or the frame is out of view', () => {
    expect(titleSpan(100, 300, 50, 400)).toBeUndefined();
    expect(titleSpan(100, 300, 100, 400)).toBeUndefined();
    expect(titleSpan(-500, 300, 0, 400)).toBeUndefined(); // wholly left of the view
    expect(titleSpan(500, 300, 0, 400)).toBeUndefined(); // wholly right of it
  });

  it("moves the title of a frame starting left of the view to the view's left edge, its room the frame's part in view", () => {
    // FastestDet after Fit at 1280×720: backbone's frame starts 105 px left of the view, 253 px wide
    expect(titleSpan(-105, 600, 0, 253)).toEqual({ shift: 105, room: 253 });
    expect(titleSpan(-105, 200, 0, 253)).toEqual({ shift: 105, room: 95 });
  });
});
