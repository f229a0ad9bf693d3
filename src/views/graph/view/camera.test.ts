import { describe, expect, it } from 'vitest';
import type { PlacedBox } from '../../../worker/layout/protocol';
import { busiestCentre, busiestWindow, covers, drawnRegion, FIRST_VIEW_BOXES, FIRST_VIEW_FILL, fitCamera, fitViewCamera, LEGIBLE_FIT, MIN_SCALE, READABLE, refitsView, revealCamera, sameView, startCamera, TOP_ROWS_MIN, visibleRegion, wholeBoxes } from './camera';

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

  it('shows the main column of a decoder, starting at its token ids, not its attention mask laid out alone far to the left', () => {
    // The mask's consumer is far down, so the layout puts it alone at the far left; the column starts 3000 px right.
    const column = [box('in:input_ids', 3000, 0), box('gather', 3000, 100), box('add', 3000, 200), box('ln', 3000, 300), box('in:past', 3120, 0), box('matmul', 3120, 300)];
    const boxes = [box('in:attention_mask', 0, 0), ...column, box('far', 6000, 0)];
    const size = { width: 253, height: 600 };
    const camera = startCamera(size, { width: 8000, height: 20_000, boxes })!;
    expect(camera.k).toBe(0.6);
    const left = (b: PlacedBox) => b.x * camera.k + camera.x;
    const right = (b: PlacedBox) => (b.x + b.width) * camera.k + camera.x;
    const whole = boxes.filter((b) => left(b) >= 0 && right(b) <= size.width).map((b) => b.id);
    expect(whole).toEqual(['in:input_ids', 'gather', 'add', 'ln', 'in:past', 'matmul']);
    const cut = boxes.filter((b) => (left(b) < 0 && right(b) > 0) || (left(b) < size.width && right(b) > size.width));
    expect(cut).toEqual([]);
  });

  it('keeps a graph input on the first screen over a busier stretch without one', () => {
    const inputs = [box('in:a', 0, 0), box('b', 0, 100), box('c', 0, 200), box('d', 0, 300)];
    const busy = Array.from({ length: 6 }, (_, i) => box(`n${i}`, 2000 + (i % 2) * 120, 100 * Math.floor(i / 2)));
    // the input is laid out at x 0..100: whole on screen with the three boxes below it, though the stretch at 2000 holds six
    const camera = startCamera({ width: 253, height: 600 }, { width: 8000, height: 20_000, boxes: [...inputs, ...busy] })!;
    expect(camera.x).toBeGreaterThanOrEqual(0);
    expect(100 * camera.k + camera.x).toBeLessThanOrEqual(253);
  });

  it('never opens on a lone input over an empty pane: a graph whose top holds one box opens on Fit\'s view, every box in it', () => {
    // tiny-llama as ELK lays it out: its token ids alone at the top right, read only by the mask's subgraph far
    // down; the layers start at the left, below. At 0.6 in a 338 × 581 pane, the ids showed alone over an edge.
    const ids = box('in:input_ids', 1665, 16, 104, 34);
    const layers = Array.from({ length: 40 }, (_, i) => box(`n${i}`, 100 + (i % 4) * 250, 120 + 150 * i, 220));
    const mask = Array.from({ length: 20 }, (_, i) => box(`m${i}`, 1600 + (i % 3) * 250, 1600 + 150 * i, 200));
    const size = { width: 338, height: 581 };
    const graph = { width: 2400, height: 6200, boxes: [ids, ...layers, ...mask] };
    const camera = startCamera(size, graph)!;
    expect(camera).toEqual(fitViewCamera(size, graph));
    expect(wholeBoxes(graph.boxes, camera, size)).toHaveLength(graph.boxes.length);
    // Clear of the minimap as Fit is.
    const corner = { width: 80, height: 120 };
    expect(startCamera(size, graph, corner)).toEqual(fitViewCamera(size, graph, corner));
  });

  it('counts a first screen of fewer than four boxes whole, filling under 5 % of the pane, as empty; a graph of fewer boxes by all of them', () => {
    expect(FIRST_VIEW_BOXES).toBe(4);
    expect(FIRST_VIEW_FILL).toBe(0.05);
    const column = (n: number, x: number, first: string) => Array.from({ length: n }, (_, i) => box(i === 0 ? first : `n${x}-${i}`, x, 100 * i));
    const size = { width: 253, height: 600 };
    // An input and two boxes at 0..100 beside six at 2000: 3 × 60 × 24 px, 2.8 % of the pane; the graph opens on Fit's view.
    const sparse = { width: 8000, height: 20_000, boxes: [...column(3, 0, 'in:a'), ...column(6, 2000, 'b')] };
    expect(startCamera(size, sparse)).toEqual(fitViewCamera(size, sparse));
    // A graph of three boxes, all in its top: they are enough; its top across its width is its view.
    const three = { width: 400, height: 20_000, boxes: column(3, 150, 'in:a') };
    const camera = startCamera(size, three)!;
    expect(camera).toEqual({ x: (253 - 400 * camera.k) / 2, y: 8, k: (0.96 * 253) / 400 });
    expect(wholeBoxes(three.boxes, camera, size)).toHaveLength(3);
  });

  it('keeps the top of a small pane that three boxes fill, as an embed\'s graph pane', () => {
    // 310 × 290 (a 640 × 400 embed): at 0.85 three 200 × 40 boxes are 170 × 34 px each, 19 % of the pane.
    const size = { width: 310, height: 290 };
    const chain = [box('in:image', 0, 0, 200), box('conv', 0, 120, 200), box('bn', 0, 240, 200), ...Array.from({ length: 50 }, (_, i) => box(`n${i}`, 0, 400 + 120 * i, 200))];
    const graph = { width: 600, height: 6500, boxes: chain };
    const camera = startCamera(size, graph)!;
    expect(camera.k).toBe(0.85);
    expect(wholeBoxes(graph.boxes, camera, size).map((b) => b.id)).toEqual(['in:image', 'conv', 'bn']);
  });

  it('shows top rows wider than the pane at the readable scale whole, from their left, at the scale that fits them', () => {
    // GPT-2's shape: the inputs on the right, the attention mask and past KV cache to their left a row down.
    // At 0.6 the top spans 360 px of a 300 px pane, and some box was cut at an edge.
    const top = [box('in:ids', 500, 0), box('in:mask', 0, 100), box('in:past', 200, 100), box('embed', 450, 100, 150)];
    const size = { width: 300, height: 600 };
    const graph = { width: 2000, height: 20_000, boxes: [...top, box('far', 1900, 5000)] };
    const camera = startCamera(size, graph)!;
    expect(camera).toEqual({ x: 8, y: 8, k: 284 / 600 });
    expect(wholeBoxes(graph.boxes, camera, size).map((b) => b.id)).toEqual(top.map((b) => b.id));
  });

  it('keeps the scale that fits the top rows whole when a taller pane\'s recount reaches a row wider than TOP_ROWS_MIN allows', () => {
    // GPT-2 at 1280 × 720: at 0.47 the pane reaches a row far down that spans the graph; the first view fell
    // back to 0.6, cutting the box at the top rows' left edge.
    const top = [box('in:ids', 500, 0), box('in:mask', 0, 100), box('in:past', 200, 100), box('embed', 450, 100, 150)];
    const size = { width: 300, height: 600 };
    const graph = { width: 2000, height: 20_000, boxes: [...top, box('deep', 1500, 1100), box('far', 1900, 5000)] };
    const camera = startCamera(size, graph)!;
    expect(camera).toEqual({ x: 8, y: 8, k: 284 / 600 });
    expect(wholeBoxes(graph.boxes, camera, size).map((b) => b.id)).toEqual(top.map((b) => b.id));
  });

  it('keeps the readable scale when the top rows fit only below TOP_ROWS_MIN', () => {
    expect(TOP_ROWS_MIN).toBe(0.35);
    const top = [box('in:ids', 1200, 0), box('in:mask', 0, 100), box('a', 1200, 100), box('b', 1200, 200), box('c', 1200, 300)];
    const camera = startCamera({ width: 300, height: 600 }, { width: 3000, height: 20_000, boxes: top })!;
    expect(camera.k).toBe(0.6);
  });

  it('shows top rows too wide even at TOP_ROWS_MIN from their left at TOP_ROWS_MIN, no box cut at the left edge', () => {
    // GPT-2's shape in the 193 px graph pane beside Growth at 1280 × 800: its top needs 0.27 to show whole; at 0.6
    // on the offset with the most inputs whole, the past KV cache beside the column was cut at the left edge.
    const top = [box('in:pos', 300, 0), box('in:ids', 420, 0), box('in:mask', 0, 100), box('kv-in:past', 200, 100), box('embed', 500, 100, 150)];
    const size = { width: 193, height: 450 };
    const column = Array.from({ length: 12 }, (_, i) => box(`n${i}`, 330, 200 + 100 * i));
    const graph = { width: 2000, height: 20_000, boxes: [...top, ...column, box('far', 1900, 5000)] };
    const camera = startCamera(size, graph)!;
    expect(camera).toEqual({ x: 8, y: 8, k: TOP_ROWS_MIN });
    const whole = wholeBoxes(graph.boxes, camera, size).map((b) => b.id);
    expect(whole).toEqual(expect.arrayContaining(['in:pos', 'in:ids', 'in:mask', 'kv-in:past', 'n0']));
    // Only the right edge cuts: no box on screen starts left of the pane.
    const left = (b: PlacedBox) => b.x * camera.k + camera.x;
    expect(graph.boxes.filter((b) => left(b) < 0 && (b.x + b.width) * camera.k + camera.x > 0)).toEqual([]);
  });

  it('uses the larger readable scale in a pane small on both sides', () => {
    const camera = startCamera({ width: 400, height: 300 }, { width: 5000, height: 5000, boxes: [box('in:x', 2450, 0)] })!;
    expect(camera.k).toBe(0.85);
  });
});

