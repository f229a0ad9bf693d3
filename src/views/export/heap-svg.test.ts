import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { formatBytes } from '../../shared/format';
import { planModel } from '../../planner/plan';
import { applyTargetChange } from '../../planner/explain/target-change';
import { presetTarget } from '../../planner/targets/presets';
import { planForSettings } from '../../worker/plan/settings';
import { heapSvg } from './heap-svg';
import { growthExport } from '../growth/growth-svg';
import { llamaModel, LLAMA_80 } from '../../model/testing/llama-model';
import { kvCacheNames } from '../kv-cache-names';
import { CLASS_COLOURS } from '../heap/buffer-classes';
import { syntheticPlan } from '../heap/synthetic-plan';
import { LABEL_MIN, MAX_LABELS } from '../heap/buffer-marks';
import { GraphBuilder } from '../../model/testing/onnx-writer';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)));

function samplePlan(target: string) {
  return planForSettings(inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} }), { target, strategy: undefined });
}

/** The y of the first <line> inside `svg`'s part that starts with `marker`. */
function lineY(svg: string, marker: RegExp): number {
  const at = svg.search(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  return Number(/<line [^>]*y1="([\d.]+)"/.exec(svg.slice(at))![1]);
}

describe('heap SVG of a plan over its size limit', () => {
  // mcu without spilling keeps every activation in its 512 KiB SRAM, 2.63 MiB over (with spilling the sample fits).
  const plan = planModel(inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} }), applyTargetChange(presetTarget('mcu'), { spill: 'off' }));
  const sram = plan.regions.find((r) => r.name === 'sram')!;
  const svg = heapSvg(plan, { title: 'sample.onnx' });
  const lane = svg.slice(svg.indexOf('<g data-region="sram">'), svg.indexOf('</g>', svg.indexOf('<g data-region="sram">')));

  it('states the verdict under the title and the limit and how far over in the lane title row, as the screen does', () => {
    expect(sram.overBy).toBeGreaterThan(0);
    expect(svg).toContain(`data-verdict="over">Does not fit: sram needs ${formatBytes(sram.peak)}, ${formatBytes(sram.overBy)} over its ${formatBytes(sram.sizeLimit)} limit</text>`);
    expect(lane).toContain(`data-limit-label="true">limit ${formatBytes(sram.sizeLimit)} · over by ${formatBytes(sram.overBy)}</text>`);
  });

  it("puts the limit's label in the title row, at its right end, above the lane: it covers no buffer and no buffer's name is left out for it", () => {
    const laneTop = Number(/<rect x="\d+" y="([\d.]+)" width="[\d.]+" height="[\d.]+" fill="[^"]+"\/>/.exec(lane)![1]);
    const label = /<text x="([\d.]+)" y="([\d.]+)" text-anchor="end"[^>]*data-limit-label="true">/.exec(lane)!;
    expect(Number(label[2])).toBeLessThan(laneTop);
    // Title and label on one baseline.
    expect(lane).toMatch(new RegExp(`<text x="\\d+" y="${label[2]}" font-weight="600" fill="[^"]+">sram · peak `));
    // Every buffer wide and tall enough for its name has it.
    const named = [...lane.matchAll(/data-label="(\d+)"/g)].length;
    const roomy = [...lane.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="([\d.]+)" fill="(?!none)[^"]*"[^>]*data-buffer=/g)].filter((m) => Number(m[1]) >= LABEL_MIN.width && Number(m[2]) >= 9).length;
    expect(named).toBe(Math.min(roomy, MAX_LABELS));
  });

  it('draws the limit line at the limit, on the same scale as the peak line, and tints the overflow between them', () => {
    const bottom = 50 + 16 + 240; // the first lane's bottom, under the title and the verdict
    const limitY = lineY(lane, new RegExp(`<g data-limit="${sram.sizeLimit}" data-arena-limit="${sram.sizeLimit}" data-over-by="${sram.overBy}">`));
    const peakY = lineY(lane, /<line [^>]*stroke="#d33a44" stroke-width="1.5"\/>/);
    expect((bottom - limitY) / (bottom - peakY)).toBeCloseTo(sram.sizeLimit! / sram.peak, 3);
    const tint = /<rect [^>]*y="([\d.]+)" [^>]*height="([\d.]+)" [^>]*data-overflow="true"/.exec(lane)!;
    expect(Number(tint[1])).toBeCloseTo(peakY, 1);
    expect(Number(tint[1]) + Number(tint[2])).toBeCloseTo(limitY, 1);
    expect(svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0]).toContain('>size limit</text>');
  });

  it('a region within its limit says the limit but not over, and a plan that fits has no verdict', () => {
    const ext = svg.slice(svg.indexOf('<g data-region="ext-ram">'));
    // 8 MiB is far above the bytes the lane plots: the label points up, as on screen.
    expect(ext).toMatch(/data-limit-label="true">↑ limit 8.00 MiB<\/text>/);
    expect(ext.slice(0, ext.indexOf('</g>'))).not.toContain('over by');
    const fits = heapSvg(samplePlan('accelerator'));
    expect(fits).not.toContain('data-verdict');
    expect(fits).not.toContain('over by');
    const cpu = heapSvg(samplePlan('cpu'));
    expect(cpu).not.toContain('data-limit');
    expect(cpu).not.toContain('size limit');
  });
});

