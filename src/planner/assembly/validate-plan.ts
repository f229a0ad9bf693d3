// validatePlan: checks a placement against its problem, independently of the
// strategies' code (its own alias grouping and its own sweep). Depends only on
// the problem types.
//
// - Every buffer has an offset that is a non-negative integer, meets its
//   alignment and, when fixed, equals its fixed offset; every alias holds.
// - No two conflicting buffers overlap in address: a sweep over start steps
//   keeps the live buffers in a max-segment tree indexed by offset rank; each
//   new buffer asks the tree for live buffers below its top that reach above
//   its offset (first its highest top there: in a valid plan, nothing to list).
//   O((n + overlaps) log n), whatever the packing.
// - The reported peak of every region, and their sum, match max(offset + size)
//   over the buffers that hold bytes.

import { MaxTree } from '../../shared/max-tree';
import { ascendingOrder } from '../../shared/index-order';
import { countBelow } from '../../shared/sorted-search';
import { aliasRoots, alignmentOf, regionOf, type Placement, type PlacementProblem } from '../problem/problem';

/** What is wrong with a plan. */
export type ViolationKind = 'unplaced' | 'negative' | 'misaligned' | 'fixed' | 'alias' | 'overlap' | 'peak';

/** One broken rule, with the buffers involved. */
export interface Violation {
  readonly kind: ViolationKind;
  readonly buffers: readonly number[]; // ids
  readonly message: string;
}

/** The verdict of validatePlan. */
export interface PlanValidation {
  readonly valid: boolean;
  readonly violations: readonly Violation[];
}

/** Overlap reports after which the overlap sweep stops (the plan is broken anyway). */
const MAX_OVERLAPS = 100;

/** Checks `placement` against `problem`; see the module header for the rules. */
export function validatePlan(problem: PlacementProblem, placement: Placement): PlanValidation {
  const violations: Violation[] = [];
  const placed = checkBuffers(problem, placement.offsets, violations);
  checkAliases(problem, placement.offsets, placed, violations);
  const roots = aliasRoots(problem);
  const regions = new Map<string, number[]>();
  problem.buffers.forEach((buffer, b) => {
    const name = regionOf(buffer);
    if (!regions.has(name)) regions.set(name, []);
    if (placed[b] === 1) regions.get(name)!.push(b);
  });
  let overlapBudget = MAX_OVERLAPS;
  for (const ids of regions.values()) {
    overlapBudget -= checkOverlaps(problem, placement.offsets, ids, roots, overlapBudget, violations);
  }
  checkPeaks(problem, placement, regions, violations);
  return { valid: violations.length === 0, violations };
}

function checkBuffers(problem: PlacementProblem, offsets: readonly number[], out: Violation[]): Uint8Array {
  const placed = new Uint8Array(problem.buffers.length);
  problem.buffers.forEach((buffer, b) => {
    const offset = offsets[b];
    const name = `buffer ${b} (${buffer.name})`;
    if (offset === undefined || !Number.isSafeInteger(offset)) {
      out.push({ kind: 'unplaced', buffers: [b], message: `${name} has no valid offset (${String(offset)})` });
      return;
    }
    if (offset < 0) {
      out.push({ kind: 'negative', buffers: [b], message: `${name} is at negative offset ${offset}` });
      return;
    }
    placed[b] = 1;
    const alignment = alignmentOf(problem, buffer);
    if (offset % alignment !== 0) {
      out.push({ kind: 'misaligned', buffers: [b], message: `${name} at offset ${offset} is not a multiple of ${alignment}` });
    }
    if (buffer.fixedOffset !== undefined && offset !== buffer.fixedOffset) {
      out.push({ kind: 'fixed', buffers: [b], message: `${name} is at ${offset}, not at its fixed offset ${buffer.fixedOffset}` });
    }
  });
  if (offsets.length !== problem.buffers.length) {
    out.push({ kind: 'unplaced', buffers: [], message: `${offsets.length} offsets for ${problem.buffers.length} buffers` });
  }
  return placed;
}