describe('fitViewCamera', () => {
  it('is the whole graph while its boxes can be told apart at the fitted scale', () => {
    // The sample's 590 × 5628 in a 250 × 570 pane: k = 0.0972, boxes 3.9 px tall; shown whole
    const graph = { width: 590, height: 5628, boxes: [box('in:x', 300, 0)] };
    expect(fitViewCamera({ width: 250, height: 570 }, graph)).toEqual(fitCamera({ width: 250, height: 570 }, graph));
    // 700 × 9500 in 1000 × 500: k = 0.0505, just above the floor: whole
    expect(fitViewCamera({ width: 1000, height: 500 }, { width: 700, height: 9500, boxes: [] })!.k).toBeCloseTo(0.0505, 4);
  });

  it('frames the top of a graph too long to label whole at 9 px titles, centred on its first input', () => {
    // An expanded decoder: 2000 × 300000 in 1000 × 600. The whole would be k = 0.00192, a strip; Fit shows
    // its top at k = 0.75 (12 px titles at 9 px), 8 px from the top, the first input (x 950..1050) centred.
    const camera = fitViewCamera({ width: 1000, height: 600 }, { width: 2000, height: 300_000, boxes: [box('in:ids', 950, 0)] })!;
    expect(LEGIBLE_FIT * 12).toBe(9);
    expect(camera.k).toBe(LEGIBLE_FIT);
    expect(camera.y).toBe(8);
    expect(camera.x).toBe(500 - 1000 * 0.75);
  });

  it('frames the column of the top that holds the most whole boxes, not a lone input beside it', () => {
    // The input sits alone at x 0..100; the chain it feeds runs at x 1000..1200. A 500-px pane at 0.75 shows
    // 645 graph px across (8 px margins): centred on the chain (x 1100), its four boxes of the top are whole in view.
    const chain = [0, 1, 2, 3].map((i) => box(`n${i}`, 1000, 60 + i * 86, 200));
    const graph = { width: 2000, height: 200_000, boxes: [box('in:ids', 0, 0), ...chain, box('n9', 1000, 199_000, 200)] };
    const camera = fitViewCamera({ width: 500, height: 400 }, graph)!;
    expect(camera).toEqual({ x: 250 - 1100 * 0.75, y: 8, k: 0.75 });
  });

  it('shows such a graph across its whole width when that is larger, at most at scale 1', () => {
    expect(fitViewCamera({ width: 1000, height: 600 }, { width: 480, height: 300_000, boxes: [box('in:x', 200, 0)] })).toEqual({ x: 260, y: 8, k: 1 });
  });
});

