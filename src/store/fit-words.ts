// A plan over its size limits in words: the "Does not fit" line the heap
// header shows, summary().warnings carries and the exports repeat, so the
// three cannot word it differently.

import { planLowerEstimate, planRefused, regionNeedEstimated } from '../planner/assembly/assumptions';
import type { ModelPlan, RegionPlan } from '../planner/plan';
import { formatBytes, formatBytesApart, MAX_EXACT_POWER } from '../shared/format';

/** True when every region is within its size limit. */
export function planFits(plan: ModelPlan): boolean {
  return plan.fits ?? plan.regions.every((r) => r.sizeLimit === undefined || r.peak <= r.sizeLimit);
}

/** Bytes region `r` needs above its size limit (0 when it fits or has none). */
export function regionOverBy(r: ModelPlan['regions'][number]): number {
  return r.overBy ?? (r.sizeLimit === undefined ? 0 : Math.max(0, (r.used ?? r.peak) - r.sizeLimit));
}

/** The regions above their size limit, in the target's order. */
export function regionsOver(plan: ModelPlan): RegionPlan[] {
  return plan.regions.filter((r) => regionOverBy(r) > 0);
}

/** What a region holds besides its plan, in words: "232 KiB of it weights", "26.4 KiB of it TFLite Micro's tail and planning". */
export function heldWords(weights: number, tail: number): string[] {
  return [weights > 0 ? `${formatBytes(weights)} of it weights` : '', tail > 0 ? `${formatBytes(tail)} of it TFLite Micro's tail and planning` : ''].filter((t) => t !== '');
}

/**
 * "sram needs 106 MiB, 105.5 MiB over its 512 KiB limit", in bytes when need and limit round alike ("1,050,112 B …
 * over its 1,048,576 B limit") ("at least" when the figure is a lower estimate: a size unknown, or a TFLM kernel's
 * scratch; "(estimate)" after it when `estimated`: it rests on TensorFlow Lite Micro's estimated tail).
 */
export function overLimitText(r: RegionPlan, complete = true, estimated = false): string {
  const least = complete ? '' : 'at least ';
  const about = estimated ? ' (estimate)' : '';
  const held = heldWords(r.weights ?? 0, r.runtimeTail ?? 0);
  const weights = held.length > 0 ? ` (${held.join(', ')})` : '';
  // a need just over its limit is written in bytes when the two round alike: "needs 1.00 MiB … over its 1.00 MiB limit" reads as exactly its limit
  const [need, limit] = formatBytesApart(r.used ?? r.peak, r.sizeLimit ?? 0);
  return `${r.name} needs ${least}${need}${about}${weights}, ${least}${formatBytes(regionOverBy(r))} over its ${r.sizeLimit === undefined ? formatBytes(undefined) : limit} limit`;
}

/** "sram holds 'scores', which needs more than 2^53 − 1 bytes: over its 512 KiB limit, as over any". */
export function pastLimitText(r: RegionPlan): string {
  const more = (r.pastLimit ?? []).length > 1 ? ` (and ${r.pastLimit!.length - 1} more)` : '';
  return `${r.name} holds '${r.pastLimit?.[0] ?? ''}'${more}, which needs more than ${MAX_EXACT_POWER} bytes: over its ${formatBytes(r.sizeLimit)} limit, as over any`;
}

/** Every region over its limit, joined: what follows "Does not fit:". */
export function overLimitList(plan: ModelPlan): string {
  // a model TensorFlow Lite Micro refuses fits no arena limit: AllocateTensors() fails whatever the arena, so its
  // figures over a limit ("needs … over its limit") are not what stands between it and fitting, and are not given
  if (planRefused(plan)) return 'TensorFlow Lite Micro refuses the model, no tensor arena works, within the limit or any other';
  // a tensor known to need more than 2^53 − 1 bytes is over any limit: said of its region, not "unknown"
  const past = plan.regions.filter((r) => r.pastLimit !== undefined && regionOverBy(r) === 0).map((r) => pastLimitText(r));
  const over = regionsOver(plan).map((r) => (r.pastLimit !== undefined ? pastLimitText(r) : overLimitText(r, !planLowerEstimate(plan), regionNeedEstimated(plan, r))));
  if (over.length + past.length > 0) return [...over, ...past].join('; ');
  return 'a region is over its size limit';
}

/** "Does not fit: sram needs …" — the verdict line of a plan over a limit; undefined when it fits. */
export function fitVerdict(plan: ModelPlan): string | undefined {
  return planFits(plan) ? undefined : `Does not fit: ${overLimitList(plan)}`;
}
