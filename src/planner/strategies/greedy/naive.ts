// Strategy `naive`: no reuse at all; the baseline every other strategy beats.
// Depends only on the planner engine.
//
// - Items with a fixed offset sit there.
// - Every other item, in id order, goes on top of everything placed so far
//   (aligned), so offsets are the running sum of sizes; items of no bytes go at 0.
// - Items are alias groups: an in-place output, a view or a Concat input in
//   its slot still shares bytes with the buffer it aliases, as the problem
//   states (ultraface: 13.5 MiB, where its tensors each apart take 25.8 MiB).
// - The peak is the sum of the groups' sizes: what the model needs without planning.

import { alignBase, type PreparedRegion } from '../../engine/prepared';
import type { Strategy, StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

function planNaive(prep: PreparedRegion): StrategyOutcome {
  const offsets = prep.itemFixed.slice();
  let top = 0;
  for (let i = 0; i < prep.itemCount; i++) {
    if (!Number.isNaN(offsets[i]!) && prep.itemExtent[i]! > 0) top = Math.max(top, offsets[i]! + prep.itemExtent[i]!);
  }
  for (const item of prep.freeItems) {
    if (prep.itemExtent[item] === 0) {
      offsets[item] = alignBase(prep, item, 0); // holds no bytes: takes no room
      continue;
    }
    offsets[item] = alignBase(prep, item, top);
    top = offsets[item]! + prep.itemExtent[item]!;
  }
  return { offsets, placements: prep.freeItems.length, attempts: 1, improvements: 0, stoppedBy: 'done', proven: false };
}

/** Every alias group in its own bytes: offsets are the running sum of sizes. */
export const naive: Strategy = {
  name: 'naive',
  title: STRATEGY_TITLES['naive'],
  plan: planNaive,
};