describe('heap SVG of a region holding the weights', () => {
  // mcu without spilling, the weights loaded in the SRAM: the arena starts above them, so activations run out of room at the limit less the weights.
  const plan = planModel(inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} }), applyTargetChange(presetTarget('mcu'), { spill: 'off', weights: { region: 'sram', copied: false } }));
  const sram = plan.regions.find((r) => r.name === 'sram')!;
  const svg = heapSvg(plan, { title: 'sample.onnx' });
  const lane = svg.slice(svg.indexOf('<g data-region="sram">'), svg.indexOf('</g>', svg.indexOf('<g data-region="sram">')));

  it('draws the limit line where the arena runs out of room, and says over by what plan --json says', () => {
    const weights = sram.weights!;
    expect(weights).toBeGreaterThan(0);
    expect(sram.overBy).toBe(sram.peak + weights - sram.sizeLimit!);
    const arena = sram.sizeLimit! - weights;
    const bottom = 50 + 16 + 240;
    const limitY = lineY(lane, new RegExp(`<g data-limit="${sram.sizeLimit}" data-arena-limit="${arena}" data-over-by="${sram.overBy}">`));
    const peakY = lineY(lane, /<line [^>]*stroke="#d33a44" stroke-width="1.5"\/>/);
    expect((bottom - limitY) / (bottom - peakY)).toBeCloseTo(arena / sram.peak, 3);
    // The tinted overflow spans exactly the bytes over: from the arena's limit to its peak.
    const tint = /<rect [^>]*y="([\d.]+)" [^>]*height="([\d.]+)" [^>]*data-overflow="true"/.exec(lane)!;
    expect(Number(tint[1]) + Number(tint[2])).toBeCloseTo(limitY, 1);
    expect(((bottom - peakY) * sram.overBy) / sram.peak).toBeCloseTo(Number(tint[2]), 1);
    expect(lane).toContain(`>limit ${formatBytes(sram.sizeLimit!)} − ${formatBytes(weights)} weights = ${formatBytes(sram.sizeLimit! - weights)} for the activations · over by ${formatBytes(sram.overBy)}</text>`);
  });
});

