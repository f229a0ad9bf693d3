// Property tests on random problems (fast-check): every plan is valid and no
// better than the lower bound, best is never worse than a baseline, plans are
// deterministic, optimality claims hold against brute force, and validatePlan
// catches injected faults.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from './assign-offsets';
import { aliasRoots, conflicts, type PlacementProblem } from '../problem/problem';
import { STRATEGY_NAMES } from '../strategies/registry';
import type { PlanOptions } from '../strategies/strategy';
import { arbitraryProblem } from '../testing/arbitraries';
import { bruteForceOptimum } from '../testing/brute-force';
import { parseMinimallocCsv, writeMinimallocCsv } from '../problem/minimalloc-csv';
import { validatePlan } from './validate-plan';

const rich = arbitraryProblem({ maxBuffers: 40, maxStep: 24, maxSize: 256, aliases: true, fixed: true, regions: true });
const plain = arbitraryProblem({ maxBuffers: 30, maxStep: 16, maxSize: 64, aliases: false, fixed: false, regions: false });
const tiny = arbitraryProblem({ maxBuffers: 6, maxStep: 6, maxSize: 6, aliases: false, fixed: false, regions: false });
/** A quick portfolio for the many random runs; the defaults are exercised on fewer problems. */
const QUICK: PlanOptions = { budgetMs: Number.POSITIVE_INFINITY, local: { iterations: 150 }, exact: { nodes: 3_000, smallNodes: 3_000 } };

describe('every strategy on random problems', () => {
  it('gives valid plans no better than the lower bound; best is never worse than a baseline', () => {
    fc.assert(
      fc.property(rich, (problem) => {
        const best = assignOffsets(problem, 'best', QUICK);
        expect(validatePlan(problem, best).violations).toEqual([]);
        expect(best.peak).toBeGreaterThanOrEqual(best.lowerBound);
        for (const strategy of STRATEGY_NAMES) {
          const plan = assignOffsets(problem, strategy, QUICK);
          expect(validatePlan(problem, plan).violations).toEqual([]);
          expect(plan.lowerBound).toBe(best.lowerBound);
          expect(plan.peak).toBeGreaterThanOrEqual(best.peak);
          best.regions.forEach((region, r) => expect(plan.regions[r]!.peak).toBeGreaterThanOrEqual(region.peak));
        }
      }),
      { numRuns: 600 },
    );
  });

  it('gives the same plan for the same problem', () => {
    fc.assert(
      fc.property(rich, (problem) => {
        for (const strategy of STRATEGY_NAMES) {
          const first = assignOffsets(problem, strategy, QUICK);
          const second = assignOffsets(structuredClone(problem), strategy, QUICK);
          expect(second.offsets).toEqual(first.offsets);
          expect(validatePlan(problem, second).valid).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same plan with the default options', () => {
    fc.assert(
      fc.property(plain, (problem) => {
        const first = assignOffsets(problem, 'best', { budgetMs: Number.POSITIVE_INFINITY });
        const second = assignOffsets(problem, 'best', { budgetMs: Number.POSITIVE_INFINITY });
        expect([second.offsets, second.stats]).toEqual([first.offsets, first.stats]);
        expect(validatePlan(problem, second).valid).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe('optimality claims', () => {
  it('best finds and proves the brute-force optimum of tiny problems', () => {
    fc.assert(
      fc.property(tiny, (problem) => {
        const plan = assignOffsets(problem, 'best');
        expect([plan.peak, plan.optimal]).toEqual([bruteForceOptimum(problem), true]);
        expect(validatePlan(problem, plan).valid).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a plan called optimal is never beaten by brute force', () => {
    fc.assert(
      fc.property(tiny, (problem) => {
        for (const strategy of STRATEGY_NAMES) {
          const plan = assignOffsets(problem, strategy);
          if (plan.optimal) expect(plan.peak).toBe(bruteForceOptimum(problem));
          expect(validatePlan(problem, plan).valid).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('validatePlan on injected faults', () => {
  it('catches a buffer moved onto a conflicting one, a misaligned offset, and a wrong peak', () => {
    fc.assert(
      fc.property(rich, fc.nat(), (problem, pick) => {
        const plan = assignOffsets(problem, 'tflm');
        expect(validatePlan(problem, plan).valid).toBe(true);
        expect(kinds(problem, { offsets: plan.offsets, peak: plan.peak + 1 })).toContain('peak');
        const pair = conflictingPair(problem, pick);
        if (pair !== undefined) {
          const offsets = plan.offsets.slice();
          offsets[pair[0]] = offsets[pair[1]]!;
          expect(kinds(problem, { offsets, peak: plan.peak })).toContain('overlap');
        }
        const aligned = problem.buffers.find((b) => (b.alignment ?? problem.alignment ?? 1) > 1);
        if (aligned !== undefined) {
          const offsets = plan.offsets.slice();
          offsets[aligned.id] = offsets[aligned.id]! + 1;
          expect(kinds(problem, { offsets, peak: plan.peak })).toContain('misaligned');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('MiniMalloc CSV on random problems', () => {
  it('round-trips a plan: the written solution parses back with every buffer fixed where it was', () => {
    fc.assert(
      fc.property(plain, (problem) => {
        const plan = assignOffsets(problem, 'best-fit');
        const back = parseMinimallocCsv(writeMinimallocCsv(problem, plan.offsets));
        expect(back.buffers.map((b) => b.fixedOffset)).toEqual(plan.offsets);
        expect(back.buffers.map((b) => [b.start, b.end, b.size])).toEqual(problem.buffers.map((b) => [b.start, b.end, b.size]));
        expect(validatePlan(back, plan).valid).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

function kinds(problem: PlacementProblem, placement: { offsets: readonly number[]; peak: number }): string[] {
  return validatePlan(problem, placement).violations.map((v) => v.kind);
}

/** Some pair of conflicting buffers (chosen by `pick`), or undefined when none conflict. */
function conflictingPair(problem: PlacementProblem, pick: number): [number, number] | undefined {
  const roots = aliasRoots(problem);
  const pairs: [number, number][] = [];
  for (const a of problem.buffers) {
    for (const b of problem.buffers) {
      // a group with a fixed member cannot move: pick a free buffer outside any alias group
      const free = a.fixedOffset === undefined && roots.filter((r) => r === roots[a.id]).length === 1;
      if (free && conflicts(a, b, roots)) pairs.push([a.id, b.id]);
    }
  }
  return pairs.length === 0 ? undefined : pairs[pick % pairs.length];
}
