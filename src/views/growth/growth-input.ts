// What the growth chart draws for the plan on screen: the curve's points, the
// plan's memory map with its size limits, and the plan on screen as the
// current value with its peaks. Shared by the Growth view and the export.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import type { GrowthState } from '../../store/state';
import { growthAxisLabel, growthCurrent } from '../../worker/growth-axes';
import type { GrowthChartInput } from './growth-geometry';

/** The chart's input for `growth` over the plan on screen, and the axis in words. */
export function growthChartOf(growth: GrowthState | undefined, plan: ModelPlan, model: InferredModel, axis = growth?.axis): { input: GrowthChartInput; label: string } | undefined {
  if (axis === undefined) return undefined;
  const current = growthCurrent(model, axis);
  return {
    label: growthAxisLabel(axis),
    input: {
      points: growth?.points ?? [],
      regions: plan.regions.map((r) => ({ name: r.name, sizeLimit: r.sizeLimit })),
      current: current === undefined ? undefined : { value: current, regions: plan.regions.map((r) => ({ name: r.name, peak: r.peak })) },
    },
  };
}
