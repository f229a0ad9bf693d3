// A plan whose every buffer holds 0 bytes (--dim batch=0) has no peak step to
// explain: the explanation said "The ram peak is reached at step 0 (Conv
// stem/conv); 0 buffers live there", naming a step where nothing is.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { emptyPeakWords } from './empty-peak';

const SAMPLE = join(__dirname, '../../../public/sample.onnx');

function samplePlan(batch: number) {
  const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(SAMPLE))), { dims: { batch } });
  return planModel(model, presetTarget('cpu'));
}

describe('emptyPeakWords', () => {
  it('says no buffer holds a byte when a dim bound to 0 empties every buffer', () => {
    const plan = samplePlan(0);
    expect(plan.peak).toBe(0);
    expect(emptyPeakWords(plan)).toBe(`no buffer holds a byte (all ${plan.buffers.length} buffers are 0 B), so there is no peak step to explain`);
  });

  it('says nothing of a plan whose buffers hold bytes', () => {
    expect(emptyPeakWords(samplePlan(1))).toBeUndefined();
  });

  it('says nothing when a buffer of unknown size, planned as 0 bytes, may hold some', () => {
    expect(emptyPeakWords({ buffers: [{ size: 0 }, { size: 0, unknownSize: true }] })).toBeUndefined();
    expect(emptyPeakWords({ buffers: [{ size: 0 }] })).toBe('no buffer holds a byte (its one buffer is 0 B), so there is no peak step to explain');
  });
});