describe('heap SVG with the growth curve under it', () => {
  const plan = samplePlan('cpu');
  const point = (value: number, peak: number) => ({ value, peak, lowerBound: peak, regions: [{ name: plan.regions[0]!.name, peak, lowerBound: peak }], complete: true, fits: true });
  const input = { points: [point(1, plan.peak), point(4, 4 * plan.peak)], regions: plan.regions.map((r) => ({ name: r.name, sizeLimit: r.sizeLimit })), current: undefined };
  const curve = growthExport(input, 'batch', 960);

  it('is one panel of 170 px per region, with its title, axis and legend', () => {
    // 6 top, 18 title, 170 panel, 10 gap, 30 axis, 18 legend.
    expect(curve.height).toBe(6 + 18 + 170 + 10 + 30 + 18);
    const doc = curve.document('sample.onnx · Peak against batch');
    expect(doc).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="growth-svg" width="960" height="282"/);
    expect(doc).toContain('Peak against batch');
    expect(doc).toContain('>lower estimate</text>');
  });

  it('adds the curve under the heap and the peak chart, titled, growing the document by its height', () => {
    const plain = heapSvg(plan, { title: 'sample.onnx' });
    const withCurve = heapSvg(plan, { title: 'sample.onnx', appendix: { title: 'Peak against batch', height: curve.height, markup: curve.markup } });
    const heightOf = (svg: string) => Number(/^<svg [^>]*height="(\d+)"/.exec(svg)![1]);
    expect(heightOf(withCurve) - heightOf(plain)).toBe(16 + 14 + curve.height);
    expect(withCurve).toContain(`<svg x="0" y="${heightOf(plain) + 16 + 14}" class="growth-svg"`);
    expect(withCurve.match(/class="gr-dot/g)).toHaveLength(2);
  });
});

describe('heap SVG of a decoder with a KV cache', () => {
  const model = inferShapes(decodeOnnx(llamaModel({ ...LLAMA_80, layers: 2 })), { dims: { past: 7 } });
  const plan = planForSettings(model, { target: 'cpu', strategy: undefined });
  const kv = kvCacheNames(model);
  const svg = heapSvg(plan, { kv });

  it('colours the past and present tensors in the KV-cache class, as the heap on screen does, and names it in the legend', () => {
    const cache = plan.buffers.filter((b) => kv.has(b.name) && b.size > 0);
    expect(cache.length).toBeGreaterThan(0);
    for (const b of cache) expect(svg).toMatch(new RegExp(`fill="${CLASS_COLOURS.kv}"[^>]*data-buffer="${b.id}" data-class="kv"`));
    const io = plan.buffers.filter((b) => (b.kind === 'input' || b.kind === 'output') && !kv.has(b.name) && b.size > 0 && b.alias === undefined);
    for (const b of io) expect(svg).toMatch(new RegExp(`fill="${CLASS_COLOURS.io}"[^>]*data-buffer="${b.id}" data-class="io"`));
    const legend = svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0];
    expect(legend).toContain(`fill="${CLASS_COLOURS.kv}" data-class="kv"/>`);
    expect(legend).toContain('>KV cache</text>');
    expect(svg).toContain('>KV cache</text>'); // the live-bytes chart's row
  });

  it('names no KV cache for a model without one', () => {
    const plain = heapSvg(samplePlan('cpu'));
    expect(plain).not.toContain('KV cache');
    expect(plain).not.toContain('data-class="kv"');
  });
});

describe('heap SVG buffer titles', () => {
  it("name each buffer's offset as an offset, not a bare number after its size", () => {
    const plan = samplePlan('mcu');
    const svg = heapSvg(plan, { title: 'sample.onnx' });
    const b = plan.buffers.find((x) => x.offset >= 1024)!;
    const title = new RegExp(`data-buffer="${b.id}"[^>]*><title>([^<]*)</title>`).exec(svg)![1]!;
    expect(title).toContain(`${formatBytes(b.size)} at offset ${b.offset.toLocaleString('en-US')} B (${formatBytes(b.offset)}), steps ${b.start}–${b.end}`);
  });
});

