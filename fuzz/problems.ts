// Random `solve` problems, as the CLI reads them: a MiniMalloc CSV (written and
// parsed back), solved in-process with a random strategy and checked by the
// independent validator: valid, exact numbers, lower bound not above the peak;
// bad input only as a typed InputError. The portfolio's searches are held
// short so that a million problems run in minutes. Depends on planner/.

import { assignOffsets } from '../src/planner/assembly/assign-offsets';
import { parseMinimallocCsv, writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import type { PlacementProblem, PlanBuffer } from '../src/planner/problem/problem';
import { STRATEGY_NAMES } from '../src/planner/strategies/registry';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { InputError } from '../src/shared/errors';
import type { Finding } from './check-model';
import type { Rng } from './random';

/** Sizes: small, aligned, zero, large, and (in `huge` problems) ones whose sums pass 2^53. */
function randomSize(rng: Rng, huge: boolean): number {
  const r = rng.next();
  if (huge && r < 0.3) return rng.pick([2 ** 40, 2 ** 50, 2 ** 52, 2 ** 53 - 1, 3 * 2 ** 50]);
  if (r < 0.6) return rng.int(1, 256);
  if (r < 0.75) return 64 * rng.int(1, 64);
  if (r < 0.85) return 0;
  return rng.int(1, 1 << 20);
}

/** A random problem of up to `maxBuffers` buffers, with alignments and fixed offsets now and then. */
export function randomProblem(rng: Rng, maxBuffers = 16): { readonly csv: string; readonly strategy: string } {
  const count = rng.int(1, maxBuffers);
  const steps = rng.int(1, Math.max(2, count));
  const aligned = rng.chance(0.3);
  const huge = rng.chance(0.05);
  const buffers: PlanBuffer[] = Array.from({ length: count }, (_, id) => {
    const start = rng.int(0, steps - 1);
    const end = rng.int(start + 1, steps + 1);
    const alignment = aligned ? rng.pick([1, 2, 8, 64, 4096]) : undefined;
    return { id, name: rng.chance(0.05) ? `b${id},"\n"` : `b${id}`, size: randomSize(rng, huge), start, end, ...(alignment !== undefined && { alignment }) };
  });
  const fixed = rng.chance(0.15) ? buffers.map((b) => (rng.chance(0.3) ? (b.alignment ?? 1) * rng.int(0, 16) : undefined)) : undefined;
  const problem: PlacementProblem = { buffers };
  // The writer leaves a missing offset's cell empty: that buffer is free to move.
  const csv = writeMinimallocCsv(problem, fixed as readonly number[] | undefined);
  return { csv, strategy: rng.pick(STRATEGY_NAMES) };
}

/** Search limits of the portfolio per problem: enough to exercise every search, short enough for a million problems. */
const SEARCH = { budgetMs: 2, local: { iterations: 300 }, exact: { nodes: 20_000, smallNodes: 20_000 } } as const;

/** How one problem went: refused as bad input (with its code), or findings (none when all is well). */
export interface ProblemOutcome {
  readonly rejected?: string;
  readonly findings: readonly Finding[];
}

/** Solves one problem the way `solve` does and checks the answer independently; never throws. */
export function checkProblem(csv: string, strategy: string): ProblemOutcome {
  try {
    const problem = parseMinimallocCsv(csv);
    const result = assignOffsets(problem, strategy, SEARCH);
    const findings: Finding[] = [];
    const exact = (n: number) => Number.isSafeInteger(n) && n >= 0;
    if (!exact(result.peak) || !exact(result.lowerBound)) findings.push({ stage: 'size', message: `peak ${result.peak}, lower bound ${result.lowerBound}` });
    if (result.lowerBound > result.peak) findings.push({ stage: 'validate', message: `lower bound ${result.lowerBound} above peak ${result.peak}` });
    problem.buffers.forEach((b, i) => {
      const offset = result.offsets[i] ?? NaN;
      if (!exact(offset + b.size)) findings.push({ stage: 'size', message: `buffer '${b.name}' of ${b.size} bytes at ${offset}, ending at ${offset + b.size}` });
    });
    const verdict = validatePlan(problem, result);
    if (!verdict.valid) findings.push({ stage: 'validate', message: verdict.violations.slice(0, 3).map((v) => v.message).join('; ') });
    return { findings: findings.slice(0, 3) };
  } catch (error) {
    if (error instanceof InputError) return { rejected: error.code, findings: [] };
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { findings: [{ stage: 'plan', message: text.slice(0, 500) }] };
  }
}
