import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { assignOffsets } from '../../planner/assembly/assign-offsets';
import { parseMinimallocCsv } from '../../planner/problem/minimalloc-csv';
import { validatePlan } from '../../planner/assembly/validate-plan';
import { planForSettings } from '../../worker/plan/settings';
import type { PlanSettings } from '../../worker/protocol';
import { heapData } from '../heap/heap-data';
import { legendKeys } from '../heap/legend-keys';
import { heapSvg } from './heap-svg';
import { planCsv } from './plan-csv';
import { planFileOf } from '../../settings/plan-file';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)));

function sampleFile(settings: PlanSettings, dims: Record<string, number> = {}) {
  const inferred = inferShapes(decodeOnnx(SAMPLE, {}), { dims });
  return planFileOf({ name: 'sample.onnx', inferred, plan: planForSettings(inferred, settings), settings, dims });
}

describe('plan file of the page', () => {
  it('records the preset, every dim and the whole profile; edits make the target custom', () => {
    const plain = sampleFile({ target: 'cpu', strategy: undefined }, { batch: 2 });
    expect(plain.settings).toMatchObject({ target: 'cpu', strategy: 'best', dims: { batch: 2 } });
    expect(plain.settings.targetProfile.name).toBe('cpu');
    const edited = sampleFile({ target: 'accelerator', strategy: undefined, edits: { fusion: false } });
    expect(edited.settings.target).toBe('custom');
    expect(edited.settings.targetProfile.fusion?.enabled).toBe(false);
    expect(edited.plan.fusionUnits).toEqual([]);
  });
});

describe('MiniMalloc CSV of a plan', () => {
  for (const target of ['cpu', 'accelerator', 'mcu']) {
    it(`on ${target}: each region's solution is a valid placement at the region's peak, and its problem re-solves to it`, () => {
      const file = sampleFile({ target, strategy: undefined });
      const csvs = planCsv(file);
      expect(csvs.map((c) => c.region)).toEqual(file.plan.regions.filter((r) => file.plan.buffers.some((b) => b.region === r.name && b.size > 0)).map((r) => r.name));
      for (const csv of csvs) {
        const solution = parseMinimallocCsv(csv.solution);
        const offsets = solution.buffers.map((b) => b.fixedOffset!);
        const peak = Math.max(...solution.buffers.map((b, i) => offsets[i]! + b.size));
        expect(peak).toBe(csv.peak);
        expect(validatePlan(solution, { offsets, peak }).valid).toBe(true);
        const problem = parseMinimallocCsv(csv.problem);
        expect(problem.buffers.every((b) => b.fixedOffset === undefined)).toBe(true);
        expect(assignOffsets(problem, 'best').peak).toBeLessThanOrEqual(csv.peak);
      }
    });
  }
});

describe('heap SVG', () => {
  it('draws one rectangle per buffer with bytes, and a lane per region with buffers', () => {
    const file = sampleFile({ target: 'accelerator', strategy: undefined });
    const svg = heapSvg(file.plan);
    const drawn = file.plan.buffers.filter((b) => b.size > 0);
    expect(svg.match(/data-buffer="\d+"/g)).toHaveLength(drawn.length);
    const lanes = [...new Set(drawn.map((b) => b.region))];
    expect([...svg.matchAll(/<g data-region="([^"]+)">/g)].map((m) => m[1])).toEqual(file.plan.regions.map((r) => r.name).filter((n) => lanes.includes(n)));
  });

  it('puts a region at the same height for the same extent, whatever its own peak', () => {
    const small = sampleFile({ target: 'cpu', strategy: undefined }, { batch: 1 });
    const large = sampleFile({ target: 'cpu', strategy: undefined }, { batch: 4 });
    const extents = new Map([['ram', large.plan.peak]]);
    const peakLine = (svg: string) => svg.match(/<line [^>]*stroke="#d33a44"/)![0];
    const yOf = (line: string) => Number(line.match(/y1="([\d.]+)"/)![1]);
    // One scale: the heights of the peak lines above the lane's bottom are in the ratio of the peaks.
    const bottom = 50 + 240;
    const hSmall = bottom - yOf(peakLine(heapSvg(small.plan, { extents })));
    const hLarge = bottom - yOf(peakLine(heapSvg(large.plan, { extents })));
    expect(hSmall / hLarge).toBeCloseTo(small.plan.peak / large.plan.peak, 2);
  });

  it('carries the legend the heap on screen shows (the classes its buffers have, its marks and lines), and the peak chart of each region', () => {
    const file = sampleFile({ target: 'mcu', strategy: undefined });
    const svg = heapSvg(file.plan, { title: 'sample.onnx · peak' });
    const legend = svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0];
    const keys = legendKeys([heapData(file.plan)]);
    const screen = [...keys.classes.map((c) => c.label), ...(keys.shared ? ['shares bytes'] : []), 'lower bound', 'peak', ...(keys.spilled ? ['spilled'] : []), 'size limit'];
    expect([...legend.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(screen);
    expect(svg).toContain('Live bytes per kind and region');
    expect(svg).toContain('dotted: largest free block');
    const regions = [...svg.matchAll(/<g class="pc-region" data-region="([^"]+)"[^>]*>/g)].map((m) => m[1]);
    expect(regions).toEqual([...svg.matchAll(/<g data-region="([^"]+)">/g)].map((m) => m[1]));
    expect(svg).not.toContain('style=');
  });

  it("marks every lane's peak '≥' when some tensor's size is unknown, and none when all are known", () => {
    const file = sampleFile({ target: 'accelerator', strategy: undefined });
    const lanePeaks = (svg: string) => [...svg.matchAll(/<g data-region="[^"]+">[^]*?<text[^>]*>[^<]* · peak ([^<·]+) ·/g)].map((m) => m[1]!.trim());
    const known = lanePeaks(heapSvg(file.plan));
    expect(known.length).toBeGreaterThan(0);
    expect(known.every((p) => !p.startsWith('≥'))).toBe(true);
    const estimated = lanePeaks(heapSvg({ ...file.plan, complete: false }));
    expect(estimated).toEqual(known.map((p) => `≥ ${p}`));
  });

  it('escapes names in text', () => {
    const file = sampleFile({ target: 'cpu', strategy: undefined });
    expect(heapSvg(file.plan, { title: 'a < b & "c"' })).toContain('a &lt; b &amp; &quot;c&quot;');
  });
});
