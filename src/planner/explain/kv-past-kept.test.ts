import { describe, expect, it } from 'vitest';
import type { BufferInfo } from '../problem/build-problem';
import type { PlacementProblem } from '../problem/problem';
import { kvPastKept } from './kv-past-kept';
import { kvPastKeptText } from './kv-past-words';

const io = (kind: BufferInfo['kind'], bytes: number): BufferInfo => ({ kind, node: undefined, bytes, padding: 0, graphIo: kind !== 'activation' });

/** A decode step: past read at step 0 only, present written at step 1 and kept to the end, an activation between. */
function step(): { problem: PlacementProblem; info: BufferInfo[] } {
  return {
    problem: {
      buffers: [
        { id: 0, name: 'past_0', size: 1000, start: 0, end: 1 },
        { id: 1, name: 'h', size: 100, start: 0, end: 2 },
        { id: 2, name: 'present_0', size: 1000, start: 1, end: 3 },
      ],
    },
    info: [io('input', 1000), io('activation', 100), io('output', 1000)],
  };
}

describe('a KV cache whose past inputs the plan reuses after their last read', () => {
  it('places the buffers again with each past input kept to the end of the run, and says what that adds', () => {
    // present_0 takes past_0's bytes from step 1: 1,100 B; a runtime keeping past_0 for the whole step holds both, 2,100 B
    const { problem, info } = step();
    const kept = kvPastKept(problem, info, new Set(['past_0']), 'best', 1100);
    expect(kept).toEqual({ inputs: ['past_0'], peak: 2100, extra: 1000 });
    expect(kvPastKeptText(kept!)).toBe(
      "the bytes of each past input of the KV cache are reused after its last read (past_0), as a runtime sharing past and present buffers allows; a runtime that keeps the past inputs in the caller's buffers for the whole run (ONNX Runtime without a shared past/present buffer) holds past and present at once: 1000 B more, a peak of 2.05 KiB",
    );
  });

  it('assumes nothing when no past input is freed before the end: no KV cache, or one live to the end already', () => {
    const { problem, info } = step();
    expect(kvPastKept(problem, info, new Set(), 'best', 1100)).toBeUndefined();
    const whole = { buffers: problem.buffers.map((b) => (b.id === 0 ? { ...b, end: 3 } : b)) };
    expect(kvPastKept(whole, info, new Set(['past_0']), 'best', 2100)).toBeUndefined();
  });
});
