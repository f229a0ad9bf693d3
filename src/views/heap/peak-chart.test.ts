import { describe, expect, it } from 'vitest';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { syntheticPlan } from './synthetic-plan';
import { bucketMax, peakChartData } from './peak-chart-data';
import { chartKeyLines, peakChartSvg, regionHeader, rowLabels, rowsHeading, rowsKept, rowsThatFit } from './peak-chart-svg';
import { regionPlan, laneHeight, drawnRegions } from './heap-regions';

const buffer = (id: number, kind: PlannedBuffer['kind'], region: string, start: number, end: number, offset: number, size: number, alias?: PlannedBuffer['alias']): PlannedBuffer => ({
  id, name: `b${id}`, kind, size, bytes: size, start, end, offset, region, ...(alias && { alias }),
});

/** dram: an activation [0,3), scratch [1,2), an output [2,4) and an alias of the activation; sram: a cache [0,4). */
function plan(): ModelPlan {
  const base = syntheticPlan(4, 3);
  const waste = base.waste;
  return {
    ...base,
    steps: base.steps.slice(0, 4),
    buffers: [
      buffer(0, 'activation', 'dram', 0, 3, 0, 64),
      buffer(1, 'scratch', 'dram', 1, 2, 64, 16),
      buffer(2, 'output', 'dram', 2, 4, 80, 8),
      buffer(3, 'activation', 'dram', 1, 3, 0, 64, { parent: 0, offset: 0, rule: 'in-place' }),
      buffer(4, 'cache', 'sram', 0, 4, 0, 32),
    ],
    regions: [
      { name: 'dram', peak: 88, lowerBound: 80, optimal: false, fast: false, overBy: 0, peakStep: 1, waste },
      { name: 'sram', peak: 32, lowerBound: 32, optimal: true, fast: true, overBy: 0, waste },
      { name: 'empty', peak: 0, lowerBound: 0, optimal: true, fast: true, overBy: 0, waste },
    ],
  };
}

