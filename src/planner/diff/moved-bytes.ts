// The bytes-moved side of a comparison: per region, the bytes written and read
// over one inference on each side, and the buffers that changed region between
// A and B ranked by the bytes they move (a buffer gone to the slow memory
// takes its reads and writes with it). Depends only on the plan file types.

import type { PlanFile } from '../assembly/plan-file';
import type { BufferMatch } from './match-buffers';

/** Bytes moved in one region on each side. */
export interface RegionMovedDelta {
  readonly name: string;
  readonly movedA: number; // bytes written and read over one inference; 0 when A has no such region
  readonly movedB: number;
  readonly delta: number; // movedB - movedA
}

/** A buffer placed in another region in B than in A. */
export interface BufferMove {
  readonly name: string; // B's name
  readonly idA: number;
  readonly idB: number;
  readonly regionA: string;
  readonly regionB: string;
  readonly direction: 'to-slow' | 'to-fast' | 'across'; // fast to slow memory, the other way, or between two of the same speed
  readonly movedA: number; // bytes it moves over one inference in A
  readonly movedB: number;
}

/** How the bytes moved per region differ, and the buffers that changed region, most bytes first. */
export interface MovedDiff {
  readonly regions: readonly RegionMovedDelta[];
  readonly buffers: readonly BufferMove[]; // ranked by the larger of movedA and movedB, then name
}

/** The bytes-moved comparison of A and B; undefined unless both plans give bytes moved (a memory map of two regions or more). */
export function movedDiff(a: PlanFile, b: PlanFile, match: BufferMatch): MovedDiff | undefined {
  const given = (f: PlanFile) => f.plan.regions.some((r) => r.moved !== undefined);
  if (!given(a) || !given(b)) return undefined;
  const total = (f: PlanFile, name: string) => {
    const m = f.plan.regions.find((r) => r.name === name)?.moved;
    return m === undefined ? 0 : m.written + m.read;
  };
  const names = [...new Set([...a.plan.regions.map((r) => r.name), ...b.plan.regions.map((r) => r.name)])];
  const regions = names.map((name) => ({ name, movedA: total(a, name), movedB: total(b, name), delta: total(b, name) - total(a, name) }));
  const fastA = new Map(a.plan.regions.map((r) => [r.name, r.fast]));
  const fastB = new Map(b.plan.regions.map((r) => [r.name, r.fast]));
  const buffers: BufferMove[] = [];
  b.plan.buffers.forEach((bufB, j) => {
    const i = match.bToA[j];
    const bufA = i === undefined ? undefined : a.plan.buffers[i];
    if (bufA === undefined || bufA.region === bufB.region || (bufA.moved ?? 0) + (bufB.moved ?? 0) === 0) return;
    const [wasFast, isFast] = [fastA.get(bufA.region) === true, fastB.get(bufB.region) === true];
    const direction = wasFast === isFast ? 'across' : wasFast ? 'to-slow' : 'to-fast';
    buffers.push({ name: bufB.name, idA: bufA.id, idB: bufB.id, regionA: bufA.region, regionB: bufB.region, direction, movedA: bufA.moved ?? 0, movedB: bufB.moved ?? 0 });
  });
  const most = (m: BufferMove) => Math.max(m.movedA, m.movedB);
  buffers.sort((x, y) => most(y) - most(x) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { regions, buffers };
}
