import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../plan';
import { toPlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { diffPlans, type PlanDiff } from './diff-plans';

const MODELS = join(__dirname, '../../../../shared/models');
const ULTRAFACE = join(MODELS, 'ultraface_RFB-320.onnx');
const PERSON = join(MODELS, 'tflite/tflm_person_detect.tflite');

function planned(path: string, target: string): PlanFile {
  const model = inferShapes(decodeModel(new Uint8Array(readFileSync(path))), { dims: {} });
  const profile = presetTarget(target);
  return toPlanFile(model, planModel(model, profile), { model: path, target, targetProfile: profile, dims: {} });
}

/** How many matched buffers of the diff's table moved from region `from` to region `to`. */
function movedBetween(diff: PlanDiff, from: string, to: string): number {
  return diff.buffers.filter((c) => c.regionA === from && c.regionB === to).length;
}

describe('the cause of buffers that moved between regions', () => {
  it.skipIf(!existsSync(PERSON))('counts every buffer that moved, not only the two at the peak (person_detect, tflm → cpu)', () => {
    const diff = diffPlans(planned(PERSON, 'tflm'), planned(PERSON, 'cpu'));
    const cause = diff.causes.find((c) => c.kind === 'region-moved')!;
    // it read "2 buffers moved from region arena to ram" beside a table where all 32 moved arena → ram
    expect(movedBetween(diff, 'arena', 'ram')).toBe(32);
    expect(cause.summary).toMatch(/^tflm → cpu: 32 buffers moved from region arena to ram, 2 of them live at the peak \('MobilenetV1\/MobilenetV1\/Conv2d_1_pointwise\/Relu6' 36\.0 KiB and '[^']+' 18\.0 KiB\): arena −54\.0 KiB, ram \+54\.0 KiB at their peaks, ±0 B in all$/);
    expect(cause.buffers).toHaveLength(2);
  });

  it.skipIf(!existsSync(ULTRAFACE))('counts the buffers that moved between its two regions (ultraface, cpu → mcu), the rest moving elsewhere', () => {
    const diff = diffPlans(planned(ULTRAFACE, 'cpu'), planned(ULTRAFACE, 'mcu'));
    const cause = diff.causes.find((c) => c.kind === 'region-moved')!;
    const toExt = movedBetween(diff, 'ram', 'ext-ram');
    expect(toExt).toBeGreaterThan(2);
    expect(cause.summary).toContain(`: ${toExt} buffers moved from region ram to ext-ram, 2 of them live at the peak ('252' 2.34 MiB and '250' 1.17 MiB): ram −3.52 MiB, ext-ram +3.52 MiB at their peaks, ±0 B in all`);
  });
});
