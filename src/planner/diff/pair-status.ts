// The status of a matched pair of buffers, one vocabulary for the diff's
// buffer list and its causes' counts: the size of unknown on a side, moved off
// or on chip by a fusion unit, grown, shrunk, moved or the same.
// Depends only on the plan file types and the diff helpers.

import type { PlannedBuffer } from '../plan-types';
import type { PlanFile } from '../assembly/plan-file';
import { heldBytes } from '../assembly/plan-records';
import type { BufferStatus } from './diff-types';
import { paddingChange } from './padding-change';
import { fusionIndex, unknownSizes } from './peak-causes';

/** The status of a matched pair (A's buffer, B's buffer) of plans `a` and `b`. */
export type PairStatus = (bufA: PlannedBuffer, bufB: PlannedBuffer) => BufferStatus;

/** The status function of two plans. */
export function pairStatusOf(a: PlanFile, b: PlanFile): PairStatus {
  const [unitsA, unitsB] = [fusionIndex(a.plan, 'a'), fusionIndex(b.plan, 'b')];
  const [unknownA, unknownB] = [unknownSizes(a), unknownSizes(b)];
  return (bufA, bufB) => {
    // planned as 0 B because its size is unknown on a side: neither grown nor shrunk
    if ((bufA.size === 0 && unknownA.has(bufA.name)) || (bufB.size === 0 && unknownB.has(bufB.name))) return 'unknown';
    const [inA, inB] = [unitsA.of(bufA) !== undefined, unitsB.of(bufB) !== undefined];
    if (inA !== inB && bufA.region !== bufB.region) return inA ? 'off-chip' : 'on-chip';
    return sizeStatus(a, bufA, b, bufB);
  };
}

/**
 * A pair's status by the bytes it holds, then place: a variable-size scratch
 * buffer given more or less free space than before was placed differently,
 * it did not grow or shrink; nor did a tensor of the same bytes whose
 * alignment padding alone changed (another target's alignment).
 */
function sizeStatus(a: PlanFile, bufA: PlannedBuffer, b: PlanFile, bufB: PlannedBuffer): BufferStatus {
  const padded = paddingChange(a, bufA, b, bufB) !== undefined;
  if (!padded && heldBytes(bufB) > heldBytes(bufA)) return 'grown';
  if (!padded && heldBytes(bufB) < heldBytes(bufA)) return 'shrunk';
  return bufA.offset !== bufB.offset || bufA.region !== bufB.region || bufA.size !== bufB.size ? 'moved' : 'same';
}
