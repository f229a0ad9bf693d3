// Test helper: what every plan with fusion units on a real model must show,
// whatever the model's form (float or quantized). Imported by tests only.

import { expect } from 'vitest';
import type { ModelPlan } from '../../plan';
import type { FusionSettings } from '../../targets/target';

/**
 * Expects `plan` to be valid and to have fusion units that lower the DRAM
 * traffic by the sum of their own savings, each within the on-chip memories
 * of `s`.
 */
export function expectFusedPlan(plan: ModelPlan, s: FusionSettings): void {
  expect(plan.valid).toBe(true);
  expect(plan.fusionUnits.length).toBeGreaterThan(0);
  expect(plan.traffic.after).toBeLessThan(plan.traffic.before);
  expect(plan.fusionUnits.reduce((sum, u) => sum + u.trafficSaved, 0)).toBe(plan.traffic.before - plan.traffic.after);
  for (const u of plan.fusionUnits) {
    expect(u.onChip.sram).toBeLessThan(s.sramBytes);
    expect(u.onChip.nram).toBeLessThanOrEqual(s.nramBytes);
    expect(u.onChip.wram).toBeLessThanOrEqual(s.wramBytes);
  }
}
