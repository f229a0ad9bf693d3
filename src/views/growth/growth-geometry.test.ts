import { describe, expect, it } from 'vitest';
import type { GrowthPoint } from '../../worker/protocol';
import { AXIS_LINE, axisTitle, cardCovers, cardPlace, GROWTH_MARGIN, GROWTH_PANEL_MIN, growthLayout, growthMinHeight, pointAt, type GrowthChartInput } from './growth-geometry';
import { growthSvg, panelTitle } from './growth-svg';

/** A point of one region, ram, with the bound at half the peak. */
function point(value: number, peak: number, more: Partial<GrowthPoint> = {}): GrowthPoint {
  return { value, peak, lowerBound: peak / 2, regions: [{ name: 'ram', peak, lowerBound: peak / 2 }], complete: true, fits: true, ...more };
}

function input(points: GrowthPoint[], sizeLimit?: number, current?: number): GrowthChartInput {
  return {
    points,
    regions: [{ name: 'ram', sizeLimit }],
    current: current === undefined ? undefined : { value: current, regions: [{ name: 'ram', peak: points.find((p) => p.value === current)?.peak ?? 0 }] },
  };
}

// A 466 × 236 box: the plot spans x 66..452 (386 px) and, under its 18 px title, y 24..206 (182 px).
const W = 466;
const H = 236;

