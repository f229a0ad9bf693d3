// Placement orders of the greedy strategies: the free items of a prepared
// region sorted by one key. Depends on the engine's prepared form and the
// live-bytes profile of the lower bound.

import { RangeArgMax } from '../../shared/range-arg-max';
import { liveProfile } from '../problem/lower-bound';
import { countAtOrBelow, countBelow } from '../../shared/sorted-search';
import { itemDegrees } from './degrees';
import type { PreparedRegion } from './prepared';

/**
 * Keys an order can sort by; every order breaks ties by size (larger first),
 * then by item index (smaller first):
 * - `size`: bytes, larger first;
 * - `urgency`: the most bytes live at any step of the item's lifetime, larger first;
 * - `breadth`: like urgency, but items whose busiest step is the same step
 *   stay together, steps taken by their live bytes (TFLite GPU's greedy by breadth);
 * - `area`: bytes × steps, larger first;
 * - `duration`: steps, longer first;
 * - `conflicts`: number of items it conflicts with, more first;
 * - `start`: first live step, earlier first.
 */
export type OrderKey = 'size' | 'urgency' | 'breadth' | 'area' | 'duration' | 'conflicts' | 'start';

/** The free items of `prep` in the order named by `key`. */
export function orderItems(prep: PreparedRegion, key: OrderKey): Int32Array {
  const { itemExtent: size, itemStart: start, itemEnd: end } = prep;
  const items = prep.freeItems.slice();
  const bySize = (a: number, b: number) => size[b]! - size[a]! || a - b;
  switch (key) {
    case 'size':
      return items.sort(bySize);
    case 'urgency': {
      const { live } = busiestSteps(prep);
      return items.sort((a, b) => live[b]! - live[a]! || bySize(a, b));
    }
    case 'breadth': {
      const { live, step } = busiestSteps(prep);
      return items.sort((a, b) => live[b]! - live[a]! || step[a]! - step[b]! || bySize(a, b));
    }
    case 'area':
      return items.sort((a, b) => size[b]! * (end[b]! - start[b]!) - size[a]! * (end[a]! - start[a]!) || bySize(a, b));
    case 'duration':
      return items.sort((a, b) => end[b]! - start[b]! - (end[a]! - start[a]!) || bySize(a, b));
    case 'conflicts': {
      const degree = itemDegrees(prep);
      return items.sort((a, b) => degree[b]! - degree[a]! || bySize(a, b));
    }
    case 'start':
      return items.sort((a, b) => start[a]! - start[b]! || bySize(a, b));
  }
}

interface BusiestSteps {
  readonly live: Float64Array; // per item: most bytes live at one step of its lifetime
  readonly step: Float64Array; // per item: the first step where that happens
}

const busiestCache = new WeakMap<PreparedRegion, BusiestSteps>();

/** For every item, the busiest step of its lifetime (range arg-max over the live profile). */
export function busiestSteps(prep: PreparedRegion): BusiestSteps {
  const cached = busiestCache.get(prep);
  if (cached !== undefined) return cached;
  const { times, live } = liveProfile(prep.problem, prep.groups);
  const table = new RangeArgMax().build(live);
  const result = { live: new Float64Array(prep.itemCount), step: new Float64Array(prep.itemCount) };
  for (let i = 0; i < prep.itemCount; i++) {
    const from = Math.max(0, countAtOrBelow(times, prep.itemStart[i]!) - 1);
    const to = countBelow(times, prep.itemEnd[i]!) - 1;
    const at = to < from ? from : table.argMax(from, to);
    result.live[i] = live[at] ?? 0;
    result.step[i] = times[at] ?? prep.itemStart[i]!;
  }
  busiestCache.set(prep, result);
  return result;
}

