// The live-bytes chart and the heap lanes' curve on every model of
// ../shared/models/ under every preset: the total at each region's peak
// step, and its highest point, are the region's lower bound (the most bytes
// live at once). In-place outputs
// that outlive the buffer whose bytes they share, and concat inputs written
// into their concat, are where a chart of root buffers alone fell short.
// Variable-size scratch (M4) is drawn at the size placement gave it, which
// can fill a free area up to the region's peak (on mcu, a Conv's workspace in
// the external RAM the activations spilled to); the bound counts its minimum,
// so the curves are compared with the bound less that growth.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel, type ModelPlan } from '../../planner/plan';
import { PRESET_NAMES, presetTarget } from '../../planner/targets/presets';
import type { TargetProfile } from '../../planner/targets/target';
import { heapData } from './heap-data';
import { peakChartData } from './peak-chart-data';

const MODELS = join(__dirname, '../../../../shared/models');
const modelFiles = existsSync(MODELS)
  ? [...readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f)), join(MODELS, 'tiny-llama-fp16/model.onnx')]
  : [];
if (modelFiles.length === 0) console.log(`notice: ${MODELS} is absent; the live-bytes chart of real models is skipped`);

describe.skipIf(modelFiles.length === 0)('the live-bytes chart on the real-model corpus', () => {
  it.each(modelFiles.map((f) => [f.slice(MODELS.length + 1), f]))('%s: the chart total at the peak step and the lane curves reach the lower bound, in every region of every preset', (_name, file) => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))), {});
    for (const preset of PRESET_NAMES) {
      const target = presetTarget(preset);
      const plan = planModel(model, target, { strategy: 'tflm' });
      for (const region of peakChartData(plan).regions) {
        const at = `${preset} ${region.name}`;
        const total = withoutGrowth(region.total, plan, region.name, target);
        expect(total[region.peakStep!], at).toBe(region.lowerBound);
        expect(Math.max(...total), at).toBe(region.lowerBound);
      }
      for (const lane of heapData(plan).lanes) {
        expect(Math.max(...withoutGrowth(lane.live, plan, lane.name, target)), `${preset} ${lane.name} lane`).toBe(lane.lowerBound);
      }
    }
  });
});

/** `curve` (bytes live per step in `region`) less what placement gave variable-size scratch beyond its rule's minimum. */
function withoutGrowth(curve: ArrayLike<number>, plan: ModelPlan, region: string, target: TargetProfile): number[] {
  const out = Array.from(curve);
  const minimum = new Map(target.scratch.rules.filter((r) => r.variable).map((r) => [r.name, r.bytes]));
  for (const b of plan.buffers) {
    const rule = b.name.slice(b.name.lastIndexOf(':') + 1);
    if (b.kind !== 'scratch' || b.region !== region || !minimum.has(rule)) continue;
    const least = minimum.get(rule);
    expect(least, `the minimum of variable scratch ${rule}`).toBeDefined(); // the presets give variable scratch a fixed minimum
    for (let t = b.start; t < b.end; t++) out[t]! -= b.size - least!;
  }
  return out;
}