describe('growthLayout', () => {
  it('puts powers of two evenly on a log scale and bytes linearly from 0 with 8% headroom', () => {
    const layout = growthLayout(input([point(1, 100), point(2, 200), point(4, 400), point(8, 800)]), W, H);
    expect(layout.scale).toBe('log');
    expect([1, 2, 4, 8].map((v) => layout.x(v))).toEqual([66, 66 + 386 / 3, 66 + (2 * 386) / 3, 452].map((v) => expect.closeTo(v, 6)));
    const [ram] = layout.panels;
    expect(ram).toMatchObject({ name: 'ram', top: GROWTH_MARGIN.top + GROWTH_MARGIN.title, height: 182, highest: 800 });
    expect(ram!.y(0)).toBeCloseTo(206, 6);
    expect(ram!.y(800 * 1.08)).toBeCloseTo(24, 6);
    expect(layout.xTicks).toEqual([1, 2, 4, 8]);
  });

  it('draws 0 apart, past a break, left of a log scale of the other values: no log scale holds 0', () => {
    const layout = growthLayout(input([0, 1, 2, 4, 8, 16, 32, 64].map((v) => point(v, 100 + v))), W, H, 'past_seq_len');
    expect(layout.scale).toBe('log');
    expect(layout.x(0)).toBe(66);
    expect(layout.breakAt).toBe(66 + 15);
    // The log scale starts 30 px right of 0: 1 to 64 evenly by powers of two over the rest of the plot.
    expect([1, 2, 4, 64].map((v) => layout.x(v))).toEqual([96, 96 + 356 / 6, 96 + (2 * 356) / 6, 452].map((v) => expect.closeTo(v, 6)));
    expect(layout.xTicks.slice(0, 2)).toEqual([0, 1]);
    const svg = growthSvg(input([0, 1, 2, 4, 8, 16, 32, 64].map((v) => point(v, 100 + v))), layout, W, H, { dim: 'past_seq_len' });
    expect(svg).toContain('past_seq_len (log scale; 0 set apart)');
    expect(svg).toMatch(/class="gr-break"[^>]*data-break="81.0"/);
    // The back is cut at the break, and the peak and bound lines start at 1: the 0 point is a dot alone.
    expect(svg.match(/class="gr-back"/g)).toHaveLength(2);
    expect(svg).toMatch(/class="gr-peak" d="M96.0,/);
    expect(svg).toMatch(/class="gr-bound" d="M96.0,/);
    expect(svg).toContain('data-value="0"');
  });

  it("names the x axis in one line where it fits, else the name over the scale's note, each within the box (the Growth pane is 214 px wide at 1280×720)", () => {
    const values = [0, 1, 2, 4, 8, 16].map((v) => point(v, 100 + v));
    const wide = growthLayout(input(values), W, H, 'past_sequence_length');
    expect(wide.axisTitle).toEqual(['past_sequence_length (log scale; 0 set apart)']);
    expect(wide.bottom).toBe(H - GROWTH_MARGIN.bottom);
    const narrow = growthLayout(input(values), 214, H, 'past_sequence_length');
    expect(narrow.axisTitle).toEqual(['past_sequence_length', '(log scale; 0 set apart)']);
    // The second line takes its room from the plots, not from the values under them.
    expect(narrow.bottom).toBe(H - GROWTH_MARGIN.bottom - AXIS_LINE);
    const svg = growthSvg(input(values), narrow, 214, H, { dim: 'past_sequence_length' });
    expect(svg).toContain(`y="${narrow.bottom + 26}" text-anchor="end" fill="#627084">past_sequence_length</text>`);
    expect(svg).toContain(`y="${narrow.bottom + 38}" text-anchor="end" fill="#627084">(log scale; 0 set apart)</text>`);
    // A name longer than a line (20 characters in 120 px) breaks after an underscore, never inside a word.
    expect(axisTitle('encoder_hidden_states_sequence_length', '(log scale)', 120)).toEqual(['encoder_hidden_', 'states_sequence_', 'length', '(log scale)']);
  });

  it('uses a linear scale from 0 when the other values do not span far, and over a narrow range', () => {
    const evenly = growthLayout(input([point(0, 1), point(16, 2)]), W, H);
    expect([evenly.scale, evenly.breakAt, evenly.x(0), evenly.x(8)]).toEqual(['linear', undefined, 66, 259]);
    const narrow = growthLayout(input([point(3, 1), point(5, 2)]), W, H);
    expect(narrow.scale).toBe('linear');
    expect(narrow.x(4)).toBeCloseTo(259, 6);
  });

  it('draws a size limit to scale near the curve, and leaves one far above it out', () => {
    const near = growthLayout(input([point(1, 100), point(8, 800)], 1000), W, H).panels[0]!;
    expect(near.limitShown).toBe(true);
    expect(near.highest).toBe(1000);
    const far = growthLayout(input([point(1, 100), point(8, 800)], 8 * 2 ** 20), W, H).panels[0]!;
    expect(far.limitShown).toBe(false);
    expect(far.highest).toBe(800);
  });

  it('stacks one panel per region that holds bytes, each on its own scale', () => {
    const two = (value: number): GrowthPoint => ({ ...point(value, 10 * value), regions: [{ name: 'sram', peak: 100, lowerBound: 100 }, { name: 'ext', peak: 10 * value, lowerBound: 5 * value }, { name: 'idle', peak: 0, lowerBound: 0 }] });
    const layout = growthLayout({ points: [two(1), two(64)], regions: [{ name: 'sram', sizeLimit: 128 }, { name: 'ext', sizeLimit: undefined }, { name: 'idle', sizeLimit: undefined }], current: undefined }, W, H);
    expect(layout.panels.map((p) => [p.name, p.highest])).toEqual([
      ['sram', 128],
      ['ext', 640],
    ]);
    const [a, b] = layout.panels;
    expect(b!.top).toBeCloseTo(a!.top + a!.height + GROWTH_MARGIN.gap + GROWTH_MARGIN.title, 6);
  });

  it('labels only values whose text does not run into the last one, keeping the last', () => {
    const values = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
    const layout = growthLayout(input(values.map((v) => point(v, v))), 300, H);
    expect(layout.xTicks.at(-1)).toBe(16384);
    const spans = tickSpans(layout);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] + 10);
  });

  it('keeps the last value\'s label inside the box, ended at its right edge, the labels before it clear of it', () => {
    // 1..100000 in a 287 px pane: centred on the plot's right end, "100000" ran 6 px past the box and read "10000".
    const values = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 100000];
    const layout = growthLayout(input(values.map((v) => point(v, v))), 287, H);
    expect(layout.xTicks.at(-1)).toBe(100000);
    expect(layout.xTickPlace(100000)).toEqual({ x: 287, anchor: 'end' });
    expect(layout.xTickPlace(1)).toEqual({ x: 66, anchor: 'middle' });
    const spans = tickSpans(layout);
    for (const [from, to] of spans) expect(from >= 0 && to <= 287).toBe(true);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] + 10);
    expect(growthSvg(input(values.map((v) => point(v, v))), layout, 287, H, { dim: 'past_seq_len' })).toMatch(/x="287.0" y="[\d.]+" text-anchor="end"[^>]*>100000</);
  });
});