describe('busiestCentre', () => {
  it('centres the window of the top holding the most whole boxes, the nearest among equals, leaving out boxes below the top and wider than the window', () => {
    const boxes = [box('a', 0, 0), box('b', 500, 0), box('c', 620, 50), box('d', 500, 5000), box('wide', 0, 0, 900)];
    // A 300-wide window over the top 1000: b and c (500..720) together; d is below, wide is wider than the window.
    expect(busiestCentre(boxes, 300, 1000, 0)).toBe(610);
    // One box a window: a and b tie; the nearer to 480 wins.
    expect(busiestCentre([box('a', 0, 0), box('b', 500, 0)], 150, 1000, 480)).toBe(550);
    expect(busiestCentre([box('wide', 0, 0, 900)], 300, 1000, 0)).toBeUndefined();
  });
});

describe('revealCamera', () => {
  const size = { width: 1000, height: 600 };

  it('shows a group wider and taller than the pane at the scale it keeps from its top-left corner, where its title is', () => {
    // A 420 × 900 frame at k 0.75 is 315 × 675 px in a 250 × 570 pane: its corner goes 8 px from the pane's top left.
    const camera = revealCamera(box('sc:/model/layers.40/mlp', 1000, 5000, 420, 900), { width: 250, height: 570 }, { x: 0, y: 0, k: 0.75 }, true, NO_MINIMAP);
    expect(camera).toEqual({ x: 8 - 1000 * 0.75, y: 8 - 5000 * 0.75, k: 0.75 });
  });

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

describe('busiestWindow', () => {
  it('puts a box at the window\'s edge and cuts none at its sides, where the most whole boxes are', () => {
    // An input at 0..100 beside a 300-wide frame at 130..430 holding a node at 150..400; the window is 400 wide.
    const boxes = [box('in:a', 0, 0), box('f', 130, 0, 300, 300), box('n', 150, 50, 250)];
    // From 0 the frame is cut at 400 (2 whole, 1 cut); from 130 the frame and its node are whole and the input out.
    expect(busiestWindow(boxes, 400, 1000, 50)).toBe(130);
    // busiestCentre counted whole boxes only: it centred [0, 400], cutting the frame.
    expect(busiestCentre(boxes, 400, 1000, 50)).toBe(200);
  });

  it('centres the boxes it holds when that cuts nothing more, and leaves out boxes reaching below the top', () => {
    // Two nodes at 500..700 in a 400-wide window; a tall frame at 380..620 reaches below the top: not counted.
    const boxes = [box('a', 500, 0, 200), box('b', 500, 60, 200), box('tall', 380, 0, 240, 5000)];
    expect(busiestWindow(boxes, 400, 1000, 0)).toBe(400);
  });
});

describe('fitViewCamera beside the minimap', () => {
  it('frames the top of a long graph left of the minimap\'s corner, its first box whole at the margin', () => {
    const chain = [0, 1, 2, 3].map((i) => box(`n${i}`, 1000, 60 + i * 86, 200));
    const graph = { width: 2000, height: 200_000, boxes: [box('in:ids', 0, 0), ...chain] };
    const corner = { width: 100, height: 140 };
    const camera = fitViewCamera({ width: 500, height: 400 }, graph, corner)!;
    expect(camera.k).toBe(LEGIBLE_FIT);
    const shown = graph.boxes.map((b) => [b.x * camera.k + camera.x, (b.x + b.width) * camera.k + camera.x] as const).filter(([l, r]) => r > 0 && l < 500);
    expect(shown.length).toBe(4);
    for (const [left, right] of shown) {
      expect(left).toBeGreaterThanOrEqual(8);
      expect(right).toBeLessThanOrEqual(500 - 100 - 8);
    }
  });

  it('fits a whole graph that would reach under the minimap beside or above it, whichever is larger', () => {
    // 400 × 300 in 500 × 400 fits at 1, centred to 450 × 350: under a 100 × 100 corner. Beside it (400 wide)
    // and above it (300 tall) both fit at 0.96; beside is taken, centred in its part.
    const graph = { width: 400, height: 300, boxes: [box('in:x', 0, 0)] };
    expect(fitViewCamera({ width: 500, height: 400 }, graph)).toEqual({ x: 50, y: 50, k: 1 });
    const camera = fitViewCamera({ width: 500, height: 400 }, graph, { width: 100, height: 100 })!;
    expect(camera.k).toBeCloseTo(0.96, 10);
    expect(camera.x).toBeCloseTo(8, 10);
    expect(camera.y).toBeCloseTo(56, 10);
    // A graph clear of the corner keeps its fit.
    expect(fitViewCamera({ width: 500, height: 400 }, { width: 100, height: 300, boxes: [] }, { width: 100, height: 100 })).toEqual(fitCamera({ width: 500, height: 400 }, { width: 100, height: 300 }));
  });
});

describe('refitsView', () => {
  const none = { first: false, finalOfPreview: false, groupsChanged: false, finalOfRefit: false, userMoved: false };

  it('fits the first placement and its final layout', () => {
    expect(refitsView({ ...none, first: true, userMoved: true })).toBe(true);
    expect(refitsView({ ...none, finalOfPreview: true })).toBe(true);
  });

  it('fits a layout whose groups changed, and its final layout, unless the user moved the view', () => {
    expect(refitsView({ ...none, groupsChanged: true })).toBe(true);
    expect(refitsView({ ...none, finalOfRefit: true })).toBe(true);
    expect(refitsView({ ...none, groupsChanged: true, userMoved: true })).toBe(false);
    expect(refitsView({ ...none, finalOfRefit: true, userMoved: true })).toBe(false);
  });

  it('keeps the view of a re-layout with the same groups (a new dim value)', () => {
    expect(refitsView(none)).toBe(false);
  });
});

describe('sameView', () => {
  it('takes views within half a pixel and a thousandth of scale as the same', () => {
    expect(sameView({ x: 10, y: 20, k: 0.5 }, { x: 10.4, y: 19.6, k: 0.5005 })).toBe(true);
    expect(sameView({ x: 10, y: 20, k: 0.5 }, { x: 11, y: 20, k: 0.5 })).toBe(false);
    expect(sameView({ x: 10, y: 20, k: 0.5 }, { x: 10, y: 20, k: 0.51 })).toBe(false);
  });
});
