// The benchmark hook, installed only when the URL has bench=1:
// window.heapscope.loadSyntheticPlan(n) puts a made-up plan of n buffers on
// screen (see synthetic-plan.ts) so bench/heap-frames.ts can time the heap.

import type { AppStore } from '../store/create-store';
import { nextOpening } from '../store/model-loader';
import { syntheticModel, syntheticPlan } from '../views/heap/synthetic-plan';

/** What the hook adds to window.heapscope. */
export interface BenchHook {
  /** Shows a synthetic plan of `count` buffers; resolves with the milliseconds it took to build. */
  loadSyntheticPlan(count: number): number;
}

/** Adds loadSyntheticPlan to window.heapscope. */
export function installBenchHook(store: AppStore, target: Window = window): void {
  const hook: BenchHook = {
    loadSyntheticPlan(count) {
      const started = performance.now();
      const plan = syntheticPlan(count);
      const name = `synthetic-${count}.plan`;
      const settings = { target: 'cpu', strategy: undefined };
      const model = { name, size: 0, origin: 'file' as const, url: undefined, inferred: syntheticModel(name), timings: { decodeMs: 0, inferMs: 0 }, plan: { status: 'planned' as const, settings, plan, ms: 0 }, opening: nextOpening() };
      store.setState({ model, task: undefined, progress: undefined, error: undefined, selection: undefined, comparison: undefined });
      return performance.now() - started;
    },
  };
  Object.assign(target.heapscope ?? {}, hook);
}
