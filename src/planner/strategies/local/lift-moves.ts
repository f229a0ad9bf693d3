// The moves of the local search (local-search.ts): which items to lift around
// the peak and where the item at the peak may go. Depends only on the planner engine.
//
// - Neighbour lift: the item at the peak and a random number of the items it
//   conflicts with that reach highest.
// - Band lift: the item at the peak and every item it conflicts with that
//   reaches above a random level between 0 and the item's offset.
// - Eviction: the item at the peak is pinned lower, at 0 or at the top of one
//   of the items it conflicts with (a few sampled, the one that displaces the
//   fewest bytes wins); the items in its way are lifted. This is what frees a
//   long-lived buffer that no gap along its whole lifetime can take.

import { alignBase } from '../../engine/prepared';
import type { Placer } from '../../engine/placer';

/** Items to take out and place again; `pinned` goes back first, at `base`. */
export interface Lift {
  readonly lifted: number[];
  readonly pinned: number | undefined;
  readonly base: number;
}

/** Largest number of neighbours a neighbour lift takes out. */
const MAX_NEIGHBOURS = 16;
/** Largest number of neighbours a band lift takes out. */
const MAX_BAND = 48;
/** Pinning offsets an eviction compares. */
const EVICTION_SAMPLES = 16;
/** Largest number of items an eviction displaces. */
const MAX_EVICTED = 256;

/** Picks one of the three moves for an item at the peak; undefined when no free item is there. */
export function pickLift(placer: Placer, neighbours: NeighbourFinder, peak: number, random: () => number): Lift | undefined {
  const { prep, offsets } = placer;
  const atPeak: number[] = [];
  for (const item of prep.freeItems) {
    if (offsets[item]! + prep.itemExtent[item]! === peak) atPeak.push(item);
  }
  if (atPeak.length === 0) return undefined;
  const item = atPeak[Math.floor(random() * atPeak.length)]!;
  const roll = random();
  if (roll < 1 / 3) {
    const eviction = pickEviction(placer, neighbours, item, random);
    if (eviction !== undefined) return eviction;
  }
  const top = (i: number) => offsets[i]! + prep.itemExtent[i]!;
  const around = neighbours.of(item).filter((other) => Number.isNaN(prep.itemFixed[other]!));
  around.sort((a, b) => top(b) - top(a) || a - b);
  let count = 0;
  if (roll < 2 / 3) {
    count = 1 + Math.floor(random() * MAX_NEIGHBOURS);
  } else {
    const level = offsets[item]! * (1 - random());
    while (count < around.length && top(around[count]!) > level) count++;
  }
  return { lifted: [item, ...around.slice(0, Math.min(count, MAX_BAND))], pinned: undefined, base: 0 };
}

/** Pins `item` at a sampled lower offset and lifts what is in its way there. */
function pickEviction(placer: Placer, neighbours: NeighbourFinder, item: number, random: () => number): Lift | undefined {
  const { prep } = placer;
  const current = placer.offsets[item]!;
  const candidates = [alignBase(prep, item, 0)];
  placer.forEachPlacedConflict(item, (_lo, hi) => {
    const base = alignBase(prep, item, hi);
    if (base < current) candidates.push(base);
  });
  let best: Lift | undefined;
  let bestCost = Infinity;
  for (let k = 0; k < EVICTION_SAMPLES && candidates.length > 0; k++) {
    const base = candidates[Math.floor(random() * candidates.length)]!;
    if (base >= current) continue;
    const blockers = neighbours.blockersAt(item, base);
    if (blockers === undefined || blockers.length > MAX_EVICTED) continue;
    let cost = 0;
    for (const b of blockers) cost += prep.itemExtent[b]!;
    if (cost < bestCost) {
      bestCost = cost;
      best = { lifted: blockers, pinned: item, base };
    }
  }
  return best;
}

/** Distinct items conflicting with an item, and the items in its way at a given offset. */
export class NeighbourFinder {
  private readonly stamp: Int32Array;
  private visit = 0;

  constructor(private readonly placer: Placer) {
    this.stamp = new Int32Array(placer.prep.itemCount);
  }

  /** Placed items conflicting with `item`, each once. */
  of(item: number): number[] {
    const result: number[] = [];
    this.visit++;
    this.placer.forEachPlacedConflict(item, (_lo, _hi, other) => {
      if (this.stamp[other] === this.visit) return;
      this.stamp[other] = this.visit;
      result.push(other);
    });
    return result;
  }

  /** Placed items that `item` would overlap at `base`; undefined when one of them is fixed. */
  blockersAt(item: number, base: number): number[] | undefined {
    const { prep } = this.placer;
    const result: number[] = [];
    let pinnedInWay = false;
    this.visit++;
    this.placer.forEachPlacedConflict(item, (lo, hi, other) => {
      if (base < lo || base >= hi || this.stamp[other] === this.visit) return;
      this.stamp[other] = this.visit;
      if (!Number.isNaN(prep.itemFixed[other]!)) pinnedInWay = true;
      result.push(other);
    });
    return pinnedInWay ? undefined : result;
  }
}
