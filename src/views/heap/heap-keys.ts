// What the keys of the heap diagram select: ← and → walk time one step, Home
// and End go to the first and last step, ↑ and ↓ move between the buffers live
// at the step, in the order they are drawn (lanes top to bottom, then higher
// addresses above lower ones). A pure function of the view model and where the
// keyboard stands, so heap-view.tsx only wires it to its keydown.

import type { HeapData } from './heap-data';

/** Where the keyboard stands in the diagram. */
export interface HeapCursor {
  readonly step: number | undefined; // the step time walks from; undefined: none yet
  readonly buffer: number | undefined; // the selected buffer's index, which ↑ and ↓ walk from
}

/** What a key selects: a step, or a buffer reached at `step` (where time walks on from). */
export type HeapKeyMove = { readonly kind: 'step'; readonly step: number } | { readonly kind: 'buffer'; readonly buffer: number; readonly step: number };

/**
 * The step the keyboard stands at: a selected step's, a node's step, or for a
 * buffer the step it was reached at by ↑ or ↓ (`walked`) while that is in its
 * lifetime, else its first step, where its producer runs: a buffer stands
 * where it is born, as its node does, so → goes to the step after that and ←
 * to the one before, and the buffer is never left for step 0.
 */
export function cursorStep(data: HeapData, step: number | undefined, buffer: number | undefined, walked: number | undefined): number | undefined {
  if (step !== undefined || buffer === undefined) return step;
  const start = data.start[buffer]!;
  return walked !== undefined && start <= walked && walked < data.end[buffer]! ? walked : start;
}

/** Where ↑ or ↓ last reached a buffer: the buffer's index and the step it was reached at. */
export interface HeapWalk {
  readonly buffer: number;
  readonly step: number;
}

/**
 * The step the diagram marks: the selected step, or with a buffer selected the
 * step ↑ or ↓ reached it at, so moving between the buffers live at a step
 * keeps that step marked; a buffer selected otherwise (a click, the graph)
 * marks none.
 */
export function markedStep(step: number | undefined, buffer: number | undefined, walk: HeapWalk | undefined): number | undefined {
  if (step !== undefined) return step;
  return buffer !== undefined && walk?.buffer === buffer ? walk.step : undefined;
}

/** The move `key` makes from `at`, or undefined when the heap does not take the key (or has nothing to move to). */
export function heapKeyTarget(data: HeapData, key: string, at: HeapCursor): HeapKeyMove | undefined {
  const last = data.steps - 1;
  if (key === 'Home' || key === 'End') return { kind: 'step', step: key === 'Home' ? 0 : last };
  if (key === 'ArrowRight' || key === 'ArrowLeft') {
    const delta = key === 'ArrowRight' ? 1 : -1;
    // With nothing selected → starts at the first step and ← at the last.
    const next = at.step === undefined ? (delta > 0 ? 0 : last) : at.step + delta;
    return { kind: 'step', step: Math.min(last, Math.max(0, next)) };
  }
  if ((key !== 'ArrowDown' && key !== 'ArrowUp') || at.step === undefined) return undefined;
  const live = liveInDrawnOrder(data, at.step);
  if (live.length === 0) return undefined;
  const here = at.buffer === undefined ? -1 : live.indexOf(at.buffer);
  // From a step (or a buffer not live there), ↓ enters at the top and ↑ at the bottom.
  const next = here < 0 ? (key === 'ArrowDown' ? 0 : live.length - 1) : Math.min(live.length - 1, Math.max(0, here + (key === 'ArrowDown' ? 1 : -1)));
  return { kind: 'buffer', buffer: live[next]!, step: at.step };
}

/** The buffers live at `step`, top to bottom as drawn: by lane, then by top address, higher first. */
export function liveInDrawnOrder(data: HeapData, step: number): number[] {
  const live: number[] = [];
  for (let i = 0; i < data.count; i += 1) if (data.start[i]! <= step && step < data.end[i]!) live.push(i);
  const top = (i: number): number => data.offset[i]! + data.size[i]!;
  return live.sort((a, b) => data.lane[a]! - data.lane[b]! || top(b) - top(a) || data.offset[b]! - data.offset[a]! || a - b);
}
