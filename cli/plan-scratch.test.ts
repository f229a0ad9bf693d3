import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const SQUEEZENET = join(MODELS, 'winml_SqueezeNet_fp16.onnx');
const hasModel = existsSync(SQUEEZENET);
if (!hasModel) console.log(`notice: ${SQUEEZENET} is absent; the scratch placements of a spilled plan are not compared`);

describe('heapscope plan: scratch placed in free areas or with the activations', () => {
  // On mcu SqueezeNet spills to ext-ram: each placement splits and fills back its own way, so each figure is a whole plan.
  it.skipIf(!hasModel)('gives each placement the peak plan prints with it, and suggests the lower one with args that reach it', () => {
    const free = planJson([SQUEEZENET, '--target', 'mcu']);
    const joint = planJson([SQUEEZENET, '--target', 'mcu', '--scratch-placement', 'with-activations']);
    expect(free.scratch).toMatchObject({ placement: 'free-areas', freeAreasPeak: free.peak, withActivationsPeak: joint.peak });
    expect(joint.scratch).toMatchObject({ placement: 'with-activations', freeAreasPeak: free.peak, withActivationsPeak: joint.peak });
    expect(joint.peak).toBeLessThan(free.peak);
    const scratch = free.suggestions.filter((s: { kind: string }) => s.kind === 'scratch');
    expect(scratch).toEqual([expect.objectContaining({ saves: free.peak - joint.peak, args: ['--scratch-placement', 'with-activations'] })]);
    expect(planJson([SQUEEZENET, '--target', 'mcu', ...scratch[0].args]).peak).toBe(free.peak - scratch[0].saves);
  });

  it.skipIf(!hasModel)('says the two peaks apart in bytes where they round alike, the plan\'s own first', () => {
    const { code, out } = run(['plan', SQUEEZENET, '--target', 'mcu']);
    expect(code).toBe(0);
    expect(out).toContain("scratch       56 buffers, free-areas; the plan's peak with scratch in free areas (M4) 2,761,184 B, with scratch planned with the activations 2,755,536 B\n");
  });
});
