// Benchmark of the placement strategies: peak against the lower bound (or the
// known optimum) and wall time, on the real traces, on generated network-like
// problems of 1k, 10k and 100k buffers, on crowded network-like and
// training-like traces of 10k, 62k and 100k buffers, three seeds each (timed
// as `solve` runs on a file: reading the CSV text included, median of 3 runs
// after a warm-up; then how often best is within 0.5 % of the bound where a
// greedy baseline is, and its slowest time against naive's), on training
// steps shaped by real models (Llama 80 layers at 10k and 62k buffers, BERT-large
// at 10k; --only shaped runs these alone), on the activation
// problems of the real models in ../shared/models (cpu preset), on tilings
// with a known optimum and on pinwheel sets of 150-450 buffers (guillotine
// and pinwheel cuts of a full rectangle: optimum = lower bound, and greedy
// orders fail); and plan against inspect time on chains of 10k-100k Relu nodes.
// With --csv DIR, also every MiniMalloc CSV in DIR (for instance MiniMalloc's
// own challenging suite), best with a 3 s budget against the lower bound.
// Prints figures; never fails on time.
// Run: npm run bench:planner -- [--max N] [--csv DIR] [--only hard|crowded]

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import { assignOffsets } from '../src/planner/assembly/assign-offsets';
import { buildProblem } from '../src/planner/problem/build-problem';
import { presetTarget } from '../src/planner/targets/presets';
import type { PlacementProblem } from '../src/planner/problem/problem';
import { STRATEGY_NAMES, type StrategyName } from '../src/planner/strategies/strategy-names';
import type { PlanOptions } from '../src/planner/strategies/strategy';
import { heavyNetworkProblem, trainingLikeProblem } from '../src/planner/testing/instances-heavy';
import { BERT_TRAINING, LLAMA_TRAINING, microBatchesFor, trainingStepProblem } from '../src/planner/testing/instances-training';
import { networkLikeProblem, randomProblem, tiledProblem, type TiledProblem } from '../src/planner/testing/instances';
import { pinwheelProblem } from '../src/planner/testing/instances-pinwheel';
import { loadTraces } from '../src/planner/testing/shared-data';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { parseMinimallocCsv, writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { printChainTimes } from './planner-chains';
import { placerOf } from '../src/planner/testing/placer';

interface Row {
  readonly instance: string;
  readonly buffers: number;
  readonly reference: number; // lower bound, or the known optimum
  readonly cells: readonly string[]; // per strategy: "peak/ref  time  ×naive"
  readonly bestRatio: number; // best's peak / reference
  readonly greedyRatio: number; // the lowest peak / reference of the other strategies measured (NaN: none but naive)
  readonly bestTimes: number; // best's time as a multiple of naive's
}

/** Options per call, the strategies a table skips (quadratic ones on crowded 60k+ traces), and how it times them. */
interface MeasureOptions {
  readonly options?: PlanOptions;
  readonly only?: readonly string[];
  readonly fromFile?: boolean; // time from the CSV text: reading the problem is part of every run, as in `solve`
  readonly runs?: number; // timed runs per strategy, after an untimed one when more than one; the median time is reported
}

const maxBuffers = Number(argument('--max') ?? 100_000);
const csvDir = argument('--csv');
const only = argument('--only'); // 'hard': only the tilings, pinwheel sets and --csv problems; 'crowded': only the crowded traces; 'shaped': only the model-shaped training steps

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Plans `problem` with every strategy; peaks relative to `reference` (default: the lower bound). */
function measure(instance: string, problem: PlacementProblem, reference?: number, how: MeasureOptions = {}): Row {
  const cells: string[] = [];
  let ref = reference ?? 0;
  let naiveMs = NaN;
  let bestRatio = NaN;
  let greedyRatio = NaN;
  let bestTimes = NaN;
  const text = how.fromFile === true ? writeMinimallocCsv(problem, undefined) : undefined;
  // naive first: every other time is also given as a multiple of its time (bounding and validating included)
  for (const strategy of ['naive', ...STRATEGY_NAMES.filter((s) => s !== 'naive')]) {
    if (how.only !== undefined && !how.only.includes(strategy)) {
      cells[STRATEGY_NAMES.indexOf(strategy as StrategyName)] = 'skipped';
      continue;
    }
    const times: number[] = [];
    let plan: ReturnType<typeof assignOffsets> | undefined;
    let valid = '';
    const runs = how.runs ?? 1;
    // with several runs, one more first and untimed: the median then compares compiled code with compiled code
    for (let run = runs > 1 ? -1 : 0; run < runs; run++) {
      const started = performance.now();
      const read = text === undefined ? problem : parseMinimallocCsv(text);
      plan = assignOffsets(read, strategy, how.options);
      valid = validatePlan(read, plan).valid ? '' : ' INVALID';
      if (run >= 0) times.push(performance.now() - started);
    }
    const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    if (strategy === 'naive') naiveMs = ms;
    ref = reference ?? plan!.lowerBound;
    const ratio = ref === 0 ? 1 : plan!.peak / ref;
    const optimal = plan!.optimal ? '*' : ' ';
    if (strategy === 'best') [bestRatio, bestTimes] = [ratio, ms / naiveMs];
    else if (strategy !== 'naive' && !(ratio >= greedyRatio)) greedyRatio = ratio;
    const winner = strategy === 'best' && plan!.winner !== undefined ? ` <${plan!.winner}` : '';
    cells[STRATEGY_NAMES.indexOf(strategy as StrategyName)] = `${ratio.toFixed(4)}${optimal}${formatMs(ms).padStart(8)} ${(ms / naiveMs).toFixed(1)}x${valid}${winner}`;
  }
  return { instance, buffers: problem.buffers.length, reference: ref, cells, bestRatio, greedyRatio, bestTimes };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function printTable(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  const head = ['instance'.padEnd(28), 'buffers'.padStart(8), 'reference'.padStart(14), ...STRATEGY_NAMES.map((s) => s.padEnd(26))];
  console.log(head.join('  '));
  for (const row of rows) {
    const line = [row.instance.padEnd(28), String(row.buffers).padStart(8), String(row.reference).padStart(14), ...row.cells.map((c) => c.padEnd(26))];
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
    return { name: f.replace(/\.onnx$/, '').slice(0, 28), problem: buildProblem(model, presetTarget('cpu'), { place: placerOf(presetTarget('cpu')) }).problem };
  });
}

function main(): void {
  console.log('Each cell: peak / reference (* = proven optimal), wall time including bounding and validating, that time as a multiple of naive\'s.');
  if (only === 'crowded') return printCrowdedTraces();
  if (only === 'shaped') return void printCrowdedSummary(printShapedTraces());
  if (only !== 'hard') printEveryGenerator();
  printHardProblems();
}

function printEveryGenerator(): void {
  const traces = loadTraces();
  if (traces === undefined) console.log('\n(traces skipped: ../shared/planner/traces is absent)');
  else printTable('Real traces (reference: lower bound)', Object.entries(traces).map(([name, p]) => measure(name, p)));

  const models = modelProblems();
  if (models.length === 0) console.log('\n(models skipped: ../shared/models is absent)');
  else printTable('Real models, activations on the cpu preset (reference: lower bound)', models.map(({ name, problem }) => measure(name, problem)));

  printChainTimes({ sizes: [10_000, 40_000, 100_000].filter((n) => n <= maxBuffers) }, formatMs);

  const generated = [1_000, 10_000, 100_000].filter((n) => n <= maxBuffers);
  printTable(
    'Generated network-like problems (reference: lower bound)',
    generated.map((n) => measure(`network-like ${n}`, networkLikeProblem(n, n))),
  );

  printTable(
    'Unstructured stress problems: random sizes and lifetimes (reference: lower bound)',
    [1_000, 10_000].filter((n) => n <= maxBuffers).map((n) => measure(`random ${n}`, randomProblem(n, n))),
  );

  printCrowdedTraces();
}

function printCrowdedTraces(): void {
  const crowded = [10_000, 62_000, 100_000].filter((n) => n <= maxBuffers);
  // as `solve` runs on a file: reading the CSV, bounding and validating are in every time; the median of 3 runs after a warm-up
  // (one run past 20k buffers, and only naive and best past 62k: best runs every baseline there too, seconds each)
  const asFile = (n: number): MeasureOptions => ({ fromFile: true, ...(n > 62_000 ? { runs: 1, only: ['naive', 'best'] } : n > 20_000 ? { runs: 1 } : { runs: 3 }) });
  // seed n first (the traces of earlier reports), then two more: the generators' traces vary by seed
  const seeds = (n: number) => [n, 1, 2];
  const name = (kind: string, n: number, seed: number) => `${kind} ${n}${seed === n ? '' : ` seed ${seed}`}`;
  const heavy = crowded.flatMap((n) => seeds(n).map((seed) => measure(name('heavy network', n, seed), heavyNetworkProblem(n, seed), undefined, asFile(n))));
  printTable('Network-like traces with heavy overlap, thousands live at once, timed from the CSV text (reference: lower bound)', heavy);
  const training = crowded.flatMap((n) => seeds(n).map((seed) => measure(name('training-like', n, seed), trainingLikeProblem(n, seed), undefined, asFile(n))));
  printTable('Training-like traces, forward activations live until their backward step, timed from the CSV text (reference: lower bound)', training);
  const shaped = printShapedTraces();
  printCrowdedSummary([...heavy, ...training, ...shaped]);
}

/** Training steps shaped by real models, as `solve` runs them on a file; returns the rows for the summary. */
function printShapedTraces(): Row[] {
  const greedyUpTo = 20_000;
  const asFile = (n: number): MeasureOptions => ({ fromFile: true, ...(n > greedyUpTo ? { runs: 1 } : { runs: 3 }) });
  const shaped = [
    ...[10_000, 62_000].filter((n) => n <= maxBuffers).map((n) => measure(`llama training step ${n}`, trainingStepProblem(LLAMA_TRAINING, microBatchesFor(LLAMA_TRAINING, n)), undefined, asFile(n))),
    ...[10_000].filter((n) => n <= maxBuffers).map((n) => measure(`bert-large training step ${n}`, trainingStepProblem(BERT_TRAINING, microBatchesFor(BERT_TRAINING, n)), undefined, asFile(n))),
  ];
  printTable('Training steps shaped by real models (forward kept for backward, gradients accumulated over micro-batches, Adam temporaries), timed from the CSV text (reference: lower bound)', shaped);
  return shaped;
}

/** How the crowded traces meet `best`'s aim: within 0.5 % of the bound where a greedy placement gets there, in at most 3 × naive's time. */
function printCrowdedSummary(rows: readonly Row[]): void {
  const near = (ratio: number) => ratio <= 1.005;
  const greedyNear = rows.filter((r) => near(r.greedyRatio));
  const slowest = Math.max(...rows.map((r) => r.bestTimes));
  console.log(`best: within 0.5 % of the bound on ${rows.filter((r) => near(r.bestRatio)).length} of ${rows.length} traces`);
  console.log(`  of the ${greedyNear.length} where a greedy baseline ran and got within 0.5 %, best did on ${greedyNear.filter((r) => near(r.bestRatio)).length}`);
  console.log(`  best's time: at most ${slowest.toFixed(1)} x naive's`);
}

function printHardProblems(): void {
  const hard = { options: { budgetMs: 3000 } };
  printPackings(
    'Tilings with a known optimum (capacity 1 MiB, 400 steps), best with a 3 s budget (reference: the optimum = the lower bound)',
    [150, 250, 350, 500].flatMap((n) => [0, 1, 2].map((seed) => ({ name: `tiling ${n} seed ${seed}`, packing: tiledProblem(n, 1 << 20, 400, n + 1000 * seed) }))),
    hard,
  );
  printPackings(
    'Pinwheel sets of 150-450 buffers (capacity 1 MiB, buffers/2 steps), best with a 3 s budget (reference: the optimum = the lower bound)',
    [150, 250, 350, 450].flatMap((n) => [0, 1].map((seed) => ({ name: `pinwheel ${n} seed ${seed}`, packing: pinwheelProblem(n, 1 << 20, n / 2, n + 1000 * seed) }))),
    hard,
  );
  if (csvDir !== undefined) {
    const files = readdirSync(csvDir).filter((f) => f.endsWith('.csv')).sort();
    const rows = files.map((f) => measure(f.slice(0, 28), parseMinimallocCsv(readFileSync(join(csvDir, f), 'utf8')), undefined, hard));
    printTable(`MiniMalloc CSVs in ${csvDir}, best with a 3 s budget (reference: the lower bound)`, rows);
    printEfficiency(rows, 'the lower bound');
  }
}

/** A table of packings with a known optimum, and best's mean efficiency (optimum / peak) over them. */
function printPackings(title: string, packings: readonly { name: string; packing: TiledProblem }[], how: MeasureOptions): void {
  const rows = packings.map(({ name, packing }) => measure(name, packing.problem, packing.optimum, how));
  printTable(title, rows);
  printEfficiency(rows, 'the optimum');
}

function printEfficiency(rows: readonly Row[], reference: string): void {
  const efficiency = rows.reduce((sum, r) => sum + 1 / r.bestRatio, 0) / rows.length;
  const atReference = rows.filter((r) => r.bestRatio === 1).length;
  console.log(`best: mean efficiency ${(100 * efficiency).toFixed(2)} %, at ${reference} on ${atReference} of ${rows.length}`);
}

main();
