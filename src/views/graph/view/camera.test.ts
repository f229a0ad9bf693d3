import { describe, expect, it } from 'vitest';
import type { PlacedBox } from '../../../worker/layout/protocol';
import { covers, drawnRegion, fitCamera, MIN_SCALE, READABLE, revealCamera, startCamera, visibleRegion } from './camera';

const box = (id: string, x: number, y: number, width = 100, height = 40): PlacedBox => ({ id, x, y, width, height });
const NO_MINIMAP = { width: 0, height: 0 };

describe('fitCamera', () => {
  it('centres the whole graph at 96 % of the tighter side, to the pixel', () => {
    // 2000 × 400 in a 1000 × 500 pane: width binds, k = 0.96 × 1000 / 2000
    expect(fitCamera({ width: 1000, height: 500 }, { width: 2000, height: 400 })).toEqual({ x: 20, y: 154, k: 0.48 });
    // 100 × 1000 in a 600 × 500 pane: height binds, k = 0.96 × 500 / 1000
    expect(fitCamera({ width: 600, height: 500 }, { width: 100, height: 1000 })).toEqual({ x: 276, y: 10, k: 0.48 });
  });

  it('never enlarges a small graph past scale 1, and never goes below the minimum scale', () => {
    expect(fitCamera({ width: 800, height: 600 }, { width: 200, height: 100 })).toEqual({ x: 300, y: 250, k: 1 });
    expect(fitCamera({ width: 800, height: 600 }, { width: 1e9, height: 100 })!.k).toBe(MIN_SCALE);
  });

  it('has no view of an empty graph', () => {
    expect(fitCamera({ width: 800, height: 600 }, { width: 0, height: 0 })).toBeUndefined();
  });
});

describe('startCamera', () => {
  it('is the fit when the fit is readable', () => {
    const graph = { width: 1000, height: 800, boxes: [box('in:x', 0, 0)] };
    expect(startCamera({ width: 1000, height: 800 }, graph)).toEqual(fitCamera({ width: 1000, height: 800 }, graph));
  });

  it('shows a tall graph from its top, across its whole width, 8 px from the top', () => {
    // 500 × 20000 in 1000 × 800: the fit (0.0384) is unreadable; the width fits at 1 (capped), centred
    const camera = startCamera({ width: 1000, height: 800 }, { width: 500, height: 20_000, boxes: [box('in:x', 200, 0)] });
    expect(camera).toEqual({ x: 250, y: 8, k: 1 });
  });

  it('centres a graph too wide to read whole on its first input, within the graph, at the readable scale', () => {
    // 10000 × 20000 in 1000 × 800: k = 0.6; the input at x 4950..5050 is centred
    const camera = startCamera({ width: 1000, height: 800 }, { width: 10_000, height: 20_000, boxes: [box('in:x', 4950, 0)] })!;
    expect(camera.k).toBe(0.6);
    expect(camera.y).toBe(8);
    expect(camera.x).toBe(500 - 5000 * 0.6);
  });

  it('uses the larger readable scale in a pane small on both sides', () => {
    const camera = startCamera({ width: 400, height: 300 }, { width: 5000, height: 5000, boxes: [box('in:x', 2450, 0)] })!;
    expect(camera.k).toBe(0.85);
  });
});

describe('revealCamera', () => {
  const size = { width: 1000, height: 600 };

  it('leaves a box in view at a usable scale alone, unless asked always', () => {
    const current = { x: 0, y: 0, k: 1 };
    expect(revealCamera(box('a', 100, 100), size, current, false, NO_MINIMAP)).toBeUndefined();
    expect(revealCamera(box('a', 100, 100), size, current, true, NO_MINIMAP)).toEqual({ x: 500 - 150, y: 300 - 120, k: 1 });
  });

  it('centres a box out of view at least at the readable scale, never zooming out', () => {
    const far = revealCamera(box('a', 5000, 3000), size, { x: 0, y: 0, k: 0.1 }, false, NO_MINIMAP)!;
    expect(far.k).toBe(READABLE);
    expect(far.x).toBe(500 - 5050 * READABLE);
    expect(far.y).toBe(300 - 3020 * READABLE);
    expect(revealCamera(box('a', 5000, 3000), size, { x: 0, y: 0, k: 2 }, false, NO_MINIMAP)!.k).toBe(2);
  });

  it('takes a box under the minimap for hidden, and a box wider than the pane at the scale it fits', () => {
    expect(revealCamera(box('a', 900, 560), size, { x: 0, y: 0, k: 1 }, false, { width: 200, height: 150 })).toBeDefined();
    expect(revealCamera(box('wide', 0, 0, 2000, 40), size, { x: 0, y: 0, k: 0.1 }, true, NO_MINIMAP)!.k).toBeCloseTo(1000 / 2800, 12);
  });
});

describe('visible and drawn regions', () => {
  it('maps the pane back to graph coordinates', () => {
    expect(visibleRegion({ x: -200, y: 100, k: 0.5 }, { width: 1000, height: 600 })).toEqual({ x0: 400, y0: -200, x1: 2400, y1: 1000 });
  });

  it('draws one view on every side, and a view inside it needs no redraw', () => {
    const view = { x0: 400, y0: -200, x1: 2400, y1: 1000 };
    const region = drawnRegion(view);
    expect(region).toEqual({ x0: -1600, y0: -1400, x1: 4400, y1: 2200 });
    expect(covers(region, { x0: 1000, y0: 0, x1: 3000, y1: 1200 })).toBe(true);
    expect(covers(region, { x0: 3000, y0: 0, x1: 5000, y1: 1200 })).toBe(false);
  });
});
