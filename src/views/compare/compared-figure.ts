// What Compare's "B − A" compares: the peaks of heapscope's placements, or,
// when both sides are plans of TensorFlow Lite Micro, the tensor arenas the
// firmware declares (head and tail), with the peaks' change beside them, as
// `heapscope diff` prints them (planner/diff/runtime-delta.ts).

import type { PlanDiff, RuntimeArenaFigures } from '../../planner/diff/diff-plans';
import { percentChange } from '../../planner/diff/delta-words';
import { formatBytes } from '../../shared/format';
import { signedBytes } from './compare-scale';

/** The figure B − A reads. */
export interface ComparedFigure {
  readonly what: 'peak' | 'arena';
  readonly a: number; // A's figure in bytes, the base of the percentage
  readonly b: number;
  readonly delta: number; // b - a
  readonly label: string; // what the line names ("B − A", "B − A, arena to declare")
  readonly detail: string | undefined; // the arena's head and the rest (TFLM's tail and planning, as the memory map names it), and the peaks' change, when `what` is 'arena'
}

/** The figure a comparison is read by; see the module header. */
export function comparedFigure(diff: PlanDiff): ComparedFigure {
  const runtime = diff.runtime;
  if (runtime === undefined) return { what: 'peak', a: diff.peakA, b: diff.peakB, delta: diff.delta, label: 'B − A', detail: undefined };
  const { a, b } = runtime;
  const arenas = `TensorFlow Lite Micro arena ${formatBytes(a.arena)} → ${formatBytes(b.arena)} (head ${formatBytes(a.head)} → ${formatBytes(b.head)}, tail and planning ${formatBytes(a.tail)} → ${formatBytes(b.tail)})`;
  const peaks = `heapscope's placement: peak ${signedBytes(diff.delta)}, not what the firmware declares`;
  return { what: 'arena', a: a.arena, b: b.arena, delta: runtime.delta, label: 'B − A, arena to declare', detail: `${arenas} · ${peaks}` };
}

/** A side's arena in Compare's summary: "arena 73.1 KiB (head 72.7 KiB + tail and planning 416 B)". */
export function arenaSideText(arena: Pick<RuntimeArenaFigures, 'head' | 'tail' | 'arena'>): string {
  return `arena ${formatBytes(arena.arena)} (head ${formatBytes(arena.head)} + tail and planning ${formatBytes(arena.tail)})`;
}

/** "(+10.0 %)" of B − A against A's figure; empty when A's is 0. */
export function deltaPercent(figure: Pick<ComparedFigure, 'a' | 'delta'>): string {
  return percentChange(figure.delta, figure.a);
}
