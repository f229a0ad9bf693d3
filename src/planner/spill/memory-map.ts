// The memory map of a target: the regions activations may take, fastest
// first, and whether they spill along it. Depends only on the target types.
//
// Decision: `planning.memoryMap` lists the regions when the profile gives it.
// Otherwise the map is the activation region, followed, when that region is
// fast, by the target's slow regions in profile order (mcu: sram, ext-ram).
// A slow activation region (accelerator, phone: dram) has a map of one: their
// fast regions hold fusion units' on-chip buffers, which stay pinned there.
// `planning.spill` defaults to 'on'; spilling happens only when the map has
// two regions or more and the first has a size limit.

import { memoryMapOf, type TargetProfile } from '../targets/target';

/** The regions activations may take, fastest first: the decision above, kept with the target types so the parser checks a pin against it. */
export { memoryMapOf };

/** True when the plan of `target` spills activations along its memory map. */
export function spillsOn(target: TargetProfile): boolean {
  const map = memoryMapOf(target);
  return (target.planning.spill ?? 'on') === 'on' && map.length > 1 && map[0]!.sizeLimit !== undefined && target.planning.runtime !== 'tflm';
}
