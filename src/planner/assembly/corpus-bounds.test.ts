// Every model of ../shared/models/ under every preset and every strategy: the
// reported lower bound is the same whatever the strategy and no plan goes
// below it; `best` (the presets' default) is never above another strategy's
// final plan and names M1's peak; the live list at the peak step adds up.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { liveAtStep } from './live-at';
import { planModel, type ModelPlan } from '../plan';
import { PRESET_NAMES, presetTarget } from '../targets/presets';
import { STRATEGY_NAMES } from '../strategies/registry';
import type { TargetProfile } from '../targets/target';

const MODELS = join(__dirname, '../../../../shared/models');
const modelFiles = existsSync(MODELS)
  ? [...readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f)), join(MODELS, 'tiny-llama-fp16/model.onnx')]
  : [];
if (modelFiles.length === 0) console.log(`notice: ${MODELS} is absent; the cross-strategy bounds of real models are skipped`);

/** A short local search: the bound and the comparisons hold whatever the search finds. */
const PLAN_OPTIONS = { budgetMs: 50, local: { work: 300_000 } };

const models = new Map<string, InferredModel>();
const noSpill = (t: TargetProfile): TargetProfile => ({ ...t, planning: { ...t.planning, spill: 'off' } });

/** Each model is decoded and inferred once for both tests. */
function load(file: string): InferredModel {
  if (!models.has(file)) models.set(file, inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))), {}));
  return models.get(file)!;
}

describe.skipIf(modelFiles.length === 0)('bounds across strategies on the real-model corpus', () => {
  it.each(modelFiles.map((f) => [f.slice(MODELS.length + 1), f]))('%s: one bound for every preset and strategy, best never above another', (_name, file) => {
    const model = load(file);
    for (const preset of PRESET_NAMES) {
      // Spilling off: a spilled plan's split, so its regions' bounds, follows the strategy's placement (spill/spill-plan.ts);
      // the plan's bound, the one of every split, is checked with spilling on below.
      const target = noSpill(presetTarget(preset));
      const plans = new Map<string, ModelPlan>(STRATEGY_NAMES.map((s) => [s, planModel(model, target, { strategy: s, planOptions: PLAN_OPTIONS })]));
      const best = plans.get('best')!;
      for (const [strategy, plan] of plans) {
        const at = `${preset} ${strategy}`;
        expect(plan.valid, at).toBe(true);
        expect(plan.lowerBound, at).toBe(best.lowerBound);
        expect(plan.regions.map((r) => r.lowerBound), at).toEqual(best.regions.map((r) => r.lowerBound));
        expect(plan.peak, at).toBeGreaterThanOrEqual(plan.lowerBound);
        expect(best.peak, at).toBeLessThanOrEqual(plan.peak);
      }
      expect(best.portfolio?.m1Peak, preset).toBe(plans.get('m1')!.peak);
      expect(STRATEGY_NAMES as readonly string[]).toContain(best.portfolio?.winner);
      const spilled = STRATEGY_NAMES.map((s) => planModel(model, presetTarget(preset), { strategy: s, planOptions: PLAN_OPTIONS }));
      for (const plan of spilled) {
        expect(plan.lowerBound, `${preset} ${plan.strategy} spilled`).toBe(spilled[0]!.lowerBound);
        expect(plan.peak, `${preset} ${plan.strategy} spilled`).toBeGreaterThanOrEqual(plan.lowerBound);
      }
    }
  });

  it.each(modelFiles.map((f) => [f.slice(MODELS.length + 1), f]))('%s: the live list at the peak step sums to the peak (cpu, best)', (_name, file) => {
    const model = load(file);
    const plan = planModel(model, presetTarget('cpu'));
    expect(plan.strategy).toBe('best');
    const listed = liveAtStep(plan.buffers, plan.peakStep!, plan.peakRegion!);
    expect(listed).toEqual(plan.liveAtPeak);
    expect(listed.reduce((sum, l) => sum + l.counted, 0)).toBe(plan.regions.find((r) => r.name === plan.peakRegion)!.lowerBound);
    expect(plan.peak).toBe(plan.lowerBound);
    expect(listed.reduce((sum, l) => sum + l.counted, 0)).toBe(plan.peak);
  });
});