function checkAliases(problem: PlacementProblem, offsets: readonly number[], placed: Uint8Array, out: Violation[]): void {
  for (const alias of problem.aliases ?? []) {
    if (placed[alias.buffer] !== 1 || placed[alias.parent] !== 1) continue;
    const want = offsets[alias.parent]! + alias.offset;
    if (offsets[alias.buffer] !== want) {
      out.push({
        kind: 'alias',
        buffers: [alias.buffer, alias.parent],
        message: `buffer ${alias.buffer} is at ${offsets[alias.buffer]}, not at ${want} (buffer ${alias.parent}'s offset + ${alias.offset})`,
      });
    }
  }
}

/**
 * Reports overlapping conflicting pairs among `ids` (one region); returns how many it reported. The sweep reads typed
 * copies of the buffers' fields, and asks the tree for the highest top below a buffer's end before listing any: in a
 * valid plan there is none to list, and the sweep costs the same however the plan packs its buffers.
 */
function checkOverlaps(
  problem: PlacementProblem,
  offsets: readonly number[],
  ids: readonly number[],
  roots: readonly number[],
  budget: number,
  out: Violation[],
): number {
  const { buffers } = problem;
  const live = Int32Array.from(ids.filter((b) => buffers[b]!.size > 0));
  const n = live.length;
  // by position k in `live`: offset, top, start, end
  const low = new Float64Array(n);
  const top = new Float64Array(n);
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const b = buffers[live[k]!]!;
    low[k] = offsets[live[k]!]!;
    top[k] = low[k]! + b.size;
    start[k] = b.start;
    end[k] = b.end;
  }
  const byOffset = ascendingOrder(low); // positions follow ids, so ties keep id order
  const rank = new Int32Array(n);
  const sortedOffsets = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    rank[byOffset[r]!] = r;
    sortedOffsets[r] = low[byOffset[r]!]!;
  }
  const tree = new MaxTree(n);
  const byStart = ascendingOrder(start);
  const byEnd = ascendingOrder(end);
  let ended = 0;
  let reported = 0;
  for (let s = 0; s < n; s++) {
    const k = byStart[s]!;
    while (ended < n && end[byEnd[ended]!]! <= start[k]!) tree.set(rank[byEnd[ended++]!]!, -Infinity);
    const below = countBelow(sortedOffsets, top[k]!);
    if (tree.maxBelow(below) > low[k]!) {
      const b = live[k]!;
      for (const r of tree.above(below, low[k]!)) {
        const other = live[byOffset[r]!]!;
        if (roots[other] === roots[b]) continue;
        if (reported >= budget) return reported;
        reported++;
        out.push({
          kind: 'overlap',
          buffers: [other, b],
          message: `buffers ${other} (${buffers[other]!.name}) and ${b} (${buffers[b]!.name}) are live together and overlap in address`,
        });
      }
    }
    tree.set(rank[k]!, top[k]!);
  }
  return reported;
}

function checkPeaks(problem: PlacementProblem, placement: Placement, regions: Map<string, number[]>, out: Violation[]): void {
  let total = 0;
  const computed = new Map<string, number>();
  for (const [name, ids] of regions) {
    let peak = 0;
    for (const b of ids) if (problem.buffers[b]!.size > 0) peak = Math.max(peak, placement.offsets[b]! + problem.buffers[b]!.size);
    computed.set(name, peak);
    total += peak;
  }
  for (const region of placement.regions ?? []) {
    const want = computed.get(region.name) ?? 0;
    if (region.peak !== want) {
      out.push({ kind: 'peak', buffers: [], message: `region ${region.name} reports peak ${region.peak}; its buffers reach ${want}` });
    }
  }
  if (placement.peak !== total) {
    out.push({ kind: 'peak', buffers: [], message: `the plan reports peak ${placement.peak}; its buffers reach ${total}` });
  }
}
