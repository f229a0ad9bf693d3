import { zoomIdentity } from 'd3';
import { describe, expect, it } from 'vitest';
import { heapBuffer, heapPlan } from '../testing/heap-plans';
import { heapData } from './heap-data';
import { baseScales, bufferWindow, curveHeight, heapLayout, laneAt, plotTransform, zoomedScales } from './heap-geometry';

// The fixed parts (MARGIN): left 68, right 14, top 8, 22 between lanes, 16 for
// each lane's label above it, the curve 64 (32 under 300 px) with 10 above it,
// and 26 for the step axis.

/** Two lanes: dram (peak 96) and sram (peak 32), over 4 steps. */
const twoLanes = heapData(
  heapPlan(
    [{ name: 'dram', peak: 96 }, { name: 'sram', peak: 32 }],
    [heapBuffer(0, 'dram', 0, 2, 0, 64), heapBuffer(1, 'dram', 1, 3, 64, 32), heapBuffer(2, 'sram', 1, 2, 0, 32)],
    4,
  ),
);

/** One lane whose extent is 100 bytes, over 4 steps. */
const oneLane = heapData(heapPlan([{ name: 'sram', peak: 100 }], [heapBuffer(0, 'sram', 0, 2, 0, 60), heapBuffer(1, 'sram', 1, 3, 60, 40)], 4));

describe('curveHeight', () => {
  it('is 64 px, and 32 px in a diagram under 300 px tall', () => {
    expect(curveHeight(300)).toBe(64);
    expect(curveHeight(299)).toBe(32);
    expect(curveHeight(120)).toBe(32);
  });
});

describe('heapLayout', () => {
  it('stacks the lanes, the curve and the axis down an 800 x 400 element', () => {
    // plot: 800 - 68 - 14 = 718 wide, 400 - 8 - 64 - 10 - 26 = 292 tall;
    // each lane (292 - 22 - 2 * 16) / 2 = 119 tall, below its 16 px label.
    const layout = heapLayout(twoLanes, 800, 400);
    expect(layout).toEqual({
      width: 800,
      height: 400,
      plot: { left: 68, top: 8, width: 718, height: 292 },
      curve: { top: 310, height: 64 },
      axisTop: 374,
      lanes: [
        { top: 16, height: 119 },
        { top: 173, height: 119 },
      ],
    });
    // The last lane ends at the plot's bottom and the axis at the element's.
    expect(layout.lanes[1]!.top + layout.lanes[1]!.height).toBe(layout.plot.height);
    expect(layout.axisTop + 26).toBe(400);
  });

  it('gives a short embed the low curve, so the lane keeps its room', () => {
    // 198 tall: curve 32, plot 198 - 8 - 32 - 10 - 26 = 122, the lane 122 - 16 = 106.
    const layout = heapLayout(oneLane, 482, 198);
    expect(layout.plot).toEqual({ left: 68, top: 8, width: 400, height: 122 });
    expect(layout.lanes).toEqual([{ top: 16, height: 106 }]);
    expect(layout.curve).toEqual({ top: 140, height: 32 });
    expect(layout.axisTop).toBe(172);
  });

  it('keeps a plot of at least 40 x 60 and lanes of at least 20 px in a tiny element', () => {
    // Plot 40 x 60 whatever the element; two lanes would get (60 - 22 - 32) / 2 = 3 px, so 20.
    const layout = heapLayout(twoLanes, 50, 100);
    expect(layout.plot).toEqual({ left: 68, top: 8, width: 40, height: 60 });
    expect(layout.lanes).toEqual([
      { top: 16, height: 20 },
      { top: 74, height: 20 },
    ]);
    expect(layout.curve).toEqual({ top: 78, height: 32 });
  });
});

describe('baseScales', () => {
  // 482 x 198: the plot is 400 wide; the lane spans y 16..122 for 100 bytes
  // and 6% headroom (106 bytes), so one byte is one pixel.
  const layout = heapLayout(oneLane, 482, 198);
  const scales = baseScales(oneLane, layout);

  it('maps the steps across the plot, 100 px a step', () => {
    expect(scales.x.domain()).toEqual([0, 4]);
    expect(scales.x(0)).toBe(0);
    expect(scales.x(1)).toBe(100);
    expect(scales.x(4)).toBe(400);
    expect(scales.x.invert(250)).toBe(2.5);
  });

  it('maps address 0 to the lane bottom and the extent plus headroom to its top', () => {
    const y = scales.y[0]!;
    expect(y(0)).toBe(122);
    expect(y(106)).toBeCloseTo(16, 9);
    expect(y(100)).toBeCloseTo(22, 9); // the peak line, 6 px under the lane's top
    expect(y(60)).toBeCloseTo(62, 9);
    expect(y.invert(72)).toBeCloseTo(50, 9);
  });

  it('gives each lane its own bytes scale inside its own box', () => {
    const two = baseScales(twoLanes, heapLayout(twoLanes, 800, 400));
    // dram: 96 bytes (101.76 with headroom) over y 135..16; sram: 32 (33.92) over 292..173.
    expect(two.y[0]!.domain()).toEqual([0, 96 * 1.06]);
    expect(two.y[0]!.range()).toEqual([135, 16]);
    expect(two.y[1]!.domain()).toEqual([0, 32 * 1.06]);
    expect(two.y[1]!.range()).toEqual([292, 173]);
    expect(two.x(1)).toBe(179.5); // 718 px over 4 steps
  });
});

