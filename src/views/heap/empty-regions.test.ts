import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../../planner/plan';
import { parseTarget } from '../../planner/targets/parse';
import { presetTarget } from '../../planner/targets/presets';
import { heapSvg } from '../export/heap-svg';
import { emptyRegionsText, regionsNotShownText } from './empty-regions';
import { heapData } from './heap-data';
import { peakChartData } from './peak-chart-data';

/** x · W on mcu with the weights in ext-ram (W: 64 × 1024 floats, 256 KiB), ext-ram limited to `limit` bytes when given. */
function weightsInExtRam(limit?: number) {
  const g = new GraphBuilder('weights-ext');
  const x = g.input('x', 'float32', [1, 64]);
  const w = g.initializer('W', 'float32', [64, 1024], new Uint8Array(64 * 1024 * 4));
  g.output(g.node('MatMul', [x, w]), 'float32', [1, 1024]);
  const mcu = JSON.parse(JSON.stringify(presetTarget('mcu'))) as { planning: object; regions: { name: string }[] };
  const regions = mcu.regions.map((r) => (r.name === 'ext-ram' && limit !== undefined ? { ...r, sizeLimit: limit } : r));
  const target = parseTarget({ ...mcu, name: 'weights-ext', planning: { ...mcu.planning, weights: { region: 'ext-ram', copied: false } }, regions });
  return planModel(inferShapes(decodeOnnx(g.toBytes())), target);
}

/** The regions each view draws and the line each gives for those it leaves out. */
function views(plan: ReturnType<typeof weightsInExtRam>) {
  const heap = heapData(plan);
  const chart = peakChartData(plan).regions.map((r) => r.name);
  const svg = heapSvg(plan);
  return {
    heap: heap.lanes.map((l) => l.name),
    chart,
    svg: [...svg.matchAll(/<g data-region="([^"]+)"/g)].map((m) => m[1]),
    heapLine: heap.emptyRegions,
    chartLine: emptyRegionsText(plan, chart, 'chart'),
    svgLine: /data-empty-regions="true">([^<]*)</.exec(svg)?.[1],
  };
}

describe('a region that holds weights but no planned buffer', () => {
  it('is not said to hold nothing: the heap, its chart and the export give its weights, as the memory map does', () => {
    const plan = weightsInExtRam();
    expect(plan.regions.find((r) => r.name === 'ext-ram')).toMatchObject({ peak: 0, weights: 262_144 });
    const line = 'ext-ram holds no planned buffer (its 256 KiB are weights), so it has no lane';
    expect(views(plan)).toEqual({ heap: ['sram'], chart: ['sram'], svg: ['sram'], heapLine: line, chartLine: 'ext-ram holds no planned buffer (its 256 KiB are weights), so it has no chart', svgLine: line });
  });

  it('over its size limit, gets no lane of "peak 0 B" in any of the three: the line says what it holds and how far over', () => {
    const plan = weightsInExtRam(100_000);
    expect(plan.fits).toBe(false);
    expect(plan.regions.find((r) => r.name === 'ext-ram')).toMatchObject({ peak: 0, weights: 262_144, overBy: 162_144 });
    const held = 'ext-ram holds no planned buffer (its 256 KiB are weights, 158 KiB over its 97.7 KiB limit)';
    expect(views(plan)).toEqual({ heap: ['sram'], chart: ['sram'], svg: ['sram'], heapLine: `${held}, so it has no lane`, chartLine: `${held}, so it has no chart`, svgLine: `${held}, so it has no lane` });
    const svg = heapSvg(plan);
    expect(svg).not.toMatch(/ext-ram · peak 0 B|peak 0 B · bound 0 B/);
    // the verdict above says the same figures
    expect(svg).toContain('Does not fit: ext-ram needs 256 KiB (256 KiB of it weights), 158 KiB over its 97.7 KiB limit');
  });
});

describe('regionsNotShownText', () => {
  it('names the regions a chart beside a diagram of one region leaves out, and how to see them', () => {
    expect(regionsNotShownText(['sram', 'ext-ram'], 'sram', true)).toBe('ext-ram not shown: too little room — choose it in the region menu or enlarge the pane');
    expect(regionsNotShownText(['sram', 'ext-ram', 'flash'], 'ext-ram', true)).toBe('sram and flash not shown: too little room — choose them in the region menu or enlarge the pane');
    expect(regionsNotShownText(['sram', 'ext-ram'], 'ext-ram', false)).toBe('sram not shown: ext-ram chosen — choose All regions in the region menu to see every one');
  });

  it('says nothing when every region is drawn', () => {
    expect(regionsNotShownText(['sram', 'ext-ram'], 'all', true)).toBeUndefined();
    expect(regionsNotShownText(['sram'], 'sram', true)).toBeUndefined();
    expect(regionsNotShownText([], undefined, true)).toBeUndefined();
  });
});
