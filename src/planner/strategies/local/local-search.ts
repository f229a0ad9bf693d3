// Local search around the peak for the `best` portfolio: lift-and-reinsert
// ("ruin and recreate") on the items that make the peak, with a cooling
// acceptance rule. Depends only on the planner engine.
//
// - Start from the portfolio's smallest plan.
// - Each iteration picks an item whose top is the peak and lifts it together
//   with items it conflicts with, or pins it lower and lifts what is in its
//   way there (see lift-moves.ts).
// - The lifted items go back one by one - largest first, or in random order -
//   with first fit or best fit, around everything that stayed in place.
// - The new plan is kept when the peak does not rise and no more items touch
//   it (steps along a plateau are allowed). A higher peak is kept with a
//   probability that shrinks with the rise and with time (simulated
//   annealing), so the search can leave a local minimum; the best plan seen
//   is what it returns. Otherwise the lift is undone.
// - Stops at the lower bound, after `maxIterations`, when the effort budget
//   is spent, or at the deadline (on the wall clock, or on the work clock of
//   engine/work-clock.ts when the caller gave no time). Effort counts
//   adjacency entries scanned plus items visited: it tracks time but does not
//   depend on the machine.
// - Choices come from a seeded generator: the same problem and limits give the
//   same plan whenever the wall clock is not what stopped the search.

import { Placer, type Fit } from '../../engine/placer';
import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { seededRandom } from '../../../shared/random';
import type { StopReason } from '../../problem/problem';
import { NeighbourFinder, pickLift, type Lift } from './lift-moves';

/** Bounds of one search. */
export interface SearchLimits {
  readonly lowerBound: number;
  readonly maxIterations: number;
  readonly maxWork: number; // effort units the search may spend
  readonly deadline: number; // clock value at which to stop
  readonly clock: () => number; // the wall clock, or the work clock
}

/** The best placement the search reached. */
export interface SearchOutcome {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly iterations: number;
  readonly improvements: number;
  readonly placements: number;
  readonly stoppedBy: StopReason;
}

/** Starting temperature, as a fraction of the starting gap to the lower bound. */
const START_TEMPERATURE = 0.05;

/**
 * Improves the placement `start` (item offsets) around its peak.
 * How it works: see the module header; each turn lifts, reinserts, then keeps
 * or undoes the result by the acceptance rule, tracking the best plan seen.
 */
export function liftAndReinsert(prep: PreparedRegion, start: Float64Array, limits: SearchLimits): SearchOutcome {
  const placer = new Placer(prep);
  placer.load(start);
  let peak = placer.peak();
  let crowd = countAtPeak(placer, peak);
  let bestPeak = peak;
  const bestOffsets = placer.offsets.slice();
  const saved = new Float64Array(prep.itemCount);
  const random = seededRandom(0x5eed ^ prep.itemCount);
  const neighbours = new NeighbourFinder(placer);
  const startGap = peak - limits.lowerBound;
  let work = 0;
  let iterations = 0;
  let improvements = 0;
  let stoppedBy: StopReason = 'iterations';
  for (; iterations < limits.maxIterations; iterations++) {
    if (bestPeak <= limits.lowerBound) {
      stoppedBy = 'optimal';
      break;
    }
    if (work > limits.maxWork) break;
    if (limits.clock() >= limits.deadline) {
      stoppedBy = 'time';
      break;
    }
    const before = placer.work;
    const move = pickLift(placer, neighbours, peak, random);
    if (move === undefined) {
      stoppedBy = 'done';
      break;
    }
    saved.set(placer.offsets);
    reinsert(placer, move, random);
    const newPeak = placer.peak();
    const newCrowd = countAtPeak(placer, newPeak);
    work += placer.work - before + 3 * prep.itemCount;
    countWork(15 * prep.itemCount); // the copies and the scan for the peak; the placer counts its own
    const progress = Math.max(iterations / limits.maxIterations, work / limits.maxWork);
    const temperature = START_TEMPERATURE * startGap * (1 - progress);
    const rise = newPeak - peak;
    const keep =
      rise < 0 || (rise === 0 && newCrowd <= crowd) || (rise > 0 && temperature > 0 && random() < Math.exp(-rise / temperature));
    if (!keep) {
      placer.load(saved);
      continue;
    }
    peak = newPeak;
    crowd = newCrowd;
    if (peak < bestPeak) {
      improvements++;
      bestPeak = peak;
      bestOffsets.set(placer.offsets);
    }
  }
  return { offsets: bestOffsets, peak: bestPeak, iterations, improvements, placements: placer.placements, stoppedBy };
}

function reinsert(placer: Placer, move: Lift, random: () => number): void {
  const { lifted, pinned, base } = move;
  const size = placer.prep.itemExtent;
  if (random() < 0.5) {
    lifted.sort((a, b) => size[b]! - size[a]! || a - b);
  } else {
    for (let i = lifted.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [lifted[i], lifted[j]] = [lifted[j]!, lifted[i]!];
    }
  }
  const fit: Fit = random() < 0.5 ? 'first' : 'best';
  for (const item of lifted) placer.set(item, NaN);
  if (pinned !== undefined) placer.set(pinned, base);
  for (const item of lifted) placer.place(item, fit);
}

function countAtPeak(placer: Placer, peak: number): number {
  let count = 0;
  for (let i = 0; i < placer.offsets.length; i++) {
    if (placer.offsets[i]! + placer.prep.itemExtent[i]! === peak) count++;
  }
  return count;
}