describe('zoomedScales', () => {
  const layout = heapLayout(oneLane, 482, 198);
  const base = baseScales(oneLane, layout);

  it('is the base scales under the identity', () => {
    const scales = zoomedScales(base, zoomIdentity);
    expect(scales.x(3)).toBe(300);
    expect(scales.y[0]!(50)).toBeCloseTo(72, 9);
  });

  it('zooms steps and addresses together: scale 2 and a pan of (-100, -22)', () => {
    // x = 2 * 100 * step - 100, y = 2 * (122 - bytes) - 22.
    const scales = zoomedScales(base, zoomIdentity.translate(-100, -22).scale(2));
    expect(scales.x.domain()).toEqual([0.5, 2.5]);
    expect(scales.x(1)).toBe(100);
    expect(scales.x.invert(300)).toBe(2);
    expect(scales.y[0]!(100)).toBeCloseTo(22, 9);
    expect(scales.y[0]!(61)).toBeCloseTo(100, 9);
    expect(scales.y[0]!.invert(222)).toBeCloseTo(0, 9);
  });
});

describe('plotTransform', () => {
  const layout = heapLayout(oneLane, 482, 198);
  const base = baseScales(oneLane, layout);

  it('keeps the step and address under the pointer where they were as the wheel zooms about it', () => {
    // d3-zoom zooms by 1.6 about the pointer at canvas (300, 90): its transform is in the canvas's coordinates
    const [px, py] = [300, 90];
    const wheel = zoomIdentity.translate(px, py).scale(1.6).translate(-px, -py);
    const scales = zoomedScales(base, plotTransform(wheel, layout.plot));
    const [x, y] = [px - layout.plot.left, py - layout.plot.top]; // the pointer in the plot's coordinates
    expect(scales.x.invert(x)).toBeCloseTo(base.x.invert(x), 9);
    expect(scales.y[0]!.invert(y)).toBeCloseTo(base.y[0]!.invert(y), 9);
    expect(layout.plot.left).toBeGreaterThan(0); // else the test could not tell
  });

  it('is the identity at the identity', () => {
    expect(plotTransform(zoomIdentity, layout.plot)).toMatchObject({ k: 1, x: 0, y: 0 });
  });
});

describe('laneAt', () => {
  // Lanes of the 800 x 400 layout: [16, 135) and [173, 292), a label or a gap between.
  const layout = heapLayout(twoLanes, 800, 400);

  it('finds the lane under a y, top edge in and bottom edge out', () => {
    expect(laneAt(layout, 15.9, zoomIdentity)).toBeUndefined(); // the first lane's label
    expect(laneAt(layout, 16, zoomIdentity)).toBe(0);
    expect(laneAt(layout, 134.9, zoomIdentity)).toBe(0);
    expect(laneAt(layout, 135, zoomIdentity)).toBeUndefined();
    expect(laneAt(layout, 160, zoomIdentity)).toBeUndefined(); // between the lanes
    expect(laneAt(layout, 173, zoomIdentity)).toBe(1);
    expect(laneAt(layout, 291.9, zoomIdentity)).toBe(1);
    expect(laneAt(layout, 292, zoomIdentity)).toBeUndefined();
  });

  it('follows the lanes under a zoom', () => {
    // y' = 2y - 100: the lanes move to [-68, 170) and [246, 484).
    const t = zoomIdentity.translate(0, -100).scale(2);
    expect(laneAt(layout, 0, t)).toBe(0);
    expect(laneAt(layout, 169.9, t)).toBe(0);
    expect(laneAt(layout, 170, t)).toBeUndefined();
    expect(laneAt(layout, 245.9, t)).toBeUndefined();
    expect(laneAt(layout, 246, t)).toBe(1);
  });
});

describe('bufferWindow', () => {
  /** One buffer over steps [1000, 1010) of 5000, one over [0, 1) and one over [4990, 5000). */
  const long = heapData(
    heapPlan([{ name: 'ram', peak: 300 }], [heapBuffer(0, 'ram', 1000, 1010, 0, 100), heapBuffer(1, 'ram', 0, 1, 100, 100), heapBuffer(2, 'ram', 4990, 5000, 200, 100)], 5000),
  );

  it('centres a lifetime and gives it 60 % of the width', () => {
    // 10 steps / 0.6 = 16.67 steps shown, from 1005 - 8.33.
    const [from, to] = bufferWindow(long, 0);
    expect(from).toBeCloseTo(996.667, 3);
    expect(to).toBeCloseTo(1013.333, 3);
    const x = baseScales(long, heapLayout(long, 800, 400), [from, to]).x;
    // The plot is 718 px wide: the buffer spans 430.8 px of it, from 143.6 px.
    expect(x(1000)).toBeCloseTo(143.6, 1);
    expect(x(1010) - x(1000)).toBeCloseTo(430.8, 1);
  });

  it('shows a one-step lifetime with a step either side, and stays within the plan', () => {
    expect(bufferWindow(long, 1)).toEqual([0, 3]);
    expect(bufferWindow(long, 2)).toEqual([5000 - 50 / 3, 5000]);
  });

  it('never shows more steps than the plan has', () => {
    expect(bufferWindow(oneLane, 1)).toEqual([0, 4]);
  });
});
