// What a decoder's plan assumes of its KV cache: a past input (a graph input)
// is live from the start until its last reader, so the plan reuses its bytes
// afterwards, for the present outputs among others. That holds for a runtime
// that frees or reuses the past's buffer within the step (TFLite Micro, a
// shared past/present buffer); one that keeps the past inputs in the caller's
// buffers for the whole run (ONNX Runtime without a shared buffer) holds past
// and present at once. This module places the plan's buffers again with every
// past input kept to the end of the run, so the bytes that adds are computed.
// Depends only on the planner.

import { assignOffsets } from '../assembly/assign-offsets';
import { WORK_PER_MS } from '../engine/work-clock';
import type { BufferInfo } from '../problem/build-problem';
import type { PlacementProblem } from '../problem/problem';

/** Counted work of the placement with the past inputs kept (the best strategy's searches): 50 ms worth on the work clock. */
const KEPT_WORK = 50 * WORK_PER_MS;

/** The plan's buffers placed again with a KV cache's past inputs kept for the whole run (`explanation.kvPastKept`). */
export interface KvPastKept {
  readonly inputs: readonly string[]; // the past inputs whose bytes the plan reuses after their last read, in buffer order
  readonly peak: number; // the peak of the plan's buffers placed again with them live to the end of the run
  readonly extra: number; // bytes that adds to the plan's peak (0: none)
}

/**
 * The placement with every past input of `kvPast` that the plan frees before
 * the end of the run kept live to its end; undefined when none is freed early
 * (graph I/O owned by the application, no KV cache, or a past input that
 * shares the bytes of another buffer, which is left as it is).
 */
export function kvPastKept(
  problem: PlacementProblem,
  info: readonly BufferInfo[],
  kvPast: ReadonlySet<string>,
  strategy: string,
  peak: number,
): KvPastKept | undefined {
  const runEnd = problem.buffers.reduce((end, b) => Math.max(end, b.end), 0);
  const aliased = new Set((problem.aliases ?? []).flatMap((a) => [a.buffer, a.parent]));
  const early = problem.buffers.filter((b) => {
    const i = info[b.id];
    return i?.graphIo === true && i.kind === 'input' && kvPast.has(b.name) && b.end < runEnd && b.size > 0 && !aliased.has(b.id);
  });
  if (early.length === 0) return undefined;
  const kept = new Set(early.map((b) => b.id));
  const buffers = problem.buffers.map((b) => (kept.has(b.id) ? { ...b, end: runEnd } : b));
  const placed = assignOffsets({ ...problem, buffers }, strategy, { workBudget: KEPT_WORK });
  return { inputs: early.map((b) => b.name), peak: placed.peak, extra: Math.max(0, placed.peak - peak) };
}

