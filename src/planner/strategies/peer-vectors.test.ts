// The 25 cases other planners' test suites publish (TFLite Micro, TFLite GPU,
// TVM USMP, Arm Vela, MiniMalloc), from ../shared/planner/peer-vectors.json.

import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { lowerBound } from '../problem/lower-bound';
import { STRATEGY_NAMES } from './registry';
import { loadPeerVectors, peerProblem, type PeerCase } from '../testing/shared-data';
import { validatePlan } from '../assembly/validate-plan';

const vectors = loadPeerVectors();
if (vectors === undefined) console.warn('peer vectors skipped: ../shared/planner/peer-vectors.json is absent');
const cases = Object.entries(vectors ?? {});

describe.skipIf(vectors === undefined)('peer vectors', () => {
  it('holds all 25 cases', () => {
    expect(cases).toHaveLength(25);
  });

  it.each(cases)('%s: the lower bound matches the published one', (_name, c) => {
    expect(lowerBound(peerProblem(c)).lowerBound).toBe(c.lower_bound);
  });

  it.each(cases)('%s: every strategy gives a valid plan', (_name, c) => {
    const problem = peerProblem(c);
    for (const strategy of STRATEGY_NAMES) {
      const plan = assignOffsets(problem, strategy);
      expect(plan.peak).toBeGreaterThanOrEqual(c.lower_bound);
      expect(validatePlan(problem, plan).violations).toEqual([]);
    }
  });

  const tflmCases = cases.filter(([name, c]) => name.startsWith('tflm/') && c.expect_offsets !== undefined);
  it.each(tflmCases)('%s: tflm reproduces TFLite Micro offsets', (_name, c) => {
    const plan = assignOffsets(peerProblem(c), 'tflm');
    expect(plan.offsets).toEqual(c.expect_offsets);
    expect(validatePlan(peerProblem(c), plan).valid).toBe(true);
  });

  const gpuCases = cases.filter(([name, c]) => name.startsWith('tflgpu/') && c.expect_offsets !== undefined);
  it.each(gpuCases)('%s: best-fit reproduces TFLite GPU greedy-by-size offsets', (_name, c) => {
    const plan = assignOffsets(peerProblem(c), 'best-fit');
    expect(plan.offsets).toEqual(c.expect_offsets);
    expect(validatePlan(peerProblem(c), plan).valid).toBe(true);
  });

  it.each(cases)('%s: best-fit gives the reference greedy-by-size best-fit offsets', (_name, c) => {
    const plan = assignOffsets(peerProblem(c), 'best-fit');
    expect(plan.offsets).toEqual(c.greedy_size_bestfit_offsets);
    expect(validatePlan(peerProblem(c), plan).valid).toBe(true);
  });

  it.each(cases)('%s: best meets or beats the expectation', (_name, c) => {
    const problem = peerProblem(c);
    const plan = assignOffsets(problem, 'best');
    for (const check of expectations(c)) check(plan.peak, plan.optimal);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });
});

/** The checks a case states, as assertions on best's peak and optimality claim. */
function expectations(c: PeerCase): ((peak: number, optimal: boolean) => void)[] {
  const checks: ((peak: number, optimal: boolean) => void)[] = [];
  if (c.expect_peak === 'LB') checks.push((peak, optimal) => expect([peak, optimal]).toEqual([c.lower_bound, true]));
  else if (c.expect_peak !== undefined) checks.push((peak) => expect(peak).toBeLessThanOrEqual(c.expect_peak as number));
  if (c.expect_peak_lt !== undefined) checks.push((peak) => expect(peak).toBeLessThan(c.expect_peak_lt!));
  for (const capacity of [c.file_capacity, c.feasible_at_capacity]) {
    if (capacity !== undefined) checks.push((peak) => expect(peak).toBeLessThanOrEqual(capacity));
  }
  if (c.infeasible_at_capacity !== undefined) {
    // no plan fits: best must prove it by search, since its peak is above the capacity
    checks.push((peak, optimal) => expect([peak > c.infeasible_at_capacity!, optimal]).toEqual([true, true]));
  }
  if (c.optimum !== undefined && c.optimum_proven === true) {
    checks.push((peak, optimal) => expect([peak, optimal]).toEqual([c.optimum, true]));
  }
  expect(checks.length).toBeGreaterThan(0);
  return checks;
}
