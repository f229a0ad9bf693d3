// What `plan` says it proved: `search.proof` names the bound the peak reaches,
// and a plan proven above the lower bound carries that bound as
// `strategyBound`, so "optimal" is never read against a bound the peak is over.
// Skips with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const have = existsSync(MODELS);
if (!have) console.log(`cli plan proof: ${MODELS} is absent; skipping`);

type Plan = { peak: number; lowerBound: number; optimal: boolean; strategyBound?: number; search: { proven: boolean; stoppedBy: string; proof?: string } };

/** Every proven plan reaches the bound its proof names; an unproven one claims no stop at an optimum. */
function expectProofHolds(plan: Plan): void {
  if (!plan.search.proven) {
    expect(plan.search.stoppedBy).not.toBe('optimal');
    return;
  }
  if (plan.search.proof === 'lower-bound') {
    expect(plan.peak).toBe(plan.lowerBound);
    return;
  }
  expect(['region-bounds', 'search']).toContain(plan.search.proof);
  expect(plan.peak).toBeGreaterThan(plan.lowerBound);
  expect(plan.strategyBound).toBe(plan.peak);
}

describe.skipIf(!have)('what a plan proves', () => {
  it('inception at accelerator: proven by exhaustive search above the lower bound, the bound it reaches carried and named', () => {
    const file = join(MODELS, 'light_inception_v1.onnx');
    const plan: Plan = planJson([file, '--target', 'accelerator']);
    expect(plan.optimal).toBe(false);
    expect(plan.search).toEqual({ proven: true, stoppedBy: 'optimal', proof: 'search' });
    expectProofHolds(plan);
    expect(run(['plan', file, '--target', 'accelerator']).out).toMatch(/best's own bound .*an exhaustive search proved no placement of its buffers lower: the peak is the lowest for them, not proven against the lower bound/);
  }, 60_000);

  it('ultraface at mcu: every region at its own bound, proven for its split only', () => {
    const file = join(MODELS, 'ultraface_RFB-320.onnx');
    const plan: Plan = planJson([file, '--target', 'mcu']);
    expect(plan.search).toEqual({ proven: true, stoppedBy: 'optimal', proof: 'region-bounds' });
    expectProofHolds(plan);
    expect(run(['plan', file, '--target', 'mcu']).out).toMatch(/every region is at its own bound: the peak is the lowest for this split, not proven against the lower bound/);
  }, 60_000);

  it('mnist at cpu: at the lower bound, proven against it', () => {
    const plan: Plan = planJson([join(MODELS, 'winml_mnist.onnx')]);
    expect(plan.search.proof).toBe('lower-bound');
    expectProofHolds(plan);
  });
});
