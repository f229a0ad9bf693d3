// The abstract placement problem of the planner: buffers with lifetimes and sizes
// in, byte offsets out. Plain, structured-cloneable data; depends on nothing.

/** The region a buffer belongs to when it names none. */
export const DEFAULT_REGION = 'default';

/**
 * One block of bytes that must exist during the half-open step interval
 * `[start, end)`. `id` is the buffer's index in `PlacementProblem.buffers`.
 */
export interface PlanBuffer {
  readonly id: number; // index in PlacementProblem.buffers
  readonly name: string; // tensor name, or the id column of a MiniMalloc CSV
  readonly size: number; // bytes, a non-negative integer
  readonly start: number; // first step at which the buffer is live
  readonly end: number; // first step at which it is no longer live (end > start)
  readonly alignment?: number; // offset must be a multiple of this; overrides the problem's
  readonly fixedOffset?: number; // the buffer must sit exactly here
  readonly region?: string; // memory region (arena); DEFAULT_REGION when absent
}

/**
 * A sharing constraint: `buffer` lives exactly at `parent`'s offset + `offset`
 * (a removable op's output over its input, a Split window inside its input, a
 * Concat input inside the Concat output). Aliased buffers never conflict with
 * each other: they share memory on purpose.
 */
export interface Alias {
  readonly buffer: number; // id of the aliased buffer
  readonly parent: number; // id of the buffer it lives inside
  readonly offset: number; // bytes from the parent's offset (may be 0)
}

/** A problem the placement strategies solve. */
export interface PlacementProblem {
  readonly buffers: readonly PlanBuffer[];
  readonly aliases?: readonly Alias[];
  readonly alignment?: number; // default offset alignment in bytes (1 when absent)
}

/** The peak of one memory region. */
export interface RegionPeak {
  readonly name: string;
  readonly peak: number; // max(offset + size) over the region's buffers
}

/** Offsets for every buffer of a problem, and the size they need. */
export interface Placement {
  readonly offsets: readonly number[]; // by buffer id
  readonly peak: number; // sum of the region peaks (the one region's peak, usually)
  readonly regions?: readonly RegionPeak[]; // in order of first appearance
}

/**
 * Why a strategy stopped improving its plan: `done` (nothing left to try),
 * `optimal` (the peak is proven optimal), `iterations` (the iteration or
 * effort bound; deterministic) or `time` (the wall-clock budget).
 */
export type StopReason = 'done' | 'optimal' | 'iterations' | 'time';

/** Effort figures a strategy reports; they never change the plan's meaning. */
export interface PlanStats {
  readonly placements: number; // buffers (or alias groups) placed, over all attempts
  readonly attempts: number; // complete plans built
  readonly improvements: number; // times local search lowered the peak
  readonly stoppedBy: StopReason;
}

/** One region of a plan result. */
export interface RegionResult extends RegionPeak {
  readonly lowerBound: number;
  readonly optimal: boolean; // proven: peak == lower bound, or exhaustive search
}

/** The outcome of `assignOffsets`. */
export interface PlanResult extends Placement {
  readonly strategy: string;
  readonly lowerBound: number; // sum of the region lower bounds
  readonly regions: readonly RegionResult[];
  readonly optimal: boolean; // every region proven optimal
  readonly stats: PlanStats;
  readonly winner?: string; // a portfolio's kept candidate in its largest region (see StrategyOutcome)
}

/** True when two half-open lifetimes share at least one step. */
export function lifetimesOverlap(a: Pick<PlanBuffer, 'start' | 'end'>, b: Pick<PlanBuffer, 'start' | 'end'>): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The region a buffer belongs to. */
export function regionOf(buffer: Pick<PlanBuffer, 'region'>): string {
  return buffer.region ?? DEFAULT_REGION;
}

/** The alignment a buffer's offset must satisfy. */
export function alignmentOf(problem: Pick<PlacementProblem, 'alignment'>, buffer: Pick<PlanBuffer, 'alignment'>): number {
  return buffer.alignment ?? problem.alignment ?? 1;
}

/**
 * True when `a` and `b` must not overlap in address: distinct buffers of one
 * region whose lifetimes overlap and that do not share memory on purpose.
 * `shareRoot` maps a buffer id to its alias group (see `aliasRoots`); without
 * it, no two buffers share.
 */
export function conflicts(a: PlanBuffer, b: PlanBuffer, shareRoot?: readonly number[]): boolean {
  if (a.id === b.id || regionOf(a) !== regionOf(b) || !lifetimesOverlap(a, b)) return false;
  if (a.size === 0 || b.size === 0) return false;
  return shareRoot === undefined || shareRoot[a.id] !== shareRoot[b.id];
}

/**
 * The alias group of every buffer, as the id of one representative member
 * (buffers joined by aliases, directly or through other buffers, share it).
 * Tolerates malformed alias lists (cycles, duplicates); ids out of range are ignored.
 */
export function aliasRoots(problem: PlacementProblem): number[] {
  const n = problem.buffers.length;
  const root = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    let r = x;
    while (root[r] !== r) r = root[r]!;
    for (let y = x; root[y] !== r; ) {
      const next = root[y]!;
      root[y] = r;
      y = next;
    }
    return r;
  };
  for (const alias of problem.aliases ?? []) {
    if (!isIndex(alias.buffer, n) || !isIndex(alias.parent, n)) continue;
    const a = find(alias.buffer);
    const b = find(alias.parent);
    if (a !== b) root[Math.max(a, b)] = Math.min(a, b);
  }
  return root.map((_, i) => find(i));
}

function isIndex(value: number, length: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < length;
}
