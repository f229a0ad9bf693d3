// `best` is never above any baseline, on every region, at every size: random
// problems of each size class (fast-check, fixed seed), small, medium and past
// the scale path's threshold, each region's peak against naive, tflm,
// best-fit, greedy-breadth, tvm-conflicts and m1 run alone.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { validatePlan } from '../assembly/validate-plan';
import { conflictTotal } from '../engine/degrees';
import { prepareRegion } from '../engine/prepared';
import { resolveAliasGroups } from '../problem/alias-groups';
import { DEFAULT_REGION, type PlacementProblem } from '../problem/problem';
import { arbitraryProblem } from '../testing/arbitraries';
import { networkLikeProblem, randomProblem, tiledProblem } from '../testing/instances';
import { heavyNetworkProblem, trainingLikeProblem } from '../testing/instances-heavy';
import { BERT_TRAINING, LLAMA_TRAINING, trainingStepProblem } from '../testing/instances-training';
import { LARGE_CONFLICTS } from './scale-path';
import { STRATEGY_NAMES } from './strategy-names';

const BASELINES = STRATEGY_NAMES.filter((s) => s !== 'best');
const SEED = 33;

/** Plans `problem` with best (default options: counted work) and each baseline; best's peak is at or below theirs in every region. */
function expectNeverAbove(problem: PlacementProblem): void {
  const best = assignOffsets(problem, 'best');
  expect(validatePlan(problem, best).violations).toEqual([]);
  for (const strategy of BASELINES) {
    const plan = assignOffsets(problem, strategy);
    expect(plan.regions.map((r) => r.name)).toEqual(best.regions.map((r) => r.name));
    best.regions.forEach((region, r) => {
      if (plan.regions[r]!.peak < region.peak) expect.fail(`${strategy} peaks at ${plan.regions[r]!.peak} in ${region.name}, best at ${region.peak}`);
    });
  }
}

/** The problem with every third buffer in a second region. */
function twoRegions(problem: PlacementProblem): PlacementProblem {
  return { ...problem, buffers: problem.buffers.map((b) => (b.id % 3 === 0 ? { ...b, region: 'second' } : b)) };
}

const GENERATORS = {
  random: randomProblem,
  network: networkLikeProblem,
  heavy: heavyNetworkProblem,
  training: trainingLikeProblem,
  tiling: (count: number, seed: number) => tiledProblem(count, 1 << 20, 400, seed).problem,
} as const;

/** Generated problems of 200-3,000 buffers, of every generator, some in two regions; described by their generator's arguments, so a failure prints those. */
const medium = fc.record({
  kind: fc.constantFrom(...(Object.keys(GENERATORS) as (keyof typeof GENERATORS)[])),
  count: fc.integer({ min: 200, max: 3_000 }),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  split: fc.boolean(),
});

function mediumProblem({ kind, count, seed, split }: { kind: keyof typeof GENERATORS; count: number; seed: number; split: boolean }): PlacementProblem {
  const problem = GENERATORS[kind](kind === 'tiling' ? Math.min(count, 400) : count, seed);
  return split ? twoRegions(problem) : problem;
}

/**
 * Crowded traces just past the scale path's threshold, where best used to run
 * only some baselines: network-like ones mostly (m1 beat best's plan on about
 * half of them), training-like ones too.
 */
const large = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('heavy' as const), count: fc.integer({ min: 5_000, max: 6_000 }), seed: fc.integer({ min: 0, max: 1_000_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('training' as const), count: fc.integer({ min: 5_000, max: 6_500 }), seed: fc.integer({ min: 0, max: 1_000_000 }) }) },
);

describe('best is never above a baseline, on every region, at every size', () => {
  it('on small problems with aliases, fixed offsets, alignments and two regions', () => {
    const small = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
    fc.assert(fc.property(small, expectNeverAbove), { seed: SEED, numRuns: 60 });
  });

  it('on medium problems of 200-3,000 buffers from every generator', () => {
    fc.assert(
      fc.property(medium, (described) => expectNeverAbove(mediumProblem(described))),
      { seed: SEED, numRuns: 12 },
    );
  });

  it('on training steps shaped by real models: a Llama of 6 layers over 3 micro-batches, a BERT-large of 4 layers over 4', () => {
    for (const problem of [trainingStepProblem({ ...LLAMA_TRAINING, layers: 6 }, 3), trainingStepProblem({ ...BERT_TRAINING, layers: 4 }, 4)]) {
      expect(problem.buffers.length).toBeGreaterThan(300);
      expectNeverAbove(problem);
    }
  });

  it('on crowded traces past the scale path threshold', () => {
    fc.assert(
      fc.property(large, ({ kind, count, seed }) => {
        const problem = GENERATORS[kind](count, seed);
        const prep = prepareRegion(problem, DEFAULT_REGION, resolveAliasGroups(problem).groups);
        expect(conflictTotal(prep)).toBeGreaterThan(LARGE_CONFLICTS); // the scale path, not the portfolio
        expectNeverAbove(problem);
      }),
      { seed: SEED, numRuns: 4, endOnFailure: true }, // each case takes seconds: no shrinking
    );
  });
});
