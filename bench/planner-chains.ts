// Benchmark rows for bench/planner.ts: chains of 10k, 40k and 100k Relu nodes,
// the time to plan them (as `plan` does, suggestions included) beside the
// time to decode and infer them (what `inspect` does). Planning must stay
// linear in nodes (issue 17 item 4). Prints figures; never fails on time.

import { decodeOnnx } from '../src/model/decode-onnx';
import { inferShapes } from '../src/model/infer-shapes';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planModel } from '../src/planner/plan';
import { presetTarget } from '../src/planner/targets/presets';

/** The bytes of x -> Relu -> ... (n nodes) -> y. */
function reluChainBytes(n: number): Uint8Array {
  const g = new GraphBuilder('chain');
  let x = g.input('x', 'float32', [1, 64]);
  for (let i = 0; i < n; i++) x = g.node('Relu', [x]);
  g.output(x, 'float32', [1, 64]);
  return g.toBytes();
}

/** Prints, per chain length, inspect and plan times and their ratio. */
export function printChainTimes(sizes: readonly number[], formatMs: (ms: number) => string): void {
  console.log('\nChains of Relu nodes on the cpu preset: plan (suggestions included) against inspect (decode + infer)');
  console.log(['nodes'.padStart(8), 'inspect'.padStart(10), 'plan'.padStart(10), 'plan/inspect'.padStart(13), 'peak'.padStart(6)].join('  '));
  const target = presetTarget('cpu');
  for (const n of sizes) {
    const bytes = reluChainBytes(n);
    const started = performance.now();
    const model = inferShapes(decodeOnnx(bytes), {});
    const inspectMs = performance.now() - started;
    const planStarted = performance.now();
    const plan = planModel(model, target, { suggest: true });
    const planMs = performance.now() - planStarted;
    const valid = plan.valid ? '' : ' INVALID';
    console.log([String(n).padStart(8), formatMs(inspectMs).padStart(10), formatMs(planMs).padStart(10), `${(planMs / inspectMs).toFixed(1)}x`.padStart(13), String(plan.peak).padStart(6) + valid].join('  '));
  }
}