describe('heap SVG legend and buffer names, as the heap on screen has them', () => {
  // Activations and graph I/O only, as GPT-2 on cpu: no scratch, cache, copy or shared bytes.
  const base = syntheticPlan(40, 3);
  const plan = { ...base, buffers: base.buffers.map((b, k) => ({ ...b, kind: k % 7 === 0 ? ('input' as const) : ('activation' as const), alias: undefined, name: `/model/layers.${k}/attn/MatMul_output_0` })) };
  const legendTexts = (svg: string) => [...svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0].matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

  it('names only the kinds the plan has, as the legend on screen does', () => {
    expect(legendTexts(heapSvg(plan))).toEqual(['activation', 'input / output', 'lower bound', 'peak']);
  });

  it("writes each wide enough buffer's name in its rectangle, escaped and cut, and none on a narrow one", () => {
    const labelsOf = (svg: string) => [...svg.matchAll(/<text [^>]*data-label="(\d+)">([^<]*)<\/text>/g)].map((m) => ({ id: Number(m[1]), text: m[2]! }));
    const named = labelsOf(heapSvg(plan))[0]!.id;
    // A name from the file, hostile and long, on a buffer the drawing labels.
    const hostile = plan.buffers.map((b) => (b.id === named ? { ...b, name: `<script>&"${'x'.repeat(300)}\u0001` } : b));
    const svg = heapSvg({ ...plan, buffers: hostile });
    const labels = labelsOf(svg);
    expect(labels.length).toBeGreaterThan(1);
    const rectOf = (id: number) => new RegExp(`<rect x="[\\d.]+" y="[\\d.]+" width="([\\d.]+)" height="([\\d.]+)"[^>]*data-buffer="${id}"`).exec(svg)!;
    for (const { id, text } of labels) {
      const rect = rectOf(id);
      expect(Number(rect[1])).toBeGreaterThanOrEqual(56);
      expect(Number(rect[2])).toBeGreaterThanOrEqual(9);
      expect(text.replace(/&[a-z]+;/g, '_').length * 5).toBeLessThanOrEqual(Number(rect[1]));
    }
    const unlabelled = hostile.filter((b) => !labels.some((l) => l.id === b.id));
    for (const b of unlabelled) {
      const rect = rectOf(b.id);
      expect(Number(rect[1]) < 56 || Number(rect[2]) < 9).toBe(true);
    }
    expect(labels.find((l) => l.id === named)!.text).toMatch(/^&lt;script&gt;&amp;&quot;x+…$/);
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('\u0001');
  });
});

describe('heap SVG title', () => {
  const plan = planModel(inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} }), presetTarget('cpu'));
  const titleLines = (svg: string): string[] => [...svg.matchAll(/<text [^>]*data-title="true">([^<]*)<\/text>/g)].map((m) => m[1]!);
  const laneTop = (svg: string): number => Number(/<g data-region="[^"]+">\n<rect x="\d+" y="([\d.]+)"/.exec(svg)![1]);

  it('wraps a title too long for 960 px at its separators, inside the drawing, and moves the lanes down by the lines added', () => {
    const long = ['resnet50-with-a-long-export-name.onnx', 'peak 23.6 MiB', 'lower bound 23.6 MiB', 'best on cpu', ...Array.from({ length: 12 }, (_, k) => `dim_number_${k}=${k + 1}`)].join(' · ');
    const short = heapSvg(plan, { title: 'sample.onnx' });
    const svg = heapSvg(plan, { title: long });
    const lines = titleLines(svg);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' · ')).toBe(long);
    // 13 px semibold: at most 7.8 px a character, between the left and right margins.
    for (const line of lines) expect(78 + line.length * 7.8).toBeLessThanOrEqual(960 - 16);
    expect(titleLines(short)).toEqual(['sample.onnx']);
    expect(laneTop(svg) - laneTop(short)).toBe((lines.length - 1) * 17);
  });

  it('cuts a title that would take more than four lines', () => {
    const lines = titleLines(heapSvg(plan, { title: `net.onnx · ${'x'.repeat(5000)}=1` }));
    expect(lines).toHaveLength(4);
    expect(lines[3]!.endsWith('…')).toBe(true);
  });
});