describe('peak chart data', () => {
  it('counts live bytes per step per kind and region, graph outputs as I/O (as the heap colours them) and shared bytes once', () => {
    const data = peakChartData(plan());
    expect(data.steps).toBe(4);
    expect(data.kinds).toEqual(['activation', 'io', 'scratch', 'cache']);
    expect(data.regions.map((r) => r.name)).toEqual(['dram', 'sram']);
    const dram = data.regions[0]!;
    expect([...dram.total]).toEqual([64, 80, 72, 8]);
    expect([...dram.byKind.activation]).toEqual([64, 64, 64, 0]);
    expect([...dram.byKind.io]).toEqual([0, 0, 8, 8]);
    expect([...dram.byKind.scratch]).toEqual([0, 16, 0, 0]);
    expect(dram.peakStep).toBe(1);
    const sram = data.regions[1]!;
    expect([...sram.byKind.cache]).toEqual([32, 32, 32, 32]);
    // No peak step in the plan: the first step of the most live bytes.
    expect(sram.peakStep).toBe(0);
  });

  it('gives the headroom: the largest free block at each step, in the size limit or else the arena', () => {
    const data = peakChartData(plan());
    const [dram, sram] = data.regions;
    // dram spans 88 B: [64,88) free at 0; [80,88) beside the scratch at 1; [64,80) between the activation and the output at 2; [0,80) at 3
    expect([dram!.capacity, ...dram!.largestFree]).toEqual([88, 24, 8, 16, 80]);
    expect([...sram!.largestFree]).toEqual([0, 0, 0, 0]);
    const limited = plan();
    const withLimit = { ...limited, regions: limited.regions.map((r) => (r.name === 'sram' ? { ...r, sizeLimit: 48 } : r)) };
    expect([...peakChartData(withLimit).regions[1]!.largestFree]).toEqual([16, 16, 16, 16]);
    // TensorFlow Lite Micro's tail (or weights at the base) takes its bytes of the limit: 48 B less a 16 B tail leaves no block
    // beside sram's 32 B cache (person_detect on tflm read "largest free block 10.0 KiB of 64.0 KiB" with a 26.4 KiB tail)
    const withTail = { ...limited, regions: limited.regions.map((r) => (r.name === 'sram' ? { ...r, sizeLimit: 48, runtimeTail: 16 } : r)) };
    const tailed = peakChartData(withTail).regions[1]!;
    expect([tailed.capacity, ...tailed.largestFree]).toEqual([32, 0, 0, 0, 0]);
  });

  it('counts shared bytes for as long as any buffer in them is live: an in-place output outliving its root, concat windows before their concat', () => {
    const base = plan();
    const waste = base.waste;
    const alias = (parent: number, offset: number) => ({ parent, offset, rule: 'in-place' }) as const;
    const shared: ModelPlan = {
      ...base,
      buffers: [
        buffer(0, 'activation', 'dram', 0, 2, 0, 64), // Conv's output, read by the Relu at step 1
        buffer(1, 'activation', 'dram', 1, 3, 0, 64, alias(0, 0)), // the Relu's output in place, read at step 2
        buffer(2, 'activation', 'dram', 2, 3, 64, 32), // the next Conv's output
        buffer(3, 'activation', 'dram', 3, 4, 96, 48), // a concat, written at step 3
        buffer(4, 'activation', 'dram', 1, 4, 96, 16, alias(3, 0)), // its inputs, written into it earlier
        buffer(5, 'activation', 'dram', 2, 4, 112, 16, alias(3, 16)),
      ],
      regions: [{ name: 'dram', peak: 144, lowerBound: 128, optimal: false, fast: true, overBy: 0, peakStep: 2, waste }],
    };
    const dram = peakChartData(shared).regions[0]!;
    // step 1: the Relu's bytes are the Conv's (once) and the first window; step 2: the Relu's, the next Conv's and both windows
    expect([...dram.total]).toEqual([64, 80, 128, 48]);
    expect(dram.total[dram.peakStep!]).toBe(128);
  });

  it('marks the peak and the live bytes as lower estimates when some tensor size is unknown', () => {
    const known = peakChartSvg(peakChartData(plan()), { width: 400, height: 300 });
    const unknown = peakChartSvg(peakChartData({ ...plan(), complete: false }), { width: 400, height: 300 });
    expect(known).toContain('peak 88 B · bound 80 B');
    expect(known).not.toContain('≥');
    expect(unknown).toContain('peak ≥ 88 B · bound 80 B');
    expect(unknown).toContain('total · ≥ 80 B at peak');
    expect(unknown).toContain('sizes known only');
  });

  it('keeps the largest value of each run of steps when there are more steps than columns', () => {
    expect(bucketMax(Float64Array.from([1, 9, 2, 3, 8, 0, 4]), 3)).toEqual([
      { step: 0, bytes: 9 },
      { step: 3, bytes: 8 },
      { step: 6, bytes: 4 },
    ]);
  });

  it('draws one cell per region and row (total, then each kind) with peak and bound lines', () => {
    const svg = peakChartSvg(peakChartData(plan()), { width: 400, height: 300, standalone: true });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/class="pc-cell"/g)).toHaveLength(2 * 5);
    expect(svg.match(/class="pc-peak"/g)).toHaveLength(2 * 5);
    expect(svg.match(/class="pc-bound"/g)).toHaveLength(2 * 5);
    expect(svg).toContain('peak 88 B · bound 80 B');
    expect(svg).toContain('scratch · 16 B at peak');
    expect(svg.match(/class="pc-free"/g)).toHaveLength(2); // the total cell of each region
    expect(svg).toContain('dram: peak 88 B, lower bound 80 B at step 1, largest free block there 8 B of 88 B');
    expect(svg).not.toContain('style=');
  });
});

