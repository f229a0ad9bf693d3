// How a plan grows with one symbolic dim: the values to plan at, the curve of
// peaks, whether it only grows, and where it crosses a budget (found by
// bisection on real plans, at every crossing, since a curve need not be
// monotonic: a larger sequence can change which branch or tiling is taken).
// Pure: the caller plans each value (it owns decoding and inference). Depends
// on nothing but src/shared.

import { InputError } from '../../shared/errors';
import type { KernelWorkspace } from '../scratch/kernel-workspace';

/** Most values a sweep plans for its curve. */
export const MAX_SWEEP_POINTS = 64;

/** One planned value of the dim. */
export interface SweepPoint {
  readonly value: number;
  readonly peak: number;
  readonly lowerBound: number;
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly lowerBound: number; readonly overBy?: number; readonly pastLimit?: readonly string[] }[]; // overBy: bytes over the region's size limit, where over; pastLimit: as `plan`'s region, tensors it holds past 2^53 − 1 bytes, over its limit
  readonly complete: boolean; // false: some size is unknown, and the peak is a lower estimate
  readonly fits: boolean; // every region within its size limit (as `plan`'s `fits`; of the sizes known when not complete), and within the caller's byte budget when it has one
  readonly largest?: { readonly name: string; readonly size: number }; // the largest buffer
  readonly unknown?: string; // when not complete: the first tensor whose size is unknown, and why
  readonly pastLimit?: string; // the first tensor whose size is known to pass 2^53 − 1 bytes (planned as 0 bytes): over any limit or budget, so the point fits neither a byte budget nor a region with a size limit that holds it; with neither, `fits` is `plan`'s
  readonly workspace?: { readonly operators: number; readonly largest: KernelWorkspace; readonly unknown?: number }; // fused attention ops whose kernel workspace no scratch rule of the target plans (not in the peak), and ONNX Runtime's CPU estimate of the largest known (`unknown`: how many more are of a size not known, when some are)
  readonly error?: string; // the value could not be planned (sizes past what the planner computes exactly), and why: peak and lower bound are no figures, the point does not fit
  readonly defaults?: readonly { readonly name: string; readonly value: number; readonly axes: readonly string[]; readonly rule: string }[]; // dims at their default value, as `plan`'s assumptions.dims not bound
  readonly branches?: readonly { readonly node: string; readonly taken: string; readonly reason: string }[]; // If branches chosen without the condition's value, as `plan`'s assumptions.branches
  readonly kvPastKept?: { readonly inputs: readonly string[]; readonly peak: number; readonly extra: number }; // as `plan`'s explanation.kvPastKept: the bytes a runtime keeping the past inputs for the whole run adds to the peak
  readonly io?: { readonly owner: 'application'; readonly bytes: number; readonly inArena: number; readonly kvBytes?: number }; // graph inputs and outputs owned by the application, as `plan`'s storage.io: outside the peak but for `inArena`
}

/**
 * Where the curve crosses the budget: the plan at `below` fits, the one at
 * `below + 1` does not, or the other way round. A plan with a size unknown
 * fits only when its lower estimate is already over (it does not fit); when
 * its estimate is within, whether it fits is not known, and the crossing says
 * `unknown`: that side is not over, only not known to fit. A crossing between
 * a plan that does not fit and one not known to fit has neither side fitting:
 * `notFitting` names the side that does not fit.
 */
export interface SweepCrossing {
  readonly below: number; // the last value on the first side
  readonly above: number; // below + 1, the first value on the other side
  readonly fitsBelow: boolean;
  readonly unknown?: true; // the side that does not fit is a lower estimate within the budget
  readonly notFitting?: 'below' | 'above'; // neither side fits: this side does not, the other is not known to (`unknown`)
  readonly pastLimit?: string; // with `unknown`: the side not known to fit is a lower estimate for this tensor past 2^53 − 1 bytes (its point's `pastLimit`), not for a size unknown
}

/** A point against the budget: it fits, it does not (over, or not planned), or its lower estimate is within and sizes are unknown. */
type Standing = 'fits' | 'over' | 'unknown';

/** A sweep's result: `fitsUpTo` is the largest value whose plan is known to fit the budget (undefined: none is, or no budget). */
export interface SweepResult<P extends SweepPoint = SweepPoint> {
  readonly dim: string;
  readonly points: readonly P[];
  readonly monotonic: boolean; // the peak never falls as the dim grows, over the planned values whose sizes are all known
  readonly monotonicLeftOut: readonly number[]; // planned values left out of `monotonic`: their peak is a lower estimate (a size unknown)
  readonly fitsUpTo?: number;
  readonly crossings: readonly SweepCrossing[];
}

/**
 * Where a sweep fits, as a phrase (lower case, no full stop): the largest
 * value known to fit, or, when that is the range's last value, that every
 * value swept fits: nothing beyond the range was planned, so the end of the
 * range is not where the plan stops fitting.
 */
export function fitsUpToText(dim: string, fitsUpTo: number, last: number | undefined): string {
  return fitsUpTo === last ? `every value swept fits, up to ${dim}=${fitsUpTo}, the end of the range (larger values were not tried)` : `fits up to ${dim}=${fitsUpTo}`;
}

