import { describe, expect, it } from 'vitest';
import { heapData } from './heap-data';
import { heapLayout, MARGIN } from './heap-geometry';
import { axisClip, fitLaneTitle, laneTitleWidth, TICK_OVERHANG, ticksApart, ticksClearOfTitle, TITLE_LEFT } from './lane-title';
import { heapBuffer, heapPlan } from '../testing/heap-plans';

/** 6 px a character, as a fixed-width font would measure. */
const chars = (text: string): number => text.length * 6;

describe('fitLaneTitle', () => {
  it('keeps every fact while it fits, then shorter words, then fewer facts', () => {
    // "ram · peak 2.93 MiB · lower bound 2.93 MiB" is 42 characters: 252 px
    expect(fitLaneTitle('ram', '2.93 MiB', '2.93 MiB', 252, chars)).toBe('ram · peak 2.93 MiB · lower bound 2.93 MiB');
    expect(fitLaneTitle('ram', '2.93 MiB', '2.93 MiB', 251, chars)).toBe('ram · peak 2.93 MiB · bound 2.93 MiB');
    expect(fitLaneTitle('ram', '2.93 MiB', '2.93 MiB', 200, chars)).toBe('ram · peak 2.93 MiB');
    expect(fitLaneTitle('ram', '2.93 MiB', '2.93 MiB', 100, chars)).toBe('ram');
  });

  it("says the drawing is heapscope's placement when the runtime runs the file's own plan, before the bound and after the peak", () => {
    const fit = (width: number): string => fitLaneTitle('arena', '154 KiB', '154 KiB', width, chars, true);
    expect(fit(1000)).toBe("arena · heapscope's placement · peak 154 KiB · lower bound 154 KiB");
    expect(fit(45 * 6)).toBe("arena · heapscope's placement · peak 154 KiB");
    expect(fit(30 * 6)).toBe("arena · heapscope's placement");
    expect(fit(25 * 6)).toBe('arena · peak 154 KiB');
    expect(fitLaneTitle('arena', '154 KiB', '154 KiB', 45 * 6, chars)).toBe('arena · peak 154 KiB · lower bound 154 KiB');
  });

  it('cuts a name too wide alone with an ellipsis to fit, and a long name in any wording', () => {
    expect(fitLaneTitle('external-sram', '1 KiB', '1 KiB', 48, chars)).toBe('externa…');
    expect(fitLaneTitle('external-sram', '1 KiB', '1 KiB', 1, chars)).toBe('e…');
    const long = 'r'.repeat(5000);
    expect(fitLaneTitle(long, '1 KiB', '1 KiB', 10_000, chars)).toBe(`${'r'.repeat(40)}… · peak 1 KiB · lower bound 1 KiB`);
  });
});

describe('the lane title and the axis clip in a layout', () => {
  const data = heapData(heapPlan([{ name: 'ram', peak: 100 }], [heapBuffer(0, 'ram', 0, 2, 0, 60), heapBuffer(1, 'ram', 1, 3, 60, 40)], 4));
  const layout = heapLayout(data, 450, 420);

  it('gives the title the width of the diagram but its edges, not only the plot', () => {
    expect(laneTitleWidth(layout)).toBe(450 - TITLE_LEFT - MARGIN.right);
    expect(laneTitleWidth(layout)).toBeGreaterThan(layout.plot.width);
  });

  it('clips the axes below the plot by a tick label\'s overhang, inside the gap above the curve', () => {
    const clip = axisClip(layout);
    const bottom = layout.plot.top + layout.plot.height; // the lowest lane's 0 B tick
    expect(clip.y).toBe(layout.plot.top);
    expect(clip.y + clip.height).toBe(bottom + TICK_OVERHANG);
    expect(clip.y + clip.height).toBeLessThanOrEqual(layout.curve.top);
  });
});

describe('ticksClearOfTitle', () => {
  it("leaves out a tick whose label would reach the lane title: 756 KiB peak, ticks to 800 KiB just under the lane's top edge", () => {
    // a lane from y = 24 (its top, 810 KiB with headroom) to y = 224 (0 B); the title's letters end 1 px above the top, at 23
    const position = (v: number) => 224 - (v / (810 * 1024)) * 200;
    const ticks = [0, 200, 400, 600, 800].map((k) => k * 1024);
    // 800 KiB is at y 26.5: its label reaches up to 19.5, into the title
    expect(position(800 * 1024) - TICK_OVERHANG).toBeLessThan(23);
    expect(ticksClearOfTitle(ticks, position, 24)).toEqual(ticks.slice(0, 4));
    // a label that ends at the title's bottom stays; a tenth of a pixel higher, it goes
    expect(ticksClearOfTitle([1], () => 30, 24)).toEqual([1]);
    expect(ticksClearOfTitle([1], () => 29.9, 24)).toEqual([]);
  });
});

describe('ticksApart', () => {
  it('keeps 0 B and leaves out a tick whose label would be printed over it: sram of ultraface on mcu in a 15 px lane', () => {
    // 0 to 540 KiB over 15 px: 200 KiB is 5.6 px above 0 B, its label over "0 B"
    const position = (v: number) => 100 - (v / (540 * 1024)) * 15;
    expect(ticksApart([0, 200 * 1024], position)).toEqual([0]);
    // in a 100 px lane they stand 37 px apart, both kept
    const tall = (v: number) => 100 - (v / (540 * 1024)) * 100;
    expect(ticksApart([0, 200 * 1024, 400 * 1024], tall)).toEqual([0, 200 * 1024, 400 * 1024]);
    // exactly a label's height apart is clear; a tenth of a pixel closer is not
    expect(ticksApart([0, 1, 2], (v) => 50 - v * 2 * TICK_OVERHANG)).toEqual([0, 1, 2]);
    expect(ticksApart([0, 1, 2], (v) => 50 - v * (2 * TICK_OVERHANG - 0.1))).toEqual([0, 2]);
  });
});
