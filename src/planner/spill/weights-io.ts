// Weights and graph I/O in the memory map: the bytes a target's weights take
// from a RAM region, the target the activations are planned for once those
// bytes are set aside, and graph inputs and outputs the application owns moved
// out of the arena. Depends only on the planner.
//
// Decisions:
// - Weights placed in a region (loaded there, or copied from flash at start)
//   take their total, rounded up to the region's alignment, at the region's
//   base for the whole run; the arena starts after them. Activations are
//   planned (and spilled) against the limit that leaves; weights in flash
//   take no region's bytes.
// - Application-owned I/O: every graph input and output lives in the
//   application's buffer, so it takes 0 bytes of the arena, and so does what
//   shares its bytes below it (a Reshape view of an input, an op run in place
//   over it). An I/O tensor that shared an activation's bytes (an output that
//   is a Concat input, or written in place over its operand) is cut loose: the
//   activation keeps its bytes and the op writes or copies into the
//   application's buffer.

import type { BufferInfo, BuiltProblem } from '../problem/build-problem';
import { regionOf, type PlacementProblem } from '../problem/problem';
import type { IoOwner, TargetProfile, WeightsHome } from '../targets/target';

/** Where a plan's weights and graph I/O are, as `plan --json` gives it. */
export interface PlanStorage {
  // `in`: a region name, or 'flash' for none; `home`: where weights in no region are (absent from plans saved before it: flash)
  readonly weights: { readonly in: string; readonly copied: boolean; readonly bytes: number; readonly home?: WeightsHome };
  // bytes of graph inputs and outputs over the whole run (not all live at once); of them, bytes in the arena, and bytes of a
  // KV cache (a decoder's past inputs and present outputs, kv-cache.ts), which the views count apart from I/O
  // unknownSizes: inputs and outputs of unknown size (planned as 0 bytes), which `bytes` and `inArena` leave out, so they are
  // lower estimates when it is above 0; absent, as kvBytes is, from plans saved before it was recorded
  readonly io: { readonly owner: IoOwner; readonly bytes: number; readonly inArena: number; readonly kvBytes?: number; readonly unknownSizes?: number };
}

/** Bytes the weights take per region: their total rounded up to the region's alignment, in the region the target names. */
export function weightsReserve(target: TargetProfile, weightsBytes: number): Map<string, number> {
  const name = target.planning.weights?.region;
  const region = target.regions.find((r) => r.name === name);
  if (region === undefined || weightsBytes === 0) return new Map();
  return new Map([[region.name, Math.ceil(weightsBytes / region.alignment) * region.alignment]]);
}

/** `target` with each region's size limit lowered by the bytes set aside in it (never below 0): what activations may use. */
export function activationTarget(target: TargetProfile, reserve: ReadonlyMap<string, number>): TargetProfile {
  if (reserve.size === 0) return target;
  return {
    ...target,
    regions: target.regions.map((r) => {
      const taken = reserve.get(r.name) ?? 0;
      return r.sizeLimit === undefined || taken === 0 ? r : { ...r, sizeLimit: Math.max(0, r.sizeLimit - taken) };
    }),
  };
}

/** `built` with application-owned I/O out of the arena (size 0, no alias); unchanged when the arena owns I/O. See the module header. */
export function withIoOwner(built: BuiltProblem, owner: IoOwner | undefined): BuiltProblem {
  if (owner !== 'application') return built;
  const { problem, info } = built;
  const parent = problem.buffers.map((b) => b.id);
  for (const a of problem.aliases ?? []) parent[a.buffer] = a.parent;
  const outside = problem.buffers.map((b) => {
    for (let id = b.id, hops = 0; hops <= parent.length; id = parent[id]!, hops++) {
      if (info[id]!.graphIo) return true;
      if (parent[id] === id) break;
    }
    return false;
  });
  return {
    ...built,
    problem: {
      ...problem,
      buffers: problem.buffers.map((b) => (outside[b.id] ? { ...b, size: 0 } : b)),
      aliases: (problem.aliases ?? []).filter((a) => !outside[a.buffer]),
    },
    info: info.map((i, id) => (outside[id] && i.alias !== undefined ? { ...i, alias: undefined } : i)),
  };
}

/** Bytes of graph inputs and outputs held in each region of `problem` (their reserved sizes). */
export function ioBytesByRegion(problem: PlacementProblem, info: readonly BufferInfo[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of problem.buffers) if (info[b.id]?.graphIo === true && b.size > 0) out.set(regionOf(b), (out.get(regionOf(b)) ?? 0) + b.size);
  return out;
}

/** Where the plan's weights and graph I/O are; `unknown` names the tensors of unknown size. */
export function planStorage(
  target: TargetProfile,
  weightsBytes: number,
  problem: PlacementProblem,
  info: readonly BufferInfo[],
  kv: ReadonlySet<string>,
  unknown: ReadonlySet<string>,
): PlanStorage {
  const placement = target.planning.weights;
  const ioBytes = problem.buffers.reduce((sum, b) => (info[b.id]?.graphIo === true ? sum + info[b.id]!.bytes : sum), 0);
  const kvBytes = problem.buffers.reduce((sum, b) => (info[b.id]?.graphIo === true && kv.has(b.name) ? sum + info[b.id]!.bytes : sum), 0);
  const inArena = [...ioBytesByRegion(problem, info).values()].reduce((a, b) => a + b, 0);
  const unknownSizes = problem.buffers.filter((b) => info[b.id]?.graphIo === true && unknown.has(b.name)).length;
  return {
    weights: { in: placement?.region ?? 'flash', copied: placement?.copied ?? false, bytes: weightsBytes, home: target.planning.weightsHome ?? 'flash' },
    io: { owner: target.planning.io ?? 'arena', bytes: ioBytes, inArena, kvBytes, unknownSizes },
  };
}

/** Where weights in no region are, in words: "in flash, outside every region", or outside the planned regions where the runtime loads them (a host has no flash). */
export function unplacedWeightsWords(home: WeightsHome | undefined): string {
  return home === 'runtime' ? 'outside the planned regions, loaded or mapped by the runtime' : 'in flash, outside every region';
}