/** The pixels each x label covers, at 6.5 px a character as the layout counts them. */
function tickSpans(layout: ReturnType<typeof growthLayout>): [number, number][] {
  return layout.xTicks.map((v) => {
    const width = String(v).length * 6.5;
    const { x, anchor } = layout.xTickPlace(v);
    const from = anchor === 'end' ? x - width : anchor === 'start' ? x : x - width / 2;
    return [from, from + width];
  });
}

describe('the value on screen on the x axis', () => {
  it('is labelled beyond the swept range, and the end of the axis is its value, not the last swept one', () => {
    const points = [3, 4, 8, 16, 32, 40].map((v) => point(v, v));
    const data: GrowthChartInput = { ...input(points), current: { value: 128, regions: [{ name: 'ram', peak: 676 }] } };
    const layout = growthLayout(data, W, H);
    expect(layout.xTicks.at(-1)).toBe(128);
    expect(layout.x(128)).toBeCloseTo(452, 6);
    expect(layout.xTicks).toContain(40);
    const svg = growthSvg(data, layout, W, H, { dim: 'seq_len' });
    expect(svg).toMatch(/class="gr-current-tick" x="452.0"[^>]*>128</);
  });

  it('is labelled inside the range, and the swept values whose labels it would overlap are left out', () => {
    const points = [1, 2, 4, 8, 16, 32, 64, 128].map((v) => point(v, v));
    const layout = growthLayout(input(points, undefined, 100), 200, H);
    expect(layout.xTicks).toContain(100);
    const at = layout.xTicks.map((v) => layout.x(v));
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual((String(layout.xTicks[i - 1]).length + String(layout.xTicks[i]).length) * 3.25 + 10);
  });
});

describe('panelTitle', () => {
  it('says the limit in the longest wording that fits, the whole one in its tooltip', () => {
    const full = 'ext-ram · limit 8.00 MiB (above the chart)';
    expect(panelTitle('ext-ram', 8 * 2 ** 20, false, 400)).toEqual({ shown: full, full });
    expect(panelTitle('ext-ram', 8 * 2 ** 20, false, 200).shown).toBe('ext-ram · limit 8.00 MiB ↑');
    expect(panelTitle('ext-ram', 8 * 2 ** 20, false, 140).shown).toBe('ext-ram ≤ 8.00 MiB ↑');
    expect(panelTitle('sram', 512 * 1024, true, 120).shown).toBe('sram ≤ 512 KiB');
    expect(panelTitle('ext-ram', 8 * 2 ** 20, false, 60).shown).toBe('ext-ram');
    expect(panelTitle('ext-ram', 8 * 2 ** 20, false, 30).shown).toBe('ext…');
    expect(panelTitle('ram', undefined, false, 30)).toEqual({ shown: 'ram', full: 'ram' });
  });
});

describe('pointAt', () => {
  const points = [point(1, 100), point(2, 200), point(4, 400), point(8, 800)];
  const layout = growthLayout(input(points), W, H);
  it('finds the nearest point by x anywhere in the plot height', () => {
    expect(pointAt(layout, points, 66, 100)).toBe(0);
    expect(pointAt(layout, points, 66 + 386 / 3 + 20, 30)).toBe(1);
    expect(pointAt(layout, points, 452 - 10, 200)).toBe(3);
  });
  it('finds none beyond the reach of the end points or above and below the plots', () => {
    expect(pointAt(layout, points, 66 - 60, 100)).toBeUndefined();
    expect(pointAt(layout, points, 200, 2)).toBeUndefined();
    expect(pointAt(layout, points, 200, H - 5)).toBeUndefined();
    expect(pointAt(layout, [], 200, 100)).toBeUndefined();
  });
});

