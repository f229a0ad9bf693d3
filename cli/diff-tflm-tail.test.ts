// `diff --json` on TensorFlow Lite Micro plans: each side's `tail` is the arena
// beyond the head (tail and planning), kept as it was; `tailAlone` is the tail
// as `plan --json` gives it (`runtimePlan.tail`) and `planning` the rest.
// Skips when ../shared is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const HELLO = join(__dirname, '../../shared/models/tflite/tflm_hello_world_int8.tflite');

describe.skipIf(!existsSync(HELLO))('diff --json runtime tails', () => {
  it("gives each side's tail alone, as plan gives it, and the planning room, beside tail = arena - head", () => {
    const plan = planJson([HELLO, '--target', 'tflm']).runtimePlan;
    const { out, code } = run(['diff', HELLO, HELLO, '--target', 'tflm', '--json']);
    expect(code).toBe(0);
    const { runtime } = JSON.parse(out);
    for (const side of [runtime.a, runtime.b]) {
      expect(side.head).toBe(plan.planned.head);
      expect(side.arena).toBe(plan.planned.arena);
      expect(side.tail).toBe(side.arena - side.head);
      expect(side.tailAlone).toBe(plan.tail);
      expect(side.planning).toBe(side.arena - side.head - plan.tail);
      expect(side.tailAlone + side.planning).toBe(side.tail);
      expect(side.planning).toBeGreaterThanOrEqual(0);
    }
    expect(runtime.a.tailAlone).toBe(680);
    expect(runtime.a.tail).toBe(1072); // 1,104 B arena less the 32 B head: the tail before the graph I/O structs is rounded up to 16 under planning's bytes
    // the README's worked example is this model's
    const readme = readFileSync(join(__dirname, '../README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`for hello_world: \`tail\` ${runtime.a.tail} = \`tailAlone\` ${runtime.a.tailAlone} + \`planning\` ${runtime.a.planning})`);
  });
});
