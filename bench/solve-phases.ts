// Benchmark of `solve` by phase on a generated problem of many rows (default a
// million): read, parse, check, bound, plan (the strategy, check, bound and
// preparation included, as assignOffsets runs them), validate and write, in
// CPU and wall ms, as `solve --out` runs them on a file. The problem is
// shaped as a training step's trace (`--shape training`, the default: forward
// activations kept to their backward step, gradients and workspaces, weights
// and optimizer state throughout), a network's with long skip edges
// (`--shape network`), or one conflict chain, each buffer live 3 steps
// (`--shape chain`). Prints figures; never fails on time.
// Run: npm run bench:solve -- [--rows N] [--strategy NAME] [--seed S] [--shape training|network|chain]

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { problemText } from '../cli/solve';
import { assignOffsets } from '../src/planner/assembly/assign-offsets';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { resolveCheckedProblem } from '../src/planner/problem/check-problem';
import { lowerBoundOfGroups } from '../src/planner/problem/lower-bound';
import { parseMinimallocCsv, writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { seededRandom } from '../src/shared/random';
import { heavyNetworkProblem, trainingLikeProblem } from '../src/planner/testing/instances-heavy';

const rows = Number(argument('--rows') ?? 1_000_000);
const strategy = argument('--strategy') ?? 'naive';
const seed = Number(argument('--seed') ?? 1);
const shape = argument('--shape') ?? 'training';

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The CSV of `count` buffers of the chosen shape. */
function problemCsv(count: number): string {
  if (shape === 'training') return writeMinimallocCsv(trainingLikeProblem(count, seed), undefined);
  if (shape === 'network') return writeMinimallocCsv(heavyNetworkProblem(count, seed), undefined);
  if (shape !== 'chain') throw new Error(`--shape ${shape}: training, network or chain`);
  // buffer i live over [i, i + 3) with 400-999 bytes
  const random = seededRandom(seed);
  const lines = ['id,lower,upper,size'];
  for (let i = 0; i < count; i++) lines.push(`b${i},${i},${i + 3},${400 + Math.floor(random() * 600)}`);
  return lines.join('\n') + '\n';
}

const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** Runs `work`, prints its CPU and wall ms under `phase`, returns its result. */
function timed<T>(phase: string, work: () => T): T {
  const cpu = cpuMs();
  const wall = performance.now();
  const result = work();
  console.log(`${phase.padEnd(10)} ${(cpuMs() - cpu).toFixed(0).padStart(8)} ms CPU ${(performance.now() - wall).toFixed(0).padStart(8)} ms wall`);
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'heapscope-solve-'));
try {
  const file = join(dir, 'problem.csv');
  writeFileSync(file, problemCsv(rows));
  console.log(`solve --strategy ${strategy} on ${rows} rows shaped as ${shape} (seed ${seed})`);
  const start = { cpu: cpuMs(), wall: performance.now() };
  const text = timed('read', () => problemText(readFileSync(file)));
  const problem = timed('parse', () => parseMinimallocCsv(text));
  const resolved = timed('check', () => resolveCheckedProblem(problem));
  timed('bound', () => lowerBoundOfGroups(problem, resolved.groups));
  const result = timed('plan', () => assignOffsets(problem, strategy));
  const validation = timed('validate', () => validatePlan(problem, result));
  timed('write', () => writeFileSync(join(dir, 'solution.csv'), writeMinimallocCsv(problem, result.offsets)));
  console.log(`${'total'.padEnd(10)} ${(cpuMs() - start.cpu).toFixed(0).padStart(8)} ms CPU ${(performance.now() - start.wall).toFixed(0).padStart(8)} ms wall (check and bound run again inside plan)`);
  console.log(`peak ${result.peak}, lower bound ${result.lowerBound}, valid ${validation.valid}, stopped by ${result.optimal ? 'optimal' : result.stats.stoppedBy}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