/** The crossing from standing `a` at `below` to `b` at `above`. */
function crossingOf(below: number, above: number, a: Standing, b: Standing): SweepCrossing {
  const crossing = { below, above, fitsBelow: a === 'fits' };
  if (a === 'fits' || b === 'fits') return a === 'unknown' || b === 'unknown' ? { ...crossing, unknown: true } : crossing;
  return { ...crossing, unknown: true, notFitting: a === 'over' ? 'below' : 'above' };
}

/**
 * The values to plan: with no count, the ends and every power of two between
 * them; with `points`, that many values spread evenly on a log scale, rounded,
 * without repeats (from 0: 0 set apart, the rest on a log scale from 1, as
 * the page's Growth draws it).
 */
export function sweepValues(from: number, to: number, points?: number): number[] {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && to >= from)) {
    throw new InputError('bad-argument', `a sweep needs whole numbers FROM..TO with FROM ≤ TO, got ${from}..${to}`);
  }
  if (points !== undefined && (!Number.isSafeInteger(points) || points < 2 || points > MAX_SWEEP_POINTS)) {
    throw new InputError('bad-argument', `--points must be a whole number from 2 to ${MAX_SWEEP_POINTS}, got ${points}`);
  }
  const values = new Set<number>([from, to]);
  if (points === undefined) {
    for (let p = 1; p < to; p *= 2) if (p > from) values.add(p);
    if (values.size > MAX_SWEEP_POINTS) throw new InputError('bad-argument', `${from}..${to} spans more than ${MAX_SWEEP_POINTS} powers of two; give --points`);
  } else {
    // from 0, the log scale runs from 1 over the values after 0
    const [low, skip] = from === 0 ? [Math.min(1, to), 1] : [from, 0];
    for (let i = 1; i < points - 1; i++) {
      const t = (i - skip) / (points - 1 - skip);
      values.add(Math.round(low * (to / low) ** t));
    }
  }
  return [...values].sort((a, b) => a - b);
}

/**
 * Whether a point's plan fits: a byte budget on the whole peak, or a test of
 * the point (each region within its limit). Either is asked of complete
 * plans only: an unknown size is never counted as fitting (as zero bytes).
 */
export type SweepBudget<P extends SweepPoint = SweepPoint> = number | ((point: P) => boolean);

/**
 * Plans every value, then, with a budget, bisects each pair of neighbouring
 * points on opposite sides of it down to neighbouring integers. `planAt` is
 * called once per distinct value.
 */
export function sweepDim<P extends SweepPoint>(dim: string, values: readonly number[], planAt: (value: number) => P, budget?: SweepBudget<P>): SweepResult<P> {
  const steps = sweepSteps(dim, values, budget);
  let step = steps.next();
  while (!step.done) step = steps.next(planAt(step.value));
  return step.value;
}

/**
 * The sweep as steps, for a caller that plans between them (the page's worker,
 * which lets newer requests in): yields each value to plan, once, and takes
 * its point back through `next(point)`; returns the result.
 */
export function* sweepSteps<P extends SweepPoint>(dim: string, values: readonly number[], budget?: SweepBudget<P>): Generator<number, SweepResult<P>, P> {
  const cache = new Map<number, P>();
  function* at(v: number): Generator<number, P, P> {
    let p = cache.get(v);
    if (p === undefined) {
      p = yield v;
      cache.set(v, p);
    }
    return p;
  }
  const points: P[] = [];
  for (const v of values) points.push(yield* at(v));
  // a lower estimate says nothing of a fall: where sizes overflow, it drops as the dim grows
  const complete = points.filter((p) => p.error === undefined && p.complete);
  const judged = { monotonic: complete.every((p, i) => i === 0 || p.peak >= complete[i - 1]!.peak), monotonicLeftOut: points.filter((p) => p.error === undefined && !p.complete).map((p) => p.value) };
  if (budget === undefined) return { dim, points, ...judged, crossings: [] };
  // a size known to pass 2^53 − 1 bytes is over any byte budget: no lower estimate "not known to fit"
  const withinBudget = typeof budget === 'number' ? (p: P) => p.peak <= budget && p.pastLimit === undefined : budget;
  function* standing(v: number): Generator<number, Standing, P> {
    const p = yield* at(v);
    if (p.error !== undefined || !withinBudget(p)) return 'over';
    return p.complete ? 'fits' : 'unknown';
  }
  const crossings: SweepCrossing[] = [];
  for (let i = 1; i < values.length; i++) {
    // each change of standing between two neighbours, found by bisection; a third standing met on the way is crossed too
    let lo = values[i - 1]!;
    const end = values[i]!;
    for (let from = yield* standing(lo); from !== (yield* standing(end)); from = yield* standing(lo)) {
      let hi = end;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if ((yield* standing(mid)) === from) lo = mid;
        else hi = mid;
      }
      const crossing = crossingOf(lo, hi, from, yield* standing(hi));
      // the side not known to fit: a size past 2^53 − 1 bytes there is named, as its point names it
      const open = crossing.unknown === true ? (yield* at(from === 'unknown' ? lo : hi)).pastLimit : undefined;
      crossings.push(open === undefined ? crossing : { ...crossing, pastLimit: open });
      lo = hi;
    }
  }
  const last = values[values.length - 1]!;
  const lastFit = (yield* standing(last)) === 'fits' ? last : [...crossings].reverse().find((c) => c.fitsBelow)?.below;
  return { dim, points, ...judged, crossings, ...(lastFit !== undefined && { fitsUpTo: lastFit }) };
}
