import { describe, expect, it } from 'vitest';
import type { PlacedBox } from '../../../worker/layout/protocol';
import { jumpCamera, jumpHolds, type Jump } from './jump';

const box = (id: string, x: number, y: number, width = 100, height = 40): PlacedBox => ({ id, x, y, width, height });
const PANE = { width: 1000, height: 800 };
const NO_MINIMAP = { width: 0, height: 0 };
const TOP = { x: 0, y: 0, k: 0.6 }; // a first view at the graph's top
const AT_MATCH = { x: -1037.5, y: -1865, k: 0.75 }; // centres box('n37', 2000, 3000) in PANE
const jump = (camera: Jump['camera'] | 'none' = AT_MATCH, key = 'k1'): Jump => ({ box: 'n37', key, always: true, camera: camera === 'none' ? undefined : camera });

describe('jumpHolds', () => {
  it('holds while the camera is where the jump left it, on a placement of the same layout', () => {
    expect(jumpHolds(jump(), { key: 'k1', current: AT_MATCH, moving: false })).toBe(true);
    // under half a pixel off is the same view
    expect(jumpHolds(jump(), { key: 'k1', current: { ...AT_MATCH, x: AT_MATCH.x + 0.4 }, moving: false })).toBe(true);
  });

  it('holds while its own animation runs, and before any placement could show it', () => {
    expect(jumpHolds(jump(), { key: 'k1', current: TOP, moving: true })).toBe(true);
    expect(jumpHolds(jump('none'), { key: 'k1', current: TOP, moving: false })).toBe(true);
  });

  it('is dropped once the user moved the view, for another structure, or when there is none', () => {
    expect(jumpHolds(jump(), { key: 'k1', current: { ...AT_MATCH, y: AT_MATCH.y + 60 }, moving: false })).toBe(false);
    expect(jumpHolds(jump(), { key: 'k1', current: { ...AT_MATCH, k: 0.75 * 1.4 }, moving: false })).toBe(false);
    expect(jumpHolds(jump(), { key: 'k2', current: AT_MATCH, moving: false })).toBe(false);
    expect(jumpHolds(jump('none', 'k1'), { key: 'k2', current: TOP, moving: false })).toBe(false);
    expect(jumpHolds(undefined, { key: 'k1', current: AT_MATCH, moving: false })).toBe(false);
  });
});

describe('jumpCamera', () => {
  it('centres the box where the new placement puts it, at the scale the jump left', () => {
    // 500 - (2000 + 50) × 0.75 and 400 - (3000 + 20) × 0.75
    expect(jumpCamera(jump(), box('n37', 2000, 3000), PANE, TOP, NO_MINIMAP)).toEqual(AT_MATCH);
    // the final layout moved it 200 px right and 100 px up: the view follows it
    expect(jumpCamera(jump(), box('n37', 2200, 2900), PANE, TOP, NO_MINIMAP)).toEqual({ x: -1187.5, y: -1790, k: 0.75 });
  });

  it('starts a jump not placed yet from the camera now', () => {
    // k = max(0.6, min(0.75, 1000 / 140)) = 0.75
    expect(jumpCamera(jump('none'), box('n37', 2000, 3000), PANE, TOP, NO_MINIMAP)).toEqual(AT_MATCH);
  });

  it('leaves the view where the jump left it when the box is in view and need not be centred', () => {
    const here = { ...jump(), always: false };
    expect(jumpCamera(here, box('n37', 2100, 3100), PANE, TOP, NO_MINIMAP)).toEqual(AT_MATCH);
    // in the pane, but under the minimap: its right edge 912.5 > 1000 - 200, its bottom 655 > 800 - 150
    const corner = { width: 200, height: 150 };
    expect(jumpCamera(here, box('n37', 2500, 3320), PANE, TOP, NO_MINIMAP)).toEqual(AT_MATCH);
    expect(jumpCamera(here, box('n37', 2500, 3320), PANE, TOP, corner)).toEqual({ x: 500 - 2550 * 0.75, y: 400 - 3340 * 0.75, k: 0.75 });
  });

  it('has no camera for a placement without the box', () => {
    expect(jumpCamera(jump(), undefined, PANE, TOP, NO_MINIMAP)).toBeUndefined();
  });
});
