// The figures of one planned value of a sweep, as the CLI's `sweep` and the
// page's Growth curve give them: peak, lower bound, per region, whether every
// size is known (and if not, the first tensor whose size is unknown, and why),
// and the largest buffer. Depends on the inferred model and the plan's types.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../plan-types';
import type { SweepPoint } from './dim-sweep';

/** The point of `value`, given the model inferred there and its plan. */
export function sweepPoint(value: number, model: InferredModel, plan: Pick<ModelPlan, 'peak' | 'lowerBound' | 'regions' | 'complete' | 'buffers'>): SweepPoint {
  const largest = plan.buffers.reduce<{ name: string; size: number } | undefined>((a, b) => (a === undefined || b.size > a.size ? { name: b.name, size: b.size } : a), undefined);
  const unknown = plan.complete ? undefined : firstUnknown(model);
  return {
    value,
    peak: plan.peak,
    lowerBound: plan.lowerBound,
    regions: plan.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound })),
    complete: plan.complete,
    ...(largest !== undefined && { largest }),
    ...(unknown !== undefined && { unknown }),
  };
}

/** "'name': why" of the first run-time tensor whose size is unknown, the name quoted as every tensor name in a sentence is (a name such as '466' would read as a number). */
function firstUnknown(model: InferredModel): string | undefined {
  const v = model.values.find((x) => (x.kind === 'activation' || x.kind === 'output' || x.kind === 'input') && x.bytes === undefined);
  return v === undefined ? undefined : `'${v.name}': ${v.unknownReason ?? 'shape unknown'}`;
}
