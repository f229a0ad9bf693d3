// Benchmark of the placement strategies: peak against the lower bound (or the
// known optimum) and wall time, on the real traces, on generated network-like
// problems of 1k, 10k and 100k buffers, on the activation problems of the real
// models in ../shared/models (cpu preset), and on tilings with a known optimum.
// Prints figures; never fails on time. Run: npm run bench:planner [-- --max N]

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOnnx } from '../src/model/decode-onnx';
import { inferShapes } from '../src/model/infer-shapes';
import { assignOffsets } from '../src/planner/assign-offsets';
import { buildProblem } from '../src/planner/build-problem';
import { presetTarget } from '../src/planner/presets';
import type { PlacementProblem } from '../src/planner/problem';
import { STRATEGY_NAMES } from '../src/planner/strategies/registry';
import { networkLikeProblem, randomProblem, tiledProblem } from '../src/planner/testing/instances';
import { loadTraces } from '../src/planner/testing/shared-data';
import { validatePlan } from '../src/planner/validate-plan';

interface Row {
  readonly instance: string;
  readonly buffers: number;
  readonly reference: number; // lower bound, or the known optimum
  readonly cells: readonly string[]; // per strategy: "peak/ref  time"
}

const maxBuffers = Number(argument('--max') ?? 100_000);

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Plans `problem` with every strategy; peaks relative to `reference` (default: the lower bound). */
function measure(instance: string, problem: PlacementProblem, reference?: number): Row {
  const cells: string[] = [];
  let ref = reference ?? 0;
  for (const strategy of STRATEGY_NAMES) {
    const started = performance.now();
    const plan = assignOffsets(problem, strategy);
    const ms = performance.now() - started;
    ref = reference ?? plan.lowerBound;
    const valid = validatePlan(problem, plan).valid ? '' : ' INVALID';
    const ratio = ref === 0 ? 1 : plan.peak / ref;
    cells.push(`${ratio.toFixed(4)} ${formatMs(ms).padStart(8)}${valid}`);
  }
  return { instance, buffers: problem.buffers.length, reference: ref, cells };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function printTable(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  const head = ['instance'.padEnd(28), 'buffers'.padStart(8), 'reference'.padStart(14), ...STRATEGY_NAMES.map((s) => s.padEnd(19))];
  console.log(head.join('  '));
  for (const row of rows) {
    const line = [row.instance.padEnd(28), String(row.buffers).padStart(8), String(row.reference).padStart(14), ...row.cells.map((c) => c.padEnd(19))];
    console.log(line.join('  '));
  }
}

const MODELS = fileURLToPath(new URL('../../shared/models', import.meta.url));

/** The activation problem of every model in ../shared/models, as the cpu preset builds it. */
function modelProblems(): { name: string; problem: PlacementProblem }[] {
  if (!existsSync(MODELS)) return [];
  const files = readdirSync(MODELS).filter((f) => f.endsWith('.onnx'));
  if (existsSync(join(MODELS, 'tiny-llama-fp16/model.onnx'))) files.push('tiny-llama-fp16/model.onnx');
  return files.map((f) => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(MODELS, f)))), {});
    return { name: f.replace(/\.onnx$/, '').slice(0, 28), problem: buildProblem(model, presetTarget('cpu')).problem };
  });
}

function main(): void {
  console.log('Each cell: peak / reference, wall time (the best strategy includes its local search).');
  const traces = loadTraces();
  if (traces === undefined) console.log('\n(traces skipped: ../shared/planner/traces is absent)');
  else printTable('Real traces (reference: lower bound)', Object.entries(traces).map(([name, p]) => measure(name, p)));

  const models = modelProblems();
  if (models.length === 0) console.log('\n(models skipped: ../shared/models is absent)');
  else printTable('Real models, activations on the cpu preset (reference: lower bound)', models.map(({ name, problem }) => measure(name, problem)));

  const generated = [1_000, 10_000, 100_000].filter((n) => n <= maxBuffers);
  printTable(
    'Generated network-like problems (reference: lower bound)',
    generated.map((n) => measure(`network-like ${n}`, networkLikeProblem(n, n))),
  );

  printTable(
    'Unstructured stress problems: random sizes and lifetimes (reference: lower bound)',
    [1_000, 10_000].filter((n) => n <= maxBuffers).map((n) => measure(`random ${n}`, randomProblem(n, n))),
  );

  const tilings = [150, 250, 350, 500].map((n) => ({ n, tiled: tiledProblem(n, 1 << 20, 400, n) }));
  printTable(
    'Tilings with a known optimum (reference: the optimum = the capacity, 1 MiB)',
    tilings.map(({ n, tiled }) => measure(`tiling ${n}`, tiled.problem, tiled.optimum)),
  );
}

main();
