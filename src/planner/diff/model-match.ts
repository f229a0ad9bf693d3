// Whether two plans are of one model: a plan of the same graph with other
// settings shares most tensor names, and a renamed export of it runs the same
// op types in nearly the same order. Two different models share neither, and
// pairing their buffers by producer and position would only pair unrelated
// tensors. Depends only on the plan file types.

import type { PlanFile } from '../assembly/plan-file';

/** Share of the smaller plan's buffers that must match by name for the plans to be of one model. */
const NAMES_SHARED = 0.5;
/** Share of the longer schedule that must run the same op types in order (a renamed export) when names do not match. */
const OPS_IN_ORDER = 0.8;
/** Most cells of the op-order comparison; past it the op types are compared as counts. */
const MAX_CELLS = 16_000_000;

/** How two plans' graphs compare. */
export interface ModelMatch {
  readonly same: boolean; // one model: match buffers by name, then by producer and position
  readonly sharedNames: number; // buffers of B whose tensor name a buffer of A has
}

/** Compares the graphs of `a` and `b`; see the module header. */
export function matchModels(a: PlanFile, b: PlanFile): ModelMatch {
  const namesA = new Set(a.plan.buffers.map((x) => x.name));
  const sharedNames = b.plan.buffers.filter((x) => namesA.has(x.name)).length;
  const smaller = Math.min(a.plan.buffers.length, b.plan.buffers.length);
  if (smaller === 0 || sharedNames >= NAMES_SHARED * smaller) return { same: true, sharedNames };
  const [opsA, opsB] = [a.plan.steps.map((s) => s.opType), b.plan.steps.map((s) => s.opType)];
  const longer = Math.max(opsA.length, opsB.length);
  if (longer === 0) return { same: true, sharedNames };
  return { same: opsInOrder(opsA, opsB) >= OPS_IN_ORDER * longer, sharedNames };
}

/** The longest run of op types both schedules take in order (or, for very long ones, the op types both have, counted). */
function opsInOrder(a: readonly string[], b: readonly string[]): number {
  if (a.length * b.length > MAX_CELLS) return sharedCounts(a, b);
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const op of a) {
    const current = [0];
    for (let j = 0; j < b.length; j++) current.push(op === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!));
    previous = current;
  }
  return previous[b.length]!;
}

function sharedCounts(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const op of a) counts.set(op, (counts.get(op) ?? 0) + 1);
  let shared = 0;
  for (const op of b) {
    const left = counts.get(op) ?? 0;
    if (left === 0) continue;
    shared++;
    counts.set(op, left - 1);
  }
  return shared;
}
