// The figures of one planned value of a sweep, as the CLI's `sweep` and the
// page's Growth curve give them: peak, lower bound, per region, whether every
// size is known (and if not, the first tensor whose size is unknown, and why),
// and the largest buffer. Depends on the inferred model and the plan's types.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../plan-types';
import type { SweepPoint } from './dim-sweep';

/** The point of `value`, given the model inferred there and its plan. */
export function sweepPoint(
  value: number,
  model: InferredModel,
  plan: Pick<ModelPlan, 'peak' | 'lowerBound' | 'regions' | 'complete' | 'fits' | 'buffers'> & Partial<Pick<ModelPlan, 'assumptions' | 'storage'>> & { readonly explanation?: Pick<ModelPlan['explanation'], 'kvPastKept'> },
): SweepPoint {
  const largest = plan.buffers.reduce<{ name: string; size: number } | undefined>((a, b) => (a === undefined || b.size > a.size ? { name: b.name, size: b.size } : a), undefined);
  const unknown = plan.complete ? undefined : firstUnknown(plan.assumptions?.unknown[0]) ?? firstUnknownValue(model);
  // a run-time tensor's size past 2^53 − 1 is in the plan's assumptions: a weight's or a constant's is in no buffer planned
  const pastLimit = plan.assumptions?.unknown.find((u) => u.pastLimit === true)?.tensor;
  const workspace = plan.assumptions?.workspace; // largest first
  return {
    value,
    peak: plan.peak,
    lowerBound: plan.lowerBound,
    regions: plan.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound, ...(r.overBy > 0 && { overBy: r.overBy }), ...(r.pastLimit !== undefined && { pastLimit: r.pastLimit }) })),
    complete: plan.complete,
    // as `plan` says: false where a region with a size limit holds a tensor past 2^53 − 1 bytes; a budget judges the rest
    fits: plan.fits,
    ...(largest !== undefined && { largest }),
    ...(unknown !== undefined && { unknown }),
    ...(pastLimit !== undefined && { pastLimit }),
    ...(workspace !== undefined && workspace.length > 0 && { workspace: workspaceAt(workspace) }),
    ...assumedAt(plan),
  };
}

/** What the point's plan rests on, as `plan` states it: default dims, If branches guessed, a KV cache's past inputs reused, graph I/O outside the arena; only what there is. */
function assumedAt(plan: Partial<Pick<ModelPlan, 'assumptions' | 'storage'>> & { readonly explanation?: Pick<ModelPlan['explanation'], 'kvPastKept'> }): Partial<SweepPoint> {
  const defaults = (plan.assumptions?.dims ?? []).filter((d) => !d.bound).map((d) => ({ name: d.name, value: d.value, axes: d.axes, rule: d.rule }));
  const branches = plan.assumptions?.branches ?? [];
  const kept = plan.explanation?.kvPastKept;
  const io = plan.storage?.io;
  return {
    ...(defaults.length > 0 && { defaults }),
    ...(branches.length > 0 && { branches: branches.map((b) => ({ node: b.node, taken: b.taken, reason: b.reason })) }),
    ...(kept !== undefined && { kvPastKept: kept }),
    ...(io?.owner === 'application' && { io: { owner: 'application' as const, bytes: io.bytes, inArena: io.inArena, ...(io.kvBytes !== undefined && { kvBytes: io.kvBytes }) } }),
  };
}

/** "'name': why" of the plan's first unknown (a tensor or a scratch buffer), the name quoted as every tensor name in a sentence is (a name such as '466' would read as a number). */
function firstUnknown(u: { readonly tensor: string; readonly reason: string } | undefined): string | undefined {
  return u === undefined ? undefined : `'${u.tensor}': ${u.reason}`;
}

/** The first run-time tensor of the model whose size is unknown, for a plan that lists no assumptions. */
function firstUnknownValue(model: InferredModel): string | undefined {
  const v = model.values.find((x) => (x.kind === 'activation' || x.kind === 'output' || x.kind === 'input') && x.bytes === undefined);
  return v === undefined ? undefined : `'${v.name}': ${v.unknownReason ?? 'shape unknown'}`;
}

/** The point's uncounted kernel workspace: how many ops, the largest (of known size when one is), and how many more are of unknown size. */
function workspaceAt(workspace: NonNullable<ModelPlan['assumptions']['workspace']>): NonNullable<SweepPoint['workspace']> {
  const unknown = workspace.filter((w) => w.bytes === undefined).length;
  return { operators: workspace.length, largest: workspace[0]!, ...(unknown > 0 && workspace[0]!.bytes !== undefined && { unknown }) };
}
