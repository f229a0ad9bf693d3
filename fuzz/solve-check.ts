// The check of a `solve` that succeeded: the solution it wrote with --out
// holds the same buffers as the problem (ids, sizes, lifetimes, alignments,
// fixed offsets), its offsets are valid for the problem by the independent
// validator at the peak `solve` reported, and `solve` of the solution
// re-solves to the same peak. Depends on the CLI, the CSV reader and the
// validator.

import { readFileSync } from 'node:fs';
import type { CliRun } from '../cli/testing/run-cli';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { parseMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { alignmentOf, type PlacementProblem } from '../src/planner/problem/problem';
import { HANG_MS, runInProcess, type SuccessCheck } from './cli-outcome';

const option = (argv: readonly string[], name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv[at + 1];
};

/** The peak `solve` printed: from --json, or the exact bytes of the text report's peak line ("1.50 KiB (1,536 B)", or "33 B" under 1 KiB). */
function reportedPeak(argv: readonly string[], out: string): number {
  if (argv.includes('--json')) return (JSON.parse(out) as { peak: number }).peak;
  const line = out.split('\n').find((l) => l.trimStart().startsWith('peak')) ?? '';
  const exact = /\(([\d,]+) B\)$/.exec(line) ?? /^\s*peak\s+(\d+) B$/.exec(line);
  return Number(exact?.[1]?.replace(/,/g, '') ?? NaN);
}

/** Differences between the problem and the problem part of its solution. */
function sameProblem(problem: PlacementProblem, solution: PlacementProblem): string | undefined {
  if (problem.buffers.length !== solution.buffers.length) return `${solution.buffers.length} buffers in the solution, ${problem.buffers.length} in the problem`;
  for (const [i, b] of problem.buffers.entries()) {
    const s = solution.buffers[i]!;
    const pairs: [string, unknown, unknown][] = [['name', b.name, s.name], ['size', b.size, s.size], ['start', b.start, s.start], ['end', b.end, s.end], ['alignment', alignmentOf(problem, b), alignmentOf(solution, s)]];
    const differ = pairs.find(([, x, y]) => x !== y);
    if (differ !== undefined) return `buffer ${i}'s ${differ[0]} is ${JSON.stringify(differ[2])} in the solution, ${JSON.stringify(differ[1])} in the problem`;
    if (b.fixedOffset !== undefined && s.fixedOffset !== b.fixedOffset) return `buffer ${i} fixed at ${b.fixedOffset} is at ${s.fixedOffset}`;
    if (s.fixedOffset === undefined) return `buffer ${i} has no offset in the solution`;
  }
  return undefined;
}

/** Checks an exit-0 `solve`; a plan counts as checked when the validator ran on it. */
export function checkSolution(argv: readonly string[], run: CliRun): ReturnType<SuccessCheck> {
  const out = option(argv, '--out');
  if (out === undefined) return { problems: [], plans: 0 };
  try {
    const problem = parseMinimallocCsv(readFileSync(argv[1]!, 'utf8'));
    const solutionText = readFileSync(out, 'utf8');
    const solution = parseMinimallocCsv(solutionText);
    const differ = sameProblem(problem, solution);
    if (differ !== undefined) return { problems: [`the solution is not the problem: ${differ}`], plans: 0 };
    const peak = reportedPeak(argv, run.out);
    const verdict = validatePlan(problem, { offsets: solution.buffers.map((b) => b.fixedOffset!), peak });
    if (!verdict.valid) return { problems: [verdict.violations.slice(0, 3).map((v) => v.message).join('; ')], plans: 1 };
    const started = performance.now();
    const again = runInProcess(['solve', out, '--json']);
    const ms = performance.now() - started;
    if ('thrown' in again || again.code !== 0) return { problems: [`solve of its own solution did not succeed: ${'thrown' in again ? String(again.thrown) : again.err}`], plans: 1 };
    const repeak = (JSON.parse(again.out) as { peak: number }).peak;
    const slow = ms > HANG_MS ? `solve of its own solution (${solution.buffers.length} buffers, every offset fixed) took ${(ms / 1000).toFixed(1)} s` : undefined;
    return { problems: repeak === peak ? [] : [`the solution re-solves to peak ${repeak}, not ${peak}`], plans: 1, ...(slow !== undefined && { slow }) };
  } catch (error) {
    return { problems: [`checking the solution threw ${String(error)}`.slice(0, 500)], plans: 0 };
  }
}
