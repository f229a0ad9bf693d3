// Benchmark rows for bench/planner.ts, also runnable alone: long chains of
// 10k, 40k and 100k nodes on every target preset, the time to plan them as
// `plan` does (decode, infer, plan, suggestions included) beside the time to
// inspect them (decode and infer). Planning must stay near-linear in nodes
// (issue 17). Prints figures; never fails on time.
//
// Chains: `relu` (x -> Relu -> ... -> y, every Relu in place), `conv-relu`
// (Conv 3x3 -> Relu pairs, each Conv with its own weights, which fusion
// groups), `conv-res` (residual blocks Conv -> Relu -> Conv -> Add(skip) ->
// Relu, the skip edge from the block's input, as exports of ResNets look).
//
// Run alone: npx tsx bench/planner-chains.ts [--sizes 10000,40000]
//            [--targets cpu,accelerator] [--chains relu,conv-res] [--repeat N]

import { pathToFileURL } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planModel } from '../src/planner/plan';
import { presetTarget } from '../src/planner/targets/presets';

/** The chain shapes the bench builds. */
export const CHAINS = ['relu', 'conv-relu', 'conv-res'] as const;
export type ChainKind = (typeof CHAINS)[number];

/** The target presets DESIGN.md names. */
export const CHAIN_TARGETS = ['cpu', 'mcu', 'accelerator', 'phone'] as const;

const CHANNELS = 4;
const MAP = [1, CHANNELS, 16, 16];

/** The ONNX bytes of a chain of `kind` with `n` nodes (a residual block's nodes never split). */
export function chainBytes(kind: ChainKind, n: number): Uint8Array {
  const g = new GraphBuilder(kind);
  let x = g.input('x', 'float32', kind === 'relu' ? [1, 64] : MAP);
  let nodes = 0;
  let weights = 0;
  const convNext = (from: string): string => {
    const w = g.initializer(`w${weights++}`, 'float32', [CHANNELS, CHANNELS, 3, 3]);
    return g.node('Conv', [from, w], { kernel_shape: [3, 3], pads: [1, 1, 1, 1], strides: [1, 1] });
  };
  while (nodes < n) {
    if (kind === 'relu') {
      x = g.node('Relu', [x]);
      nodes += 1;
    } else if (kind === 'conv-relu') {
      x = g.node('Relu', [convNext(x)]);
      nodes += 2;
    } else {
      const skip = x;
      const y = convNext(g.node('Relu', [convNext(x)]));
      x = g.node('Relu', [g.node('Add', [y, skip])]);
      nodes += 5;
    }
  }
  g.output(x, 'float32', kind === 'relu' ? [1, 64] : MAP);
  return g.toBytes();
}

/** One measurement: inspect and plan times of a chain on a target. */
export interface ChainTimes {
  readonly inspectMs: number; // decode + infer
  readonly planMs: number; // decode + infer + plan with suggestions
  readonly peak: number;
  readonly valid: boolean;
  readonly suggestions: number;
}

/** Inspects and plans `bytes` on `target` once. */
export function timeChain(bytes: Uint8Array, target: string): ChainTimes {
  const started = performance.now();
  inferShapes(decodeOnnx(bytes), {});
  const inspectMs = performance.now() - started;
  const planStarted = performance.now();
  const plan = planModel(inferShapes(decodeOnnx(bytes), {}), presetTarget(target), { suggest: true });
  const planMs = performance.now() - planStarted;
  return { inspectMs, planMs, peak: plan.peak, valid: plan.valid, suggestions: plan.suggestions?.length ?? 0 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** What printChainTimes measures. */
export interface ChainBenchOptions {
  readonly sizes: readonly number[];
  readonly targets?: readonly string[];
  readonly chains?: readonly ChainKind[];
  readonly repeat?: number; // runs per row; the median is printed
}

/** Prints, per chain, target and length, inspect and plan times (medians) and their ratio. */
export function printChainTimes(options: ChainBenchOptions, formatMs: (ms: number) => string): void {
  const { sizes, targets = CHAIN_TARGETS, chains = CHAINS, repeat = 1 } = options;
  console.log('\nChains: plan (decode + infer + plan with suggestions) against inspect (decode + infer); medians');
  console.log(['chain'.padEnd(10), 'target'.padEnd(12), 'nodes'.padStart(8), 'inspect'.padStart(10), 'plan'.padStart(10), 'plan/inspect'.padStart(13), 'peak'.padStart(10), 'sugg.'.padStart(6)].join('  '));
  for (const kind of chains) {
    for (const n of sizes) {
      const bytes = chainBytes(kind, n);
      for (const target of targets) {
        const runs = Array.from({ length: repeat }, () => timeChain(bytes, target));
        const inspectMs = median(runs.map((r) => r.inspectMs));
        const planMs = median(runs.map((r) => r.planMs));
        const { peak, valid, suggestions } = runs[0]!;
        const row = [kind.padEnd(10), target.padEnd(12), String(n).padStart(8), formatMs(inspectMs).padStart(10), formatMs(planMs).padStart(10)];
        row.push(`${(planMs / inspectMs).toFixed(1)}x`.padStart(13), (String(peak) + (valid ? '' : ' INVALID')).padStart(10), String(suggestions).padStart(6));
        console.log(row.join('  '));
      }
    }
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

function listArgument(name: string): string[] | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]!.split(',') : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = (listArgument('--sizes') ?? ['10000', '40000', '100000']).map(Number);
  const chains = (listArgument('--chains') ?? [...CHAINS]) as ChainKind[];
  const targets = listArgument('--targets') ?? [...CHAIN_TARGETS];
  const repeat = Number(listArgument('--repeat')?.[0] ?? 1);
  printChainTimes({ sizes, chains, targets, repeat }, formatSeconds);
}
