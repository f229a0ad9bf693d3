// A region seen in units of the alignment all its items share (the greatest
// common divisor of theirs), so the exact search runs on the aligned regions
// real targets have: at any whole offset where they share one, and on
// multiples of each item's alignment in units where they differ (which
// MiniMalloc's search handles). Depends only on the engine's prepared form
// and src/shared/integers.ts.

import { gcd } from '../../../shared/integers';
import type { PreparedRegion } from '../../engine/prepared';

/** A region in units of `unit` bytes, and the unit. */
export interface AlignedRegion {
  readonly prep: PreparedRegion;
  readonly unit: number;
}

/**
 * `prep` with every byte figure divided by the alignment its items share, and
 * each item's alignment in those units; or undefined when there is nothing
 * to gain (they share only 1) or the division is not exact (an item at a
 * phase, sizes or offsets within an item that are not multiples of it, a
 * fixed item off the grid).
 *
 * Why it is exact: an aligned placement and the placement in units map one to
 * one (offset = unit × offset in units, an item's alignment a multiple of the
 * unit), sizes being multiples of the unit, so the optimum in units times the
 * unit is the region's optimum and a proof in units is a proof in bytes.
 */
export function alignedRegion(prep: PreparedRegion): AlignedRegion | undefined {
  const unit = sharedModulus(prep);
  if (unit === undefined || unit <= 1) return undefined;
  const whole = (value: number): boolean => value % unit === 0;
  for (let i = 0; i < prep.itemCount; i++) {
    if (!whole(prep.itemExtent[i]!)) return undefined;
    const fixed = prep.itemFixed[i]!;
    if (!Number.isNaN(fixed) && !whole(fixed)) return undefined;
  }
  for (let r = 0; r < prep.rectCount; r++) if (!whole(prep.rectRel[r]!) || !whole(prep.rectSize[r]!)) return undefined;
  const inUnits = (values: Float64Array): Float64Array => values.map((v) => (Number.isNaN(v) ? v : v / unit));
  return {
    unit,
    prep: {
      ...prep,
      itemExtent: inUnits(prep.itemExtent),
      itemModulus: prep.itemModulus.map((m) => Math.max(1, m / unit)),
      itemPhase: new Float64Array(prep.itemCount),
      itemFixed: inUnits(prep.itemFixed),
      rectRel: inUnits(prep.rectRel),
      rectSize: inUnits(prep.rectSize),
    },
  };
}

/** The greatest common divisor of the moduli of the items with bytes, all at phase 0; undefined when one is at a phase. */
function sharedModulus(prep: PreparedRegion): number | undefined {
  let shared: number | undefined;
  for (let i = 0; i < prep.itemCount; i++) {
    if (prep.itemExtent[i] === 0) continue;
    const modulus = prep.itemModulus[i]!;
    if (prep.itemPhase[i] !== 0 || !Number.isSafeInteger(modulus)) return undefined;
    shared = shared === undefined ? modulus : gcd(shared, modulus);
  }
  return shared;
}

/** Offsets in units back to bytes; items without bytes keep the offsets they had. */
export function offsetsInBytes(aligned: AlignedRegion, unitOffsets: Float64Array, original: Float64Array): Float64Array {
  return unitOffsets.map((offset, i) => (aligned.prep.itemExtent[i] === 0 ? original[i]! : offset * aligned.unit));
}
