// Test helper: re-validates a model plan from its own record (buffers,
// offsets, aliases, regions) with validatePlan, independently of the checks
// planModel ran, and reads its lower bound against its peak. Imported by
// tests only.

import { validatePlan, type PlanValidation } from '../assembly/validate-plan';
import type { ModelPlan } from '../plan-types';
import type { PlacementProblem } from '../problem/problem';

/** validatePlan on the placement problem a plan's buffers describe, every offset aligned to its region's alignment. */
export function revalidatePlan(plan: ModelPlan, regionAlignment: ReadonlyMap<string, number> = new Map()): PlanValidation {
  const problem: PlacementProblem = {
    buffers: plan.buffers.map((b) => ({
      id: b.id,
      name: b.name,
      size: b.size,
      start: b.start,
      end: b.end,
      region: b.region,
      ...(b.alias === undefined && { alignment: regionAlignment.get(b.region) ?? 1 }),
    })),
    aliases: plan.buffers.flatMap((b) => (b.alias === undefined ? [] : [{ buffer: b.id, parent: b.alias.parent, offset: b.alias.offset }])),
  };
  const regions = plan.regions.map((r) => ({ name: r.name, peak: r.peak }));
  return validatePlan(problem, { offsets: plan.buffers.map((b) => b.offset), peak: plan.peak, regions });
}