describe('growthSvg', () => {
  it('draws a dot per point, hollow where the peak is a lower estimate, the limit and the value on screen', () => {
    const data = input([point(1, 100), point(2, 200, { complete: false, unknown: 'y: shape unknown' }), point(4, 400, { fits: false })], 300, 2);
    const svg = growthSvg(data, growthLayout(data, W, H, 'seq_len'), W, H, { dim: 'seq_len' });
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain('class="gr-dot gr-dot-open" cx="259.0"');
    expect(svg).toContain('gr-dot-over');
    expect(svg).toContain('data-limit="300"');
    expect(svg).toMatch(/class="gr-current" x1="259.0"/);
    expect(svg).toContain('ram · limit 300 B');
    expect(svg).toContain('seq_len (log scale)');
  });

  it('escapes names from the file and makes a whole document for the export', () => {
    const named = (v: number): GrowthPoint => point(v, v, { regions: [{ name: 'r<&>"', peak: v, lowerBound: v }] });
    const data: GrowthChartInput = { points: [named(1), named(4)], regions: [{ name: 'r<&>"', sizeLimit: undefined }], current: undefined };
    const svg = growthSvg(data, growthLayout(data, W, H), W, H, { dim: 'a\u0001b', standalone: true, title: 'm.onnx', titleHeight: 30 });
    expect(svg).toContain('r&lt;&amp;&gt;&quot;');
    expect(svg).toContain('a\ufffdb');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="growth-svg" width="466" height="266"/);
    expect(svg).not.toMatch(/[<>]&(?!amp;|lt;|gt;|quot;|apos;)/);
  });
});

