// Generated placement problems for tests and benchmarks: network-like traces
// of any size, and tilings whose optimum is known. Depends only on planner types.

import { seededRandom } from '../../shared/random';
import type { PlacementProblem, PlanBuffer } from '../problem/problem';

/**
 * A problem shaped like a network's activations: about two buffers start per
 * step; the network has eight stages whose feature maps shrink by half each;
 * most buffers are feature maps (the stage size, ×2, ×4 or ×½) live 1-2 steps,
 * some are small (64 B - 4 KiB), some are residual inputs live 3-12 steps and
 * a few are long skip connections live 20-300 steps. Sizes are multiples of 64.
 */
export function networkLikeProblem(count: number, seed: number): PlacementProblem {
  const random = seededRandom(seed);
  const steps = Math.max(1, Math.ceil(count / 2));
  const buffers: PlanBuffer[] = [];
  for (let id = 0; id < count; id++) {
    const start = Math.floor((id * steps) / count);
    const stageSize = 2 ** 20 / 2 ** Math.floor((8 * start) / steps);
    const roll = random();
    const pick = <T>(options: readonly T[]) => options[Math.floor(random() * options.length)]!;
    let size: number;
    let duration: number;
    if (roll < 0.6) {
      size = stageSize * pick([1, 1, 2, 4, 0.5]);
      duration = 1 + Math.floor(random() * 2);
    } else if (roll < 0.85) {
      size = 64 * (1 + Math.floor(random() * 64));
      duration = 1 + Math.floor(random() * 3);
    } else if (roll < 0.95) {
      size = stageSize;
      duration = 3 + Math.floor(random() * 10);
    } else {
      size = stageSize;
      duration = 20 + Math.floor(random() * 281);
    }
    buffers.push({ id, name: `t${id}`, size: Math.max(64, Math.round(size / 64) * 64), start, end: start + duration });
  }
  return { buffers };
}

/**
 * A stress problem with no structure: sizes log-uniform from 256 B to 1 MiB,
 * most lifetimes 1-3 steps, some up to 300; greedy orders stay well above the
 * lower bound here.
 */
export function randomProblem(count: number, seed: number): PlacementProblem {
  const random = seededRandom(seed);
  const steps = Math.max(1, Math.ceil(count / 2));
  const buffers: PlanBuffer[] = [];
  for (let id = 0; id < count; id++) {
    const start = Math.floor((id * steps) / count);
    const roll = random();
    const duration = roll < 0.8 ? 1 + Math.floor(random() * 3) : roll < 0.95 ? 4 + Math.floor(random() * 17) : 20 + Math.floor(random() * 300);
    const size = Math.max(64, Math.round(2 ** (8 + random() * 12) / 64) * 64);
    buffers.push({ id, name: `t${id}`, size, start, end: start + duration });
  }
  return { buffers };
}

/** A problem whose optimum peak is `capacity`, with a placement that reaches it. */
export interface TiledProblem {
  readonly problem: PlacementProblem;
  readonly optimum: number;
  readonly offsets: readonly number[];
}

interface Tile {
  offset: number;
  size: number;
  start: number;
  end: number;
}

/**
 * Cuts the rectangle capacity × steps into `count` tiles by recursive random
 * splits, along time or along addresses. Every step is fully covered, so the
 * lower bound, the optimum and the tiling's peak all equal `capacity`.
 */
export function tiledProblem(count: number, capacity: number, steps: number, seed: number): TiledProblem {
  const random = seededRandom(seed);
  const tiles: Tile[] = [{ offset: 0, size: capacity, start: 0, end: steps }];
  for (let guard = 0; tiles.length < count && guard < 100 * count; guard++) {
    const k = Math.floor(random() * tiles.length);
    const tile = tiles[k]!;
    const alongTime = random() < 0.5;
    const span = alongTime ? tile.end - tile.start : tile.size;
    if (span < 2) continue;
    const cut = 1 + Math.floor(random() * (span - 1));
    const other = { ...tile };
    if (alongTime) {
      tile.end = tile.start + cut;
      other.start = tile.end;
    } else {
      tile.size = cut;
      other.offset = tile.offset + cut;
      other.size -= cut;
    }
    tiles.push(other);
  }
  const buffers = tiles.map((t, id) => ({ id, name: `r${id}`, size: t.size, start: t.start, end: t.end }));
  return { problem: { buffers }, optimum: capacity, offsets: tiles.map((t) => t.offset) };
}