describe('a chart too short for its rows', () => {
  it("keeps each region's block to its share of the height, leaving out rows it has no room for and naming them (GPT-2 on mcu at 1024×640)", () => {
    const [width, height] = [150, 200];
    const svg = peakChartSvg(peakChartData(plan()), { width, height });
    const blocks = svg.split('<g class="pc-region"').slice(1);
    expect(blocks).toHaveLength(2); // stacked: one column at 150 px
    blocks.forEach((block, k) => {
      const [top, bottom] = [(k * height) / 2, ((k + 1) * height) / 2];
      const texts = [...block.matchAll(/<text [^>]*y="([\d.]+)"[^>]*>([^<]*)</g)].map((m) => ({ y: Number(m[1]), text: m[2]! }));
      const cells = [...block.matchAll(/class="pc-back" [^>]*y="([\d.]+)" [^>]*height="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[1]) + Number(m[2])] as const);
      // a label's baseline sits above its block's bottom with room for its descent; every cell ends inside it
      for (const t of texts) expect(t.y, t.text).toBeGreaterThan(top);
      for (const t of texts) expect(t.y + 3, t.text).toBeLessThanOrEqual(bottom);
      for (const [from, to] of cells) expect([from >= top, to <= bottom]).toEqual([true, true]);
      // five rows (total and four kinds) do not fit in 100 px: the first stay, the rest are named
      expect(cells.length).toBeGreaterThan(0);
      expect(cells.length).toBeLessThan(5);
      expect(block).toContain(`data-rows="5" data-shown="${cells.length}"`);
      expect(texts.some((t) => /^\d (rows? )?left out/.test(t.text))).toBe(true);
    });
    // tall enough, every row is drawn and nothing is left out
    expect(peakChartSvg(peakChartData(plan()), { width, height: 800 })).not.toContain('left out');
  });

  it('shows every row while each cell keeps its least height, else the rows that do above a line for the rest', () => {
    expect(rowsThatFit(3, 3 * (13 + 6 + 20))).toEqual({ shown: 3, cellHeight: 20 });
    expect(rowsThatFit(3, 80)).toEqual({ shown: 2, cellHeight: (80 - 13 - 2 * 19) / 2 });
    expect(rowsThatFit(3, 20)).toEqual({ shown: 0, cellHeight: 0 });
  });
});

describe('one region at a time', () => {
  it('keeps one region of the plan and says how tall each lane would be', () => {
    const p = plan();
    expect(drawnRegions(p)).toEqual(['dram', 'sram']);
    const one = regionPlan(p, 'sram');
    expect(one.buffers.map((b) => b.id)).toEqual([4]);
    expect(regionPlan(p, 'sram')).toBe(one);
    expect(laneHeight(400, 1)).toBeGreaterThan(laneHeight(400, 3) * 2.5);
  });
});

describe("a region's header over the peak chart", () => {
  it('keeps both figures on one line when they fit', () => {
    expect(regionHeader('sram', '456 KiB', '456 KiB', 40)).toEqual({ name: 'sram', figures: ['peak 456 KiB · bound 456 KiB'] });
  });

  it('gives each figure a line rather than cutting "bound 4.85 MiB" (squeezenet on mcu, the chart beside the heap at 1280 and 1600)', () => {
    const h = regionHeader('ext-ram', '4.85 MiB', '4.85 MiB', 22);
    expect(h).toEqual({ name: 'ext-ram', figures: ['peak 4.85 MiB', 'bound 4.85 MiB'] });
  });

  it('cuts only a column too narrow for one figure', () => {
    expect(regionHeader('ext-ram', '4.85 MiB', '4.85 MiB', 12).figures).toEqual(['peak 4.85 M…', 'bound 4.85 …']);
  });

  it("labels a row with the longest wording that fits whole, never 'activation · 3.58 MiB at pe…'", () => {
    expect(rowLabels([{ word: 'activation', atPeak: '3.58 MiB' }], 40)).toEqual(['activation · 3.58 MiB at peak']);
    expect(rowLabels([{ word: 'activation', atPeak: '3.58 MiB' }], 27)).toEqual(['activation 3.58 MiB at peak']);
    expect(rowLabels([{ word: 'activation', atPeak: '3.58 MiB' }], 25)).toEqual(['activation 3.58 MiB @peak']);
    expect(rowLabels([{ word: 'total', atPeak: '4.85 MiB', largestFree: '12 KiB' }], 60)).toEqual(['total · 4.85 MiB at peak · largest free 12 KiB']);
    expect(rowLabels([{ word: 'total', atPeak: '4.85 MiB', largestFree: '12 KiB' }], 30)).toEqual(['total · 4.85 MiB at peak']);
  });

  it("gives every row one wording: never 'activation 2.93 MiB' beside 'I/O · 0 B at peak'", () => {
    const rows = [
      { word: 'total', atPeak: '2.93 MiB', largestFree: '0 B' },
      { word: 'activation', atPeak: '2.93 MiB' },
      { word: 'I/O', atPeak: '0 B' },
      { word: 'copy', atPeak: '0 B' },
    ];
    expect(rowLabels(rows, 28)).toEqual(['total 2.93 MiB at peak', 'activation 2.93 MiB at peak', 'I/O 0 B at peak', 'copy 0 B at peak']);
    expect(rowLabels(rows, 25)).toEqual(['total 2.93 MiB @peak', 'activation 2.93 MiB @peak', 'I/O 0 B @peak', 'copy 0 B @peak']);
  });

  it("says of every row's figure that it is the bytes at the peak step, however narrow: never a bare 'I/O 0 B' beside a bar that is not zero", () => {
    const rows = [{ word: 'total', atPeak: '35.3 KiB' }, { word: 'I/O', atPeak: '0 B' }];
    for (const chars of [20, 21, 22, 26, 40]) {
      for (const label of rowLabels(rows, chars)) expect(label, `at ${chars} characters`).toMatch(/(at peak|@peak)$/);
      expect(rowsHeading(rows, chars)).toBeUndefined();
    }
    // Narrower, the column says it once over the rows (person_detect's "activation 54.0 KiB" beside the heap at 1280).
    const narrow = [{ word: 'activation', atPeak: '54.0 KiB' }, { word: 'I/O', atPeak: '0 B' }];
    expect(rowLabels(narrow, 22)).toEqual(['activation 54.0 KiB', 'I/O 0 B']);
    expect(rowsHeading(narrow, 22)).toBe('rows at peak:');
    const svg = peakChartSvg(peakChartData(plan()), { width: 120, height: 400 });
    expect(svg).toContain('>rows at peak:</text>');
    const labels = [...svg.matchAll(/<text class="pc-muted"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!).filter((t) => /^(total|activation|I\/O|copy) /.test(t));
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.every((t) => !/(at peak|@peak)$/.test(t))).toBe(true);
  });

  it('labels the rows of the sample chart at the width of a 1600 px page with one wording', () => {
    const labels = [...peakChartSvg(peakChartData(plan()), { width: 150, height: 400 }).matchAll(/<text class="pc-muted"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!).filter((t) => !/^(peak|bound) /.test(t));
    expect(labels.length).toBeGreaterThan(1);
    const shapes = new Set(labels.map((t) => t.replace(/^(total|activation|I\/O|KV cache|scratch|cache|copy)/, 'K').replace(/[\d.]+ (B|KiB|MiB)/, 'N').replace(/ · largest free .*/, '')));
    expect([...shapes]).toHaveLength(1);
  });

  it('draws the figures it gave, each whole, in a chart narrower than both on one line', () => {
    const svg = peakChartSvg(peakChartData(plan()), { width: 130, height: 400 });
    expect(svg).toContain('>peak 88 B<');
    expect(svg).toContain('>bound 80 B<');
  });
});

describe("the chart's key", () => {
  it('names the largest free block only when a drawn row draws it: a block too short for its total row keeps a KV cache and draws none', () => {
    // b2 is a decoder's KV cache (a graph output named so), live at dram's peak step: a block with room for one row keeps
    // it and leaves out the total, the only row with the dotted line
    const p = plan();
    const dram = { ...p, buffers: p.buffers.filter((b) => b.region === 'dram'), regions: [{ ...p.regions[0]!, peakStep: 2 }] };
    const data = peakChartData(dram, new Set(['b2']));
    const width = 150;
    const seen = new Set<string>();
    for (let height = 40; height <= 800; height += 4) {
      const svg = peakChartSvg(data, { width, height });
      const lines = chartKeyLines(data, { width, height });
      expect(lines.includes('free'), `free at ${height} px`).toBe(svg.includes('class="pc-free"'));
      expect(lines.includes('bound'), `bound at ${height} px`).toBe(svg.includes('class="pc-bound"'));
      seen.add(lines.join(','));
    }
    // too short for any row, the KV cache alone, then the total beside it
    expect([...seen].sort()).toEqual(['', 'bound', 'bound,free']);
  });
});

describe('rowsKept', () => {
  const bytes = (figures: Partial<Record<string, number>>) => (row: string) => figures[row] ?? 0;

  it("keeps a decoder's KV cache first, then the total, then the kinds by their bytes at the peak, in drawing order", () => {
    const rows = ['total', 'activation', 'io', 'kv'] as const;
    const atPeak = bytes({ total: 300, activation: 100, io: 50, kv: 150 });
    expect(rowsKept(rows, 1, atPeak)).toEqual(['kv']);
    expect(rowsKept(rows, 2, atPeak)).toEqual(['total', 'kv']);
    expect(rowsKept(rows, 3, atPeak)).toEqual(['total', 'activation', 'kv']);
    expect(rowsKept(rows, 4, atPeak)).toEqual(rows);
    expect(rowsKept(rows, 0, atPeak)).toEqual([]);
    // of equal bytes, the kind most particular to the model first
    expect(rowsKept(['total', 'activation', 'scratch'], 2, bytes({ total: 20, activation: 10, scratch: 10 }))).toEqual(['total', 'scratch']);
  });

  it("draws in each region's block the rows that make up that region's peak", () => {
    // dram at its peak step 1: activation 64 B, scratch 16 B, I/O and cache none; sram: its cache alone
    const data = peakChartData(plan());
    let svg = '';
    for (let height = 60; height <= 800 && !/data-shown="3"/.test(svg); height += 2) svg = peakChartSvg(data, { width: 400, height });
    const block = (name: string) => svg.split('<g class="pc-region"').find((b) => b.startsWith(` data-region="${name}"`)) ?? '';
    const kinds = (name: string) => [...block(name).matchAll(/class="pc-cell" data-kind="([a-z]+)"/g)].map((m) => m[1]);
    expect(kinds('dram')).toEqual(['total', 'activation', 'scratch']);
    // sram holds its cache alone: the other rows hold nothing at any step, scratch is first of them
    expect(kinds('sram')).toEqual(['total', 'scratch', 'cache']);
    expect(block('dram')).toContain('2 rows left out, no room: I/O, cache');
  });

  it('leaves out first the rows with no bytes at the peak, a KV cache among them', () => {
    // GPT-2 past on mcu: sram's 504 KiB at its peak is mostly I/O; the block kept "KV cache · 0 B at peak" and left out I/O
    const gpt2 = ['total', 'activation', 'io', 'kv', 'scratch'] as const;
    const sram = bytes({ total: 516_096, io: 400_000, activation: 100_000, scratch: 16_096 });
    expect(rowsKept(gpt2, 2, sram)).toEqual(['total', 'io']);
    expect(rowsKept(gpt2, 3, sram)).toEqual(['total', 'activation', 'io']);
    expect(rowsKept(gpt2, 4, sram)).toEqual(['total', 'activation', 'io', 'scratch']);
    // ultraface on mcu: copy holds nothing at the peak, activation 3.52 MiB; copy was kept, activation left out
    const ultraface = ['total', 'activation', 'io', 'copy', 'scratch'] as const;
    const ext = bytes({ total: 3_800_000, activation: 3_690_000, io: 100_000, scratch: 10_000 });
    expect(rowsKept(ultraface, 2, ext)).toEqual(['total', 'activation']);
    expect(rowsKept(ultraface, 4, ext)).toEqual(['total', 'activation', 'io', 'scratch']);
    // rows with none at the peak, the one holding most at another step first
    const ultrafaceSram = bytes({ total: 518_000, scratch: 518_000 });
    expect(rowsKept(ultraface, 3, ultrafaceSram, bytes({ activation: 300_000, io: 150_000 }))).toEqual(['total', 'activation', 'scratch']);
  });
});