describe('byte ticks', () => {
  const MiB = 2 ** 20;
  const labels = (highest: number, height = H) => {
    const panel = growthLayout(input([point(1, highest / 2), point(8, highest)]), W, height).panels[0]!;
    return { panel, shown: panel.ticks.map(panel.tickLabel) };
  };

  it('are round in the unit shown: a 125 MiB peak on a 182 px plot (axis to 135 MiB, four ticks asked) reads 0, 50, 100 MiB, not 62.5 and 125 MiB', () => {
    const { panel, shown } = labels(125 * MiB);
    expect(shown).toEqual(['0 B', '50 MiB', '100 MiB']);
    expect(panel.ticks).toEqual([0, 50 * MiB, 100 * MiB]);
    expect(panel.maxBytes).toBeGreaterThanOrEqual(125 * MiB);
    const svg = growthSvg(input([point(1, 60 * MiB), point(8, 125 * MiB)]), growthLayout(input([point(1, 60 * MiB), point(8, 125 * MiB)]), W, H), W, H, { dim: 'seq_len' });
    expect([...svg.matchAll(/class="gr-muted gr-byte-tick"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['0 B', '50 MiB', '100 MiB']);
  });

  it('are fewer on a short plot, at least 14 px apart, and whole bytes from 0', () => {
    const { panel, shown } = labels(7.83 * MiB, 120);
    // A 66 px plot asks for two ticks over 0..8.46 MiB: a step of 5 MiB.
    expect(panel.height).toBe(66);
    expect(shown).toEqual(['0 B', '5 MiB']);
    for (const highest of [3, 700, 300_000, 7.83 * MiB, 1.3 * 2 ** 30]) {
      for (const height of [60, 90, 236, 600]) {
        const { panel: p } = labels(highest, height);
        expect(p.ticks[0]).toBe(0);
        expect(p.ticks.every(Number.isInteger)).toBe(true);
        expect(p.ticks.at(-1)!).toBeLessThanOrEqual(p.maxBytes);
        for (let i = 1; i < p.ticks.length; i++) expect(p.y(p.ticks[i - 1]!) - p.y(p.ticks[i]!)).toBeGreaterThanOrEqual(14);
      }
    }
  });

  it('name only 0 for a region empty at every value, whose axis is drawn to 1 byte', () => {
    const { shown } = labels(0);
    expect(shown).toEqual(['0 B']);
  });
});

describe('cardPlace', () => {
  const layout = growthLayout(input([point(1, 100), point(8, 800)]), W, H);
  const card = { width: 230, height: 120 };
  it('puts the card right of the point, or flips it left of the point at the right end', () => {
    expect(cardPlace(layout, 100, [50], card, W)).toEqual({ left: 112, top: GROWTH_MARGIN.top + 4, width: 230, maxHeight: 206 - 10 });
    // 412 + 230 runs past 462: the card goes left of the point, 12 px away.
    expect(cardPlace(layout, 400, [50], card, W).left).toBe(400 - 12 - 230);
  });

  it('in a plot narrower than the card, narrows it to the plot and keeps it right of the byte labels', () => {
    // The Growth pane at 1280×720: a 214 px box, a plot from 66 to 200.
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    for (const x of [66, 130, 200]) expect(cardPlace(narrow, x, [180], card, 214)).toEqual({ left: 70, top: 10, width: 140, maxHeight: 196 });
  });

  it('over its point, goes to the bottom of the plot when at the top it would hide a dot of the point', () => {
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    // A dot at y 40 is under a card from 10 to 130: the card goes to 206 - 4 - 120 = 82.
    expect(cardPlace(narrow, 190, [40], card, 214)).toEqual({ left: 70, top: 82, width: 140, maxHeight: 124 });
    // A dot under both places: the top.
    expect(cardPlace(narrow, 190, [40, 120], card, 214).top).toBe(10);
    // Beside its point, the card stays at the top.
    expect(cardPlace(layout, 100, [40], card, W).top).toBe(10);
  });

  it('places the card by the rule that says whether it covers a dot, so a place that rule calls clear is never left for one it does not', () => {
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    // A dot at 71 is under a card at the top (10 to 130) and shows, ring and all, 11 px above one at the bottom (82 to 202): the bottom.
    const at = cardPlace(narrow, 190, [71], card, 214);
    expect(at.top).toBe(82);
    expect(cardCovers(at, card.height, 190, [71])).toBe(false);
    // Wherever the dot is, a card at the top or at the bottom that would show it is chosen over one that would not.
    for (let y = narrow.panels[0]!.top; y <= narrow.bottom; y += 1) {
      const top = { left: 70, top: 10, width: 140, maxHeight: 196 };
      const bottom = { left: 70, top: 82, width: 140, maxHeight: 124 };
      const clearSomewhere = !cardCovers(top, card.height, 190, [y]) || !cardCovers(bottom, card.height, 190, [y]);
      const placed = cardPlace(narrow, 190, [y], card, 214);
      if (clearSomewhere) expect(cardCovers(placed, card.height, 190, [y]), `dot at ${y}`).toBe(false);
    }
  });

  it('narrows a card that hides its dot at the top, at the bottom and above the plot to the wider side of the point, beside it', () => {
    // The Growth pane at 1280×800, the mouse on the last point (x 200): a card 110 px tall over it hides its dot at 90 at the top
    // (10 to 120) and at the bottom (92 to 202), and there is no room above the plot.
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    const tall = { width: 230, height: 110 };
    const at = cardPlace(narrow, 200, [90], tall, 214);
    expect(at).toEqual({ left: 70, top: 10, width: 200 - 12 - 70, maxHeight: 196 });
    expect(cardCovers(at, tall.height, 200, [90])).toBe(false);
    // In the middle of the plot neither side has 96 px: the card stays over the point, at the top.
    expect(cardPlace(narrow, 135, [90], tall, 214)).toMatchObject({ left: 70, width: 140, top: 10 });
  });

  it('moves a card taller than the plot below it up over what is above the chart, as high as the pane, so it ends above the values', () => {
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    const tall = { width: 230, height: 240 };
    // The pane reaches 100 px above the chart: the card ends 12 px above the point's dot at 180, its top at 180 - 12 - 240 = -72, above the values.
    expect(cardPlace(narrow, 130, [180], tall, 214, -100)).toEqual({ left: 70, top: -72, width: 140, maxHeight: 278 });
    // Its dot higher up leaves no room above it: the card ends 4 px above the values (206 - 4 - 240 = -38), as high as it can.
    expect(cardPlace(narrow, 130, [100], tall, 214, -100)).toEqual({ left: 70, top: -38, width: 140, maxHeight: 244 });
    // With 20 px above the chart, it goes as high as the pane allows and is cut at the plot's bottom.
    expect(cardPlace(narrow, 130, [180], tall, 214, -20)).toEqual({ left: 70, top: -16, width: 140, maxHeight: 222 });
    // With no room above the chart given, it stays at the plot's top.
    expect(cardPlace(narrow, 130, [180], tall, 214).top).toBe(10);
  });

  it("over its point, when both the plot's top and its bottom would hide its dot, ends the card just above the dot, over what is above the plot", () => {
    // The Growth pane at 1280×800 with the keyboard on a point: a card 150 px tall over a plot 182 px tall, the dot at 150.
    const narrow = growthLayout(input([point(1, 100), point(8, 800)]), 214, H);
    const card150 = { width: 230, height: 150 };
    const c = cardPlace(narrow, 130, [150], card150, 214, -100);
    expect(c).toEqual({ left: 70, top: 150 - 12 - 150, width: 140, maxHeight: 206 + 12 });
    expect(c.top + card150.height).toBeLessThan(150);
    // Too little room above the chart for that: it stays at the plot's top, as before.
    expect(cardPlace(narrow, 130, [150], card150, 214, -10).top).toBe(10);
  });

  it('says whether a card, cut at its maxHeight, covers a dot of its point or the ring round it', () => {
    const at = { left: 70, top: 10, width: 140, maxHeight: 100 };
    expect(cardCovers(at, 120, 130, [50])).toBe(true);
    // the card is cut at 110: a dot at 117 shows, its ring just clear
    expect(cardCovers(at, 120, 130, [117])).toBe(false);
    expect(cardCovers(at, 120, 130, [116])).toBe(true);
    // beside the card, a dot at any height shows
    expect(cardCovers(at, 120, 218, [50])).toBe(false);
    expect(cardCovers(at, 120, 216, [50])).toBe(true);
    expect(cardCovers(at, 120, 130, [])).toBe(false);
  });

  it('never reaches left of the plot, past the box or below the plot, wherever the point is', () => {
    for (const width of [120, 214, 300, 466, 900]) {
      const l = growthLayout(input([point(1, 100), point(8, 800)]), width, H);
      for (let x = l.left; x <= l.right; x += 7) {
        for (const y of [l.panels[0]!.top, 100, l.bottom]) {
          const c = cardPlace(l, x, [y], card, width);
          expect(c.left).toBeGreaterThanOrEqual(l.left);
          expect(c.left + c.width).toBeLessThanOrEqual(Math.max(l.left + 5, width - 4));
          expect(c.top + c.maxHeight).toBeLessThanOrEqual(l.bottom);
        }
      }
    }
  });
});

describe('growthMinHeight', () => {
  it('gives each drawn region a panel GROWTH_PANEL_MIN tall under its title, with a byte tick above 0', () => {
    const one = input([point(1, 1000), point(1024, 9000)], 20_000);
    const two: GrowthChartInput = {
      ...one,
      regions: [...one.regions, { name: 'ext-ram', sizeLimit: 1 << 23 }],
    };
    for (const chart of [one, two]) {
      const layout = growthLayout(chart, 300, growthMinHeight(chart), 'seq_len');
      expect(layout.panels.length).toBe(chart.regions.length);
      for (const p of layout.panels) {
        expect(p.height).toBeGreaterThanOrEqual(GROWTH_PANEL_MIN);
        // ext-ram holds nothing at any value: its axis names 0 alone
        if (p.name === 'ram') expect(p.ticks.length).toBeGreaterThan(1);
      }
    }
    expect(growthMinHeight(two) - growthMinHeight(one)).toBe(GROWTH_PANEL_MIN + GROWTH_MARGIN.title + GROWTH_MARGIN.gap);
  });
});
