// The on-chip (SRAM) plan of one fusion unit's tile: every tile buffer of the
// unit placed by the planner's own strategy over the unit's layer positions.
// Depends only on the planner.

import { alignUp } from '../problem/build-buffers';
import { assignOffsets } from '../assembly/assign-offsets';
import type { PlacementProblem } from '../problem/problem';
import type { TileBuffer } from './feature-map';

/** Region name of the on-chip tile plans. */
export const SRAM_REGION = 'sram';

/** A unit's tile buffers with their on-chip offsets. */
export interface TilePlan {
  readonly problem: PlacementProblem; // buffers by layer position (start = first layer, end = last + 1)
  readonly offsets: readonly number[];
  readonly peak: number;
}

/** Places the tile buffers with the `m1` strategy (METHODS.md M1). */
export function planTile(buffers: readonly TileBuffer[], alignment: number): TilePlan {
  let known = plans.get(buffers);
  if (known === undefined) plans.set(buffers, (known = new Map()));
  let plan = known.get(alignment);
  if (plan === undefined) known.set(alignment, (plan = placeTile(buffers, alignment)));
  return plan;
}

/** Tile plans already placed, per list of tile buffers (the SRAM rule places the kept unit's, its record reads it). */
const plans = new WeakMap<readonly TileBuffer[], Map<number, TilePlan>>();

function placeTile(buffers: readonly TileBuffer[], alignment: number): TilePlan {
  const problem: PlacementProblem = {
    buffers: buffers.map((b, id) => ({ id, name: b.name, size: alignUp(b.bytes, alignment), start: b.first, end: b.last + 1, region: SRAM_REGION })),
    aliases: [],
    alignment,
  };
  const result = assignOffsets(problem, 'm1');
  return { problem, offsets: result.offsets, peak: result.peak };
}
