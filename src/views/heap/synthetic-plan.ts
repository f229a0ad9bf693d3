// A made-up plan of any number of buffers, for benchmarking the heap diagram
// (bench/heap-frames.ts, through the bench=1 page hook): seeded random
// lifetimes and sizes packed first-fit by address, so buffers overlap in time
// and tile the address axis like a real plan. Never used by the app itself.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Buffers with lifetimes and sizes, not yet placed. */
function lifetimes(count: number, steps: number, next: () => number): { start: number; end: number; size: number }[] {
  const out = Array.from({ length: count }, () => {
    const start = Math.floor(next() * steps);
    const length = 1 + Math.floor(next() ** 3 * 120);
    return { start, end: Math.min(steps, start + length), size: 64 * (1 + Math.floor(next() ** 2 * 2048)) };
  });
  return out.sort((a, b) => a.start - b.start || b.size - a.size);
}

/** First-fit by address among the buffers still live; returns the offsets, in input order. */
function packFirstFit(items: readonly { start: number; end: number; size: number }[]): number[] {
  const offsets: number[] = [];
  let live: { end: number; offset: number; size: number }[] = [];
  for (const item of items) {
    live = live.filter((b) => b.end > item.start).sort((a, b) => a.offset - b.offset);
    let offset = 0;
    for (const b of live) {
      if (b.offset - offset >= item.size) break;
      offset = Math.max(offset, b.offset + b.size);
    }
    offsets.push(offset);
    live.push({ end: item.end, offset, size: item.size });
  }
  return offsets;
}

/** A valid plan of `count` buffers over count / 10 steps in one region 'ram'. */
export function syntheticPlan(count: number, seed = 1): ModelPlan {
  const steps = Math.max(1, Math.round(count / 10));
  const items = lifetimes(count, steps, random(seed));
  const offsets = packFirstFit(items);
  const buffers: PlannedBuffer[] = items.map((b, id) => ({
    id, name: `t${id}`, kind: 'activation', size: b.size, bytes: b.size, start: b.start, end: b.end, offset: offsets[id]!, region: 'ram', node: `n${b.start}`,
  }));
  const delta = new Float64Array(steps + 1);
  for (const b of buffers) {
    delta[b.start]! += b.size;
    delta[b.end]! -= b.size;
  }
  let running = 0;
  let bound = 0;
  let peakStep = 0;
  for (let s = 0; s < steps; s += 1) {
    running += delta[s]!;
    if (running > bound) [bound, peakStep] = [running, s];
  }
  const peak = buffers.reduce((top, b) => Math.max(top, b.offset + b.size), 0);
  const waste = { total: peak - bound, holes: peak - bound, alignmentPadding: 0, scratchGrowth: 0 };
  const liveAtPeak = buffers.filter((b) => b.start <= peakStep && b.end > peakStep).map((b) => ({ id: b.id, name: b.name, kind: b.kind, size: b.size, counted: b.size, node: b.node! }));
  return {
    peak, lowerBound: bound, strategy: 'first-fit (synthetic)', valid: true, complete: true, fits: true, target: 'cpu',
    assumptions: { dims: [], unknown: [], branches: [], shapes: {}, inputValues: {} },
    regions: [{ name: 'ram', peak, lowerBound: bound, optimal: peak === bound, fast: false, peakStep, overBy: 0, waste }],
    buffers, fusionUnits: [], fusionExplanations: [], traffic: { before: 0, after: 0 }, functions: [], boundaries: [], diagnostics: [], explanation: { peakLive: [] },
    gap: bound > 0 ? peak / bound - 1 : 0, optimal: peak === bound, peakStep, peakRegion: 'ram', liveAtPeak, waste,
    order: { policy: 'file', maxLiveBefore: bound, maxLiveAfter: bound, keptFileOrder: true },
    weights: { region: 'weights', bytes: 0, tensors: 0 },
    steps: Array.from({ length: steps }, (_, s) => ({ node: `n${s}`, opType: 'Synthetic', kind: 'computing' as const })),
    bodies: [],
  };
}

/** The empty model a synthetic plan is shown with. */
export function syntheticModel(name: string): InferredModel {
  return {
    name, nodes: [], values: [], inputs: [], outputs: [],
    info: { producerName: 'heapscope bench', producerVersion: '', irVersion: 8, opsets: [], fileBytes: 0 },
    dims: [], shapes: {}, inputValues: {}, diagnostics: [],
  };
}
