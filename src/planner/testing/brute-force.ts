// An independent exhaustive solver for tiny problems (no alias groups), used
// to check the planner's optimality claims: the optimum is the best first-fit
// placement over all orders of the free buffers, around the fixed ones (first
// fit in the order of an optimal placement's offsets puts each buffer at or
// below its offset there). Shares no code with the planner.

import type { PlacementProblem } from '../problem/problem';

/** The optimal peak of a tiny problem: one region, no aliases (n <= 7 free buffers); fixed buffers stay where they are. */
export function bruteForceOptimum(problem: PlacementProblem): number {
  const { buffers } = problem;
  if ((problem.aliases ?? []).length > 0 || buffers.some((b) => b.region !== undefined)) {
    throw new Error('bruteForceOptimum takes one region without aliases');
  }
  const order = buffers.map((_, i) => i).filter((i) => buffers[i]!.fixedOffset === undefined);
  let best = Infinity;
  permute(order, 0, () => {
    best = Math.min(best, firstFitPeak(problem, order));
  });
  return buffers.length === 0 ? 0 : best;
}

function permute(items: number[], k: number, visit: () => void): void {
  if (k === items.length) {
    visit();
    return;
  }
  for (let i = k; i < items.length; i++) {
    [items[k], items[i]] = [items[i]!, items[k]!];
    permute(items, k + 1, visit);
    [items[k], items[i]] = [items[i]!, items[k]!];
  }
}

function firstFitPeak(problem: PlacementProblem, order: readonly number[]): number {
  const { buffers } = problem;
  const offsets = new Map<number, number>();
  let peak = 0;
  buffers.forEach((b, i) => {
    if (b.fixedOffset === undefined) return;
    offsets.set(i, b.fixedOffset);
    peak = Math.max(peak, b.fixedOffset + b.size);
  });
  for (const b of order) {
    const me = buffers[b]!;
    const align = me.alignment ?? problem.alignment ?? 1;
    let x = 0;
    for (let moved = true; moved; ) {
      moved = false;
      for (const [other, at] of offsets) {
        const o = buffers[other]!;
        const live = me.start < o.end && o.start < me.end;
        if (live && me.size > 0 && o.size > 0 && x < at + o.size && at < x + me.size) {
          x = Math.ceil((at + o.size) / align) * align;
          moved = true;
        }
      }
    }
    offsets.set(b, x);
    peak = Math.max(peak, x + me.size);
  }
  return peak;
}
