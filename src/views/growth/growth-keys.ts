// Which point of the growth chart the keyboard moves to: the arrows step
// through the planned values, Home and End jump to the ends. Pure, so the
// chart's keyboard behaviour is tested without a page.

import type { GrowthPoint } from '../../worker/protocol';

/** Keys that move the chart's chosen point. */
const MOVES = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'] as const;

/** True when `key` moves the chart's chosen point. */
export function movesPoint(key: string): boolean {
  return (MOVES as readonly string[]).includes(key);
}

/**
 * The index of the point `key` moves to from point `at` (undefined: none chosen
 * yet, so the first step starts beside the value on screen, `current`, as the
 * reader sees the chart). Right and Up go to larger values; the ends hold.
 * Undefined when there is no point or the key does not move.
 */
export function nextPoint(points: readonly GrowthPoint[], at: number | undefined, current: number | undefined, key: string): number | undefined {
  if (points.length === 0 || !movesPoint(key)) return undefined;
  const last = points.length - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  const up = key === 'ArrowRight' || key === 'ArrowUp';
  if (at !== undefined) return Math.max(0, Math.min(last, at + (up ? 1 : -1)));
  if (current === undefined) return up ? 0 : last;
  if (up) {
    const k = points.findIndex((p) => p.value > current);
    return k === -1 ? last : k;
  }
  const k = points.findIndex((p) => p.value >= current);
  return k === -1 ? last : Math.max(0, k - 1);
}
