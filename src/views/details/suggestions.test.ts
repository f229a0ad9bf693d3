// Every suggestion with CLI arguments turns into page settings that plan to
// exactly the stated saving: fusion and strategy on the sample, a larger SRAM
// on the accelerator, the weights out of an mcu's full sram, another execution
// order on two branches.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { tinyGraph } from '../../planner/testing/tiny-graph';
import { planForSettings } from '../../worker/plan/settings';
import type { PlanSettings } from '../../worker/protocol';
import { settingsForSuggestion } from './suggestions';

const SAMPLE = inferShapes(decodeOnnx(new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)))), { dims: {} });

/** x feeds two large branches, each reduced to one value: file order holds both at once. */
function branches(): InferredModel {
  return tinyGraph()
    .input('x', [1024])
    .node('Relu', ['x'], { a: [1024] }, { name: 'A' })
    .node('Relu', ['x'], { b: [1024] }, { name: 'B' })
    .node('ReduceMax', ['a'], { a2: [1] }, { name: 'A2' })
    .node('ReduceMax', ['b'], { b2: [1] }, { name: 'B2' })
    .node('Add', ['a2', 'b2'], { c: [1] }, { name: 'C' })
    .output('c')
    .model();
}

/** The kinds each case must give, and the case. */
const CASES: readonly [string, () => InferredModel, PlanSettings][] = [
  ['fusion', () => SAMPLE, { target: 'phone', strategy: undefined }],
  ['strategy', () => SAMPLE, { target: 'phone', strategy: 'naive' }],
  ['sram', () => SAMPLE, { target: 'accelerator', strategy: undefined, edits: { sramBytes: 262144 } }],
  ['weights', () => SAMPLE, { target: 'mcu', strategy: undefined, edits: { spill: 'off', weights: { region: 'sram', copied: true } } }],
  ['order', branches, { target: 'cpu', strategy: undefined, edits: { regions: { ram: { alignment: 1 } } } }],
];

describe('applying a suggestion in the page', () => {
  it.each(CASES)('plans a %s suggestion to exactly peak - saves', (kind, model, shown) => {
    const m = model();
    const plan = planForSettings(m, shown, { suggest: true });
    const applicable = (plan.suggestions ?? []).filter((s) => s.args !== undefined);
    expect(applicable.map((s) => s.kind)).toContain(kind);
    for (const s of applicable) {
      const settings = settingsForSuggestion(s, shown)!;
      expect(settings.edits?.regions).toEqual(shown.edits?.regions); // the shown edits carry over
      const after = planForSettings(m, settings);
      expect(after.peak).toBe(plan.peak - s.saves);
      // a change judged by fit (the weights elsewhere) is over its limits by fewer bytes, as it was found
      if (s.kind === 'weights') expect(after.regions.reduce((sum, r) => sum + r.overBy, 0)).toBeLessThan(plan.regions.reduce((sum, r) => sum + r.overBy, 0));
    }
  });

  it('has no settings for a model edit', () => {
    expect(settingsForSuggestion({ kind: 'dtype', action: 'keep t in float16', saves: 10, modelEdit: 'move the Cast' }, { target: 'cpu', strategy: undefined })).toBeUndefined();
  });
});
