// Generated placement problems with heavy overlap, for benchmarks and scale
// tests: thousands of buffers live at once, as in large training traces.
// Depends only on planner types.

import { seededRandom } from '../../shared/random';
import type { PlacementProblem, PlanBuffer } from '../problem/problem';

/**
 * A network-like trace with heavy overlap: one buffer starts per step; most
 * are feature maps live 1-3 steps, a quarter are skip connections and cached
 * values live 500-5,000 steps (so a few thousand are live at once), and a
 * few are live from start to end. Sizes are multiples of 64.
 */
export function heavyNetworkProblem(count: number, seed: number): PlacementProblem {
  const random = seededRandom(seed);
  const buffers: PlanBuffer[] = [];
  for (let id = 0; id < count; id++) {
    const start = id;
    const roll = random();
    let size: number;
    let duration: number;
    if (roll < 0.7) {
      size = 2 ** (12 + Math.floor(random() * 8));
      duration = 1 + Math.floor(random() * 3);
    } else if (roll < 0.995) {
      size = 64 * (1 + Math.floor(random() * 256));
      duration = 500 + Math.floor(random() * 4500);
    } else {
      size = 2 ** (14 + Math.floor(random() * 6));
      duration = count - start;
    }
    buffers.push({ id, name: `n${id}`, size, start, end: start + duration });
  }
  return { buffers };
}

/**
 * A training-like trace: the run is split into segments of about 2,000
 * layers (pipeline micro-steps with recomputation); in each, every forward
 * activation lives until the backward step of its layer, so the forward
 * activations of a whole segment are live together at its turn; each backward
 * step makes a short-lived gradient and a workspace; a few parameter-sized
 * buffers (weights, optimizer state) live throughout.
 */
export function trainingLikeProblem(count: number, seed: number): PlacementProblem {
  const random = seededRandom(seed);
  const buffers: PlanBuffer[] = [];
  const add = (size: number, start: number, end: number) =>
    buffers.push({ id: buffers.length, name: `b${buffers.length}`, size, start, end });
  const persistent = Math.max(1, Math.floor(count / 1000));
  const layers = Math.max(1, Math.floor((count - persistent) / 3));
  const segment = Math.min(2000, layers);
  const span = 2 * segment + 1;
  const total = Math.ceil(layers / segment) * span;
  for (let p = 0; p < persistent; p++) add(64 * (256 + Math.floor(random() * 4096)), 0, total);
  for (let first = 0; first < layers; first += segment) {
    const t0 = (first / segment) * span;
    const n = Math.min(segment, layers - first);
    for (let i = 0; i < n; i++) {
      const activation = 64 * (16 + Math.floor(random() * 1024));
      add(activation, t0 + i, t0 + 2 * segment - i);
      add(activation, t0 + 2 * segment - i - 1, t0 + 2 * segment - i + 1); // gradient
      add(64 * (1 + Math.floor(random() * 512)), t0 + 2 * segment - i - 1, t0 + 2 * segment - i); // workspace
    }
  }
  return { buffers: buffers.slice(0, count).map((b, id) => ({ ...b, id })) };
}
