import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { formatBytes } from '../../shared/format';
import { planModel } from '../../planner/plan';
import { applyTargetChange } from '../../planner/explain/target-change';
import { presetTarget } from '../../planner/targets/presets';
import { memoryMapData } from '../panels/memory-map-data';
import { heapSvg } from './heap-svg';
import { memoryMapSvgHeight, wrapWords } from './memory-map-svg';
import { decodeModel } from '../../model/decode-model';
import { planForSettings } from '../../worker/plan/settings';
import { barPartsText } from '../panels/memory-map-data';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)));
const model = inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} });

/** The markup of the memory-map group of region `name` in `svg`. */
function regionGroup(svg: string, name: string): string {
  const at = svg.indexOf(`<g class="memory-map-region" data-region="${name}"`);
  expect(at).toBeGreaterThanOrEqual(0);
  return svg.slice(at, svg.indexOf('</g>', at));
}

const attr = (markup: string, name: string) => /^[^>]*/.exec(markup)![0].match(new RegExp(` ${name}="([^"]*)"`))![1];

describe('the memory map in the heap SVG', () => {
  // mcu spilling to the external RAM, with the weights copied to the SRAM at start.
  const plan = planModel(model, applyTargetChange(presetTarget('mcu'), { weights: { region: 'sram', copied: true } }));
  const map = memoryMapData(plan);
  const svg = heapSvg(plan, { title: 'sample.onnx' });

  it('draws the side bar’s bar of every region, with its figures and bytes moved as text', () => {
    expect(map.bars.map((b) => b.name)).toEqual(['sram', 'ext-ram']);
    for (const bar of map.bars) {
      const g = regionGroup(svg, bar.name);
      const region = plan.regions.find((r) => r.name === bar.name)!;
      expect([attr(g, 'data-used'), attr(g, 'data-size-limit'), attr(g, 'data-over-by'), attr(g, 'data-weights')]).toEqual([String(region.used), String(region.sizeLimit), String(region.overBy), String(region.weights)]);
      expect(g).toContain(`>${formatBytes(bar.used)} / ${formatBytes(bar.sizeLimit)}</text>`);
      expect(g).toContain(`>at its fullest step ${bar.step}: `);
      expect(g).toContain(`I/O ${formatBytes(bar.io)} · activations ${formatBytes(bar.activations)}`);
      // One rectangle per part with bytes, from the base up, each as long as its share of the limit.
      const parts = [...g.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="12" fill="[^"]+" data-part="(\w+)" data-bytes="(\d+)"/g)];
      const expected = (['weights', 'io', 'activations', 'scratch', 'rest'] as const).filter((k) => bar[k] > 0);
      expect(parts.map((p) => [p[3], Number(p[4])])).toEqual(expected.map((k) => [k, bar[k]]));
      const width = 960 - 78 - 16;
      const scale = Math.max(bar.used, bar.sizeLimit!);
      for (const p of parts) expect(Number(p[2])).toBeCloseTo((Number(p[4]) / scale) * width, 1);
      expect(g).toContain(`data-limit-tick="${bar.sizeLimit}"`);
      // The bytes moved there over one inference, as plan --json gives them.
      expect(attr(g, 'data-moved')).toBe(String(region.moved!.written + region.moved!.read));
      expect(g).toContain(` · moved ${formatBytes(region.moved!.written)} written, ${formatBytes(region.moved!.read)} read per inference</tspan>`);
    }
    const sram = regionGroup(svg, 'sram');
    expect(sram).toContain(`weights ${formatBytes(plan.regions[0]!.weights!)} · I/O`);
    expect(regionGroup(svg, 'ext-ram')).toMatch(/data-spilled-text="true">\d+ buffers spilled here, [^<]+ of them in all over the run<\/tspan>/);
    expect(svg).toContain(`in sram below its arena, copied from flash at start</text>`);
    expect(svg).toContain('>graph I/O 300 KiB in all over the run, planned in the arena</text>');
  });

  it('says how far over a region is, in the figures plan --json gives', () => {
    const over = planModel(model, applyTargetChange(presetTarget('mcu'), { spill: 'off' }));
    const sram = over.regions.find((r) => r.name === 'sram')!;
    const g = regionGroup(heapSvg(over), 'sram');
    expect(attr(g, 'data-over-by')).toBe(String(sram.overBy));
    expect(g).toContain(`>${formatBytes(sram.used!)} / ${formatBytes(sram.sizeLimit)} · ${formatBytes(sram.overBy)} over</text>`);
  });

  it('takes its own height between the legend and the peak chart, and is left out on request', () => {
    const heightOf = (doc: string) => Number(/^<svg [^>]*height="(\d+)"/.exec(doc)![1]);
    const without = heapSvg(plan, { title: 'sample.onnx', memoryMap: false });
    expect(without).not.toContain('data-memory-map');
    expect(heightOf(svg) - heightOf(without)).toBe(memoryMapSvgHeight(map, 960 - 78 - 16) + 10);
    expect(svg.indexOf('data-memory-map')).toBeGreaterThan(svg.indexOf('data-legend'));
    expect(svg.indexOf('data-memory-map')).toBeLessThan(svg.indexOf('Live bytes per kind and region'));
  });

  it('wraps a line of words longer than the map instead of letting the file cut it at its edge', () => {
    const vela = new URL('../../../../shared/models/tflite/tflm_person_detect_vela.tflite', import.meta.url);
    if (!existsSync(vela)) return void console.log('memory map SVG: ../shared/models/tflite is absent; skipping the long TFLite Micro line');
    const tflite = inferShapes(decodeModel(new Uint8Array(readFileSync(vela))), { dims: {} });
    const velaPlan = planForSettings(tflite, { target: 'tflm', strategy: undefined });
    const words = barPartsText(memoryMapData(velaPlan).bars[0]!);
    const doc = heapSvg(velaPlan, { title: 'vela' });
    const lines = [...regionGroup(doc, 'arena').matchAll(/<text x="78" y="[\d.]+" fill="[^"]+">([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&apos;/g, "'").replace(/&amp;/g, '&'));
    // every line fits the plot's width at the export's widest average character, and together they are the words whole
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length * 6.2).toBeLessThanOrEqual(960 - 78 - 16);
    expect(lines.join(' ')).toBe(words);
    expect(wrapWords('short', 866)).toEqual(['short']);
  });
});
