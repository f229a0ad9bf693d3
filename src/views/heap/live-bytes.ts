// Bytes live at each step of a plan's buffers, shared bytes counted once:
// buffers are grouped by whose bytes they share (alias chains followed to
// their root), and a group's bytes count for as long as any member holds
// them. The heap lanes' curve and the peak chart both read this, so they
// agree with each other and with the lower bound. Plain functions; no DOM.

import type { PlannedBuffer } from '../../planner/plan';

/**
 * The buffers grouped by whose bytes they share: each group's first entry is
 * the root (the one that is not an alias), then the buffers placed in its
 * bytes (alias chains followed to it). The root's kind is the group's.
 */
export function sharingGroups(buffers: readonly PlannedBuffer[]): PlannedBuffer[][] {
  const byId = new Map(buffers.map((b) => [b.id, b]));
  const roots = new Map<number, PlannedBuffer>(); // buffer id -> its root, once known
  const rootOf = (b: PlannedBuffer): PlannedBuffer => {
    const chain: PlannedBuffer[] = [];
    let root = b;
    while (!roots.has(root.id) && root.alias !== undefined && byId.has(root.alias.parent) && chain.length < buffers.length) {
      chain.push(root);
      root = byId.get(root.alias.parent)!;
    }
    root = roots.get(root.id) ?? root;
    for (const link of chain) roots.set(link.id, root); // a chain of in-place nodes is walked once
    return root;
  };
  const groups = new Map<number, PlannedBuffer[]>();
  for (const b of buffers) {
    const root = rootOf(b);
    if (!groups.has(root.id)) groups.set(root.id, [root]);
    if (b !== root) groups.get(root.id)!.push(b);
  }
  return [...groups.values()];
}

/**
 * Bytes live at each step of [0, steps) for `groups` (half-open lifetimes,
 * at least one step each). Shared bytes count once, for as long as any
 * member of the group holds them (an in-place output can outlive its root):
 * the group's addresses are cut where a member's range starts or ends, and
 * each piece counts over the union of the lifetimes of the members covering it.
 */
export function liveBytes(groups: readonly PlannedBuffer[][], steps: number): Float64Array {
  const delta = new Float64Array(steps + 1);
  const add = (bytes: number, start: number, end: number) => {
    delta[start]! += bytes;
    delta[end]! -= bytes;
  };
  for (const group of groups) {
    if (group.length === 1) add(group[0]!.size, ...lifetime(group[0]!));
    else addShared(group, add);
  }
  const live = new Float64Array(steps);
  let running = 0;
  for (let s = 0; s < steps; s += 1) {
    running += delta[s]!;
    live[s] = running;
  }
  return live;
}

/** [start, end) of `b`, at least one step. */
function lifetime(b: PlannedBuffer): [number, number] {
  return [b.start, Math.max(b.end, b.start + 1)];
}

/** Calls `add(bytes, start, end)` for each piece of a group's addresses and each run of steps some member covering it is live. */
function addShared(group: readonly PlannedBuffer[], add: (bytes: number, start: number, end: number) => void): void {
  const cuts = [...new Set(group.flatMap((b) => [b.offset, b.offset + b.size]))].sort((a, b) => a - b);
  for (let c = 0; c + 1 < cuts.length; c += 1) {
    const [low, high] = [cuts[c]!, cuts[c + 1]!];
    const spans = group.filter((b) => b.offset <= low && b.offset + b.size >= high).map(lifetime);
    spans.sort((a, b) => a[0] - b[0]);
    let run: [number, number] | undefined;
    for (const [start, end] of spans) {
      if (run !== undefined && start <= run[1]) run[1] = Math.max(run[1], end);
      else {
        if (run !== undefined) add(high - low, ...run);
        run = [start, end];
      }
    }
    if (run !== undefined) add(high - low, ...run);
  }
}
