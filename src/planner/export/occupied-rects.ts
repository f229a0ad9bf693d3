// The memory a region's buffers occupy, as rectangles (lifetime × address range)
// with no alias: an alias group (a Reshape over its input, Concat inputs inside
// their output) becomes the rectangles its members cover together, so formats
// without aliases (MiniMalloc CSV) describe the same plan. Depends only on plan types.

import type { PlannedBuffer } from '../plan-types';

/** One rectangle of occupied memory. */
export interface OccupiedRect {
  readonly name: string; // the buffer's name; `name@k` for the k-th piece of a group
  readonly start: number;
  readonly end: number; // half-open
  readonly offset: number; // absolute, in the region
  readonly size: number;
}

/**
 * The rectangles of `buffers` (one region's): a buffer with no alias and no
 * aliased children is itself; a group is the union of its members' rectangles,
 * cut where the set of covered address ranges changes.
 */
export function occupiedRects(buffers: readonly PlannedBuffer[]): OccupiedRect[] {
  const byId = new Map(buffers.map((b) => [b.id, b]));
  const rootOf = (b: PlannedBuffer): PlannedBuffer => {
    let r = b;
    for (let guard = 0; r.alias !== undefined && guard <= buffers.length; guard++) r = byId.get(r.alias.parent) ?? r;
    return r;
  };
  const groups = new Map<number, PlannedBuffer[]>();
  for (const b of buffers) {
    if (b.size === 0) continue;
    const root = rootOf(b);
    groups.set(root.id, [...(groups.get(root.id) ?? []), b]);
  }
  const out: OccupiedRect[] = [];
  for (const [rootId, members] of groups) {
    const name = byId.get(rootId)!.name;
    if (members.length === 1) {
      const b = members[0]!;
      out.push({ name, start: b.start, end: b.end, offset: b.offset, size: b.size });
      continue;
    }
    const pieces = groupPieces(members);
    pieces.forEach((p, k) => out.push({ ...p, name: pieces.length === 1 ? name : `${name}@${k}` }));
  }
  return out;
}

/** Disjoint rectangles covering the union of the members' rectangles. */
function groupPieces(members: readonly PlannedBuffer[]): Omit<OccupiedRect, 'name'>[] {
  const times = [...new Set(members.flatMap((b) => [b.start, b.end]))].sort((x, y) => x - y);
  const open = new Map<string, { start: number; end: number; offset: number; size: number }>();
  const out: Omit<OccupiedRect, 'name'>[] = [];
  for (let t = 0; t + 1 < times.length; t++) {
    const [t0, t1] = [times[t]!, times[t + 1]!];
    const ranges = unionRanges(members.filter((b) => b.start <= t0 && t0 < b.end).map((b) => [b.offset, b.offset + b.size] as const));
    const keys = new Set<string>();
    for (const [lo, hi] of ranges) {
      const key = `${lo}:${hi}`;
      keys.add(key);
      const run = open.get(key);
      if (run !== undefined && run.end === t0) run.end = t1;
      else open.set(key, { start: t0, end: t1, offset: lo, size: hi - lo });
    }
    for (const [key, run] of open) {
      if (!keys.has(key)) {
        out.push(run);
        open.delete(key);
      }
    }
  }
  out.push(...open.values());
  return out.sort((x, y) => x.start - y.start || x.offset - y.offset);
}

function unionRanges(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}
