// What the growth chart draws for the plan on screen: the curve's points, the
// plan's memory map with its size limits, and the plan on screen as the
// current value with its peaks. Shared by the Growth view and the export.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { decodeStepDim, type SweepAssumedDim } from '../../planner/sweep/decode-step';
import type { GrowthState } from '../../store/state';
import { growthAxisLabel, growthCurrent } from '../../worker/growth-axes';
import { shortName } from '../../shared/short-name';
import type { GrowthChartInput } from './growth-geometry';

/**
 * The chart's input for `growth` over the plan on screen, the axis in words,
 * and the dim the curve binds beyond the page's (a decode step's sequence
 * length). With such a dim, the plan on screen is of another sequence length
 * than the curve: its value is marked, its peaks are not drawn on the curve.
 */
export function growthChartOf(
  growth: GrowthState | undefined,
  plan: ModelPlan,
  model: InferredModel,
  axis = growth?.axis,
): { input: GrowthChartInput; label: string; assumed: SweepAssumedDim | undefined } | undefined {
  if (axis === undefined) return undefined;
  const current = growthCurrent(model, axis);
  const assumed = axis.kind === 'dim' ? decodeStepDim(model, axis.name) : undefined;
  const peaks = assumed === undefined ? plan.regions.map((r) => ({ name: r.name, peak: r.peak })) : [];
  return {
    label: growthAxisLabel(axis),
    assumed,
    input: {
      points: growth?.points ?? [],
      regions: plan.regions.map((r) => ({ name: r.name, sizeLimit: r.sizeLimit })),
      current: current === undefined ? undefined : { value: current, regions: peaks },
    },
  };
}

/** "sequence_length = 1 (a decode step: …)": the dim a curve binds beyond the page's, in words. */
export function assumedDimText(assumed: SweepAssumedDim): string {
  return `${shortName(assumed.name)} = ${assumed.value} (${assumed.reason})`;
}
