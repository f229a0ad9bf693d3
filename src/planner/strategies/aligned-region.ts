// A region whose free items all share one alignment, seen in units of that
// alignment, so the exact search (which places at any whole offset) can run on
// the aligned regions real targets have. Depends only on the engine's prepared form.

import type { PreparedRegion } from '../engine/prepared';

/** A region in units of `unit` bytes, and the unit. */
export interface AlignedRegion {
  readonly prep: PreparedRegion;
  readonly unit: number;
}

/**
 * `prep` with every byte figure divided by the alignment its free items share,
 * or undefined when there is nothing to gain (alignment 1) or the division is
 * not exact (items of different alignments or phases, sizes or offsets within
 * an item that are not multiples of it, a fixed item off the grid).
 *
 * Why it is exact: an aligned placement and the placement in units map one to
 * one (offset = unit × offset in units), sizes being multiples of the unit, so
 * the optimum in units times the unit is the region's optimum and a proof in
 * units is a proof in bytes.
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
      itemModulus: new Float64Array(prep.itemCount).fill(1),
      itemPhase: new Float64Array(prep.itemCount),
      itemFixed: inUnits(prep.itemFixed),
      rectRel: inUnits(prep.rectRel),
      rectSize: inUnits(prep.rectSize),
    },
  };
}

/** The modulus every item with bytes shares at phase 0, or undefined when they differ. */
function sharedModulus(prep: PreparedRegion): number | undefined {
  let shared: number | undefined;
  for (let i = 0; i < prep.itemCount; i++) {
    if (prep.itemExtent[i] === 0) continue;
    const modulus = prep.itemModulus[i]!;
    if (prep.itemPhase[i] !== 0 || (shared !== undefined && modulus !== shared)) return undefined;
    shared = modulus;
  }
  return shared;
}

/** Offsets in units back to bytes; items without bytes keep the offsets they had. */
export function offsetsInBytes(aligned: AlignedRegion, unitOffsets: Float64Array, original: Float64Array): Float64Array {
  return unitOffsets.map((offset, i) => (aligned.prep.itemExtent[i] === 0 ? original[i]! : offset * aligned.unit));
}
