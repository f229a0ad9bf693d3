// A buffer whose tensor holds the same bytes in both plans but takes another
// size changed only its alignment padding (a region or compute unit of the
// other target aligns to another power of two): it neither grew nor shrank.
// Depends only on the plan file types and the problem's rounding.

import type { PlannedBuffer } from '../plan-types';
import type { PlanFile } from '../assembly/plan-file';
import { heldBytes } from '../assembly/plan-records';
import { alignUp } from '../problem/build-buffers';

/** The bytes of data a buffer holds: a scratch buffer's what its rule gives, any other's its tensor's. */
function dataBytes(buffer: PlannedBuffer): number {
  return buffer.scratch?.bytes ?? buffer.bytes;
}

/**
 * The alignment that rounds the buffer's data up to the bytes it holds: its
 * region's in the plan's target, else a compute unit's or another region's
 * (a buffer is sized where it was first placed); undefined when none does.
 */
export function alignmentOf(file: PlanFile, buffer: PlannedBuffer): number | undefined {
  const profile = file.settings.targetProfile;
  const own = profile.regions.find((r) => r.name === buffer.region)?.alignment;
  const candidates = [own, ...profile.computeUnits.map((u) => u.alignment), ...profile.regions.map((r) => r.alignment)];
  const data = dataBytes(buffer);
  return candidates.find((alignment) => alignment !== undefined && alignment > 0 && alignUp(data, alignment) === heldBytes(buffer));
}

/** The alignments of a pair whose size changed by padding alone, A's then B's; undefined when its data changed or an alignment does not explain its size. */
export function paddingChange(a: PlanFile, bufA: PlannedBuffer, b: PlanFile, bufB: PlannedBuffer): readonly [number, number] | undefined {
  if (dataBytes(bufA) !== dataBytes(bufB) || heldBytes(bufA) === heldBytes(bufB)) return undefined;
  const [alignA, alignB] = [alignmentOf(a, bufA), alignmentOf(b, bufB)];
  return alignA === undefined || alignB === undefined || alignA === alignB ? undefined : [alignA, alignB];
}