describe('heap SVG title of many default dims', () => {
  const plan = planModel(inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} }), presetTarget('cpu'));
  const titleLines = (svg: string): string[] => [...svg.matchAll(/<text [^>]*data-title="true">([^<]*)<\/text>/g)].map((m) => m[1]!);

  it('breaks a part wider than a line between its dims, never inside a name', () => {
    const defaults = Array.from({ length: 14 }, (_, k) => `sequence_dim_${k}=128`);
    const title = `net.onnx · peak 1.00 MiB · assumes ${defaults.join(', ')} (defaults)`;
    const lines = titleLines(heapSvg(plan, { title }));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(78 + line.length * 7.8).toBeLessThanOrEqual(960 - 16);
    const words = lines.join(' ').split(/,? | · /);
    for (const dim of defaults) expect(words).toContain(dim);
  });
});

describe('heap SVG of a tiny plan: regions that hold nothing, a run of a few steps', () => {
  // x -> Relu -> Relu -> y over n × 4 floats: at n = 0 every buffer is 0 B; at n = 4 all fit mcu's sram, ext-ram holds none
  const g = new GraphBuilder('empty-lanes');
  const x = g.input('x', 'float32', ['n', 4]);
  g.output(g.node('Relu', [g.node('Relu', [x])]), 'float32', ['n', 4]);
  const bytes = g.toBytes();
  const planAt = (n: number) => planModel(inferShapes(decodeOnnx(bytes), { dims: { n } }), presetTarget('mcu'));
  const texts = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)/g)].map((m) => m[1]);

  it('says so in place of the lanes when no region holds a byte: no lane, no step axis, no empty chart', () => {
    const plan = planAt(0);
    expect(plan.peak).toBe(0);
    const svg = heapSvg(plan);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).not.toContain('<g data-region=');
    expect(texts(svg)).toContain('sram and ext-ram hold nothing: no buffer to draw');
    expect(texts(svg)).not.toContain('step');
    expect(svg).not.toContain('Live bytes per kind and region');
    // the memory map still gives each region's figures
    expect(svg).toContain('data-memory-map="true"');
  });

  it('ticks a run of a few steps once each, at whole steps, each a step of the plan inside the picture', () => {
    const plan = planAt(4);
    const svg = heapSvg(plan);
    const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)![1]);
    const ticks = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" fill="[^"]+">(\d+)<\/text>/g)].map((m) => ({ x: Number(m[1]), step: Number(m[2]) }));
    const axis = ticks.map((t) => t.step);
    expect(axis.length).toBeGreaterThan(1);
    // 0, 1, … to the last step, plan.steps.length - 1: no tick names a step the plan does not have
    expect(axis).toEqual(plan.steps.map((_, k) => k));
    for (const t of ticks) expect(t.x).toBeLessThan(width);
  });

  it('names the region left without a lane, under the step axis and above the legend', () => {
    const svg = heapSvg(planAt(4));
    expect([...svg.matchAll(/<g data-region="([^"]+)"/g)].map((m) => m[1])).toEqual(['sram']);
    const y = (pattern: RegExp) => Number(pattern.exec(svg)![1]);
    const note = y(/<text x="\d+" y="([\d.]+)"[^>]*data-empty-regions="true">ext-ram holds nothing, so it has no lane<\/text>/);
    expect(note).toBeGreaterThan(y(/<text x="[\d.]+" y="([\d.]+)" text-anchor="end" fill="[^"]+">step<\/text>/));
    expect(note).toBeLessThan(y(/<rect x="[\d.]+" y="([\d.]+)"[^>]*data-class="activation"\/>/));
  });
});
