// The live-bytes chart and the heap lanes' curve on every model of
// ../shared/models/ under every preset: the total at each region's peak
// step, and its highest point, are the region's lower bound (the most bytes
// live at once). In-place outputs
// that outlive the buffer whose bytes they share, and concat inputs written
// into their concat, are where a chart of root buffers alone fell short.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer-shapes';
import { planModel } from '../../planner/plan';
import { PRESET_NAMES, presetTarget } from '../../planner/targets/presets';
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
      const plan = planModel(model, presetTarget(preset), { strategy: 'tflm' });
      for (const region of peakChartData(plan).regions) {
        const at = `${preset} ${region.name}`;
        expect(region.total[region.peakStep!], at).toBe(region.lowerBound);
        expect(Math.max(...region.total), at).toBe(region.lowerBound);
      }
      for (const lane of heapData(plan).lanes) {
        expect(Math.max(...lane.live), `${preset} ${lane.name} lane`).toBe(lane.lowerBound);
      }
    }
  });
});
