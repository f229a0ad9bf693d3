// Model state (a TFLite variable tensor, which the IR reads as an input) in a
// plan, on a model the test writes: the runtime keeps it in its arena between
// runs, so it is live for the whole run whoever owns graph I/O, never shares
// its bytes with an output written over it, and is no graph I/O.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../model/decode-model';
import { inferShapes } from '../model/infer/shapes';
import { writeTflite } from '../model/testing/tflite-writer';
import { planModel } from './plan';
import { presetTarget } from './targets/presets';
import type { TargetProfile } from './targets/target';

/** x (input, 256 B) + state (variable, 1 KiB) -> y (output, 1 KiB), at the last step. */
function stateModel(): Uint8Array {
  return writeTflite({
    subgraphs: [
      {
        name: 'main',
        tensors: [
          { name: 'x', shape: [1, 256], type: 'INT8' },
          { name: 'state', shape: [1, 256], type: 'FLOAT32', variable: true },
          { name: 'h', shape: [1, 256], type: 'FLOAT32' },
          { name: 'y', shape: [1, 256], type: 'FLOAT32' },
        ],
        inputs: [0],
        outputs: [3],
        operators: [
          { op: 'DEQUANTIZE', inputs: [0], outputs: [2] },
          { op: 'ADD', inputs: [1, 2], outputs: [3] },
        ],
      },
    ],
  });
}

const withIo = (target: TargetProfile, io: 'arena' | 'application'): TargetProfile => ({ ...target, planning: { ...target.planning, io } });
const planOf = (target: TargetProfile) => planModel(inferShapes(decodeModel(stateModel())), target);

describe('model state in a plan', () => {
  it.each(['cpu', 'mcu'])('on %s: the state is an activation flagged state, live for the whole run, and not graph I/O', (name) => {
    const plan = planOf(presetTarget(name));
    const state = plan.buffers.find((b) => b.name === 'state')!;
    expect(state).toMatchObject({ kind: 'activation', state: true, start: 0, end: plan.steps.length, size: 1024 });
    expect(plan.buffers.filter((b) => b.state === true)).toHaveLength(1);
    expect(plan.storage?.io.bytes).toBe(256 + 1024);
    expect(plan.valid).toBe(true);
  });

  it('stays in the arena when the application owns graph I/O', () => {
    const plan = planOf(withIo(presetTarget('cpu'), 'application'));
    expect(plan.storage?.io).toMatchObject({ owner: 'application', bytes: 256 + 1024, inArena: 0 });
    expect(plan.buffers.find((b) => b.name === 'state')?.size).toBe(1024);
    expect(plan.peak).toBeGreaterThanOrEqual(1024);
    expect(plan.valid).toBe(true);
  });

  it('is never written over by the last op, though its lifetime ends with the run', () => {
    const cpu = presetTarget('cpu');
    // ADD run in place may take over an operand it reads last: the dequantized input, never the state
    const plan = planOf({ ...cpu, planning: { ...cpu.planning, opKinds: { 'tflite::ADD': 'in-place' } } });
    expect(plan.buffers.find((b) => b.name === 'y')?.alias).toMatchObject({ rule: 'in-place' });
    const state = plan.buffers.find((b) => b.name === 'state')!;
    for (const b of plan.buffers) expect(b.alias?.parent, b.name).not.toBe(state.id);
    expect(state.alias).toBeUndefined();
    expect(plan.valid).toBe(true);
  });
});
