// Checks that a placement problem is well formed before any strategy sees it.
// Depends only on the problem types and shared errors.

import { InputError } from '../../shared/errors';
import { resolveAliasGroups, type ResolvedAliases } from './alias-groups';
import { MaxTree } from '../../shared/max-tree';
import { countBelow } from '../../shared/sorted-search';
import { aliasRoots, regionOf, type PlacementProblem, type PlanBuffer } from './problem';
import { formatLargeCount, MAX_BYTES, MAX_EXACT_POWER } from '../../shared/format';

/** Every reason the problem cannot be planned, as sentences naming the value; empty when fine. */
export function checkProblem(problem: PlacementProblem): string[] {
  return [...bufferIssues(problem), ...resolveAliasGroups(problem).issues];
}

/**
 * Resolves the alias groups of a problem that must be well formed; throws
 * InputError('bad-argument') naming the first issue otherwise, and
 * InputError('too-large') for a well-formed problem whose plans could pass
 * what the planner computes exactly: that problem is valid, only too large here.
 */
export function resolveCheckedProblem(problem: PlacementProblem): ResolvedAliases {
  const issues = formIssues(problem);
  const resolved = resolveAliasGroups(problem);
  issues.push(...resolved.issues);
  if (issues.length === 0) {
    const tooLarge = spanIssue(problem);
    if (tooLarge !== undefined) throw new InputError('too-large', `the placement problem is too large to plan exactly: ${tooLarge}`);
    issues.push(...fixedOverlapIssues(problem));
  }
  if (issues.length > 0) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw new InputError('bad-argument', `invalid placement problem: ${issues[0]}${more}`);
  }
  return resolved;
}

function bufferIssues(problem: PlacementProblem): string[] {
  const tooLarge = spanIssue(problem);
  const issues = [...(tooLarge === undefined ? [] : [tooLarge]), ...formIssues(problem)];
  if (issues.length === 0) issues.push(...fixedOverlapIssues(problem));
  return issues;
}

/**
 * Why plans of the problem could pass MAX_BYTES, or undefined when they cannot.
 * It speaks of the buffers stacked, not of the peak: their peak may well be
 * lower (two buffers of 2^52 B never live together beside one of 1 B peak at
 * 2^52 + 1 B), but a strategy may stack them while it searches.
 */
function spanIssue(problem: PlacementProblem): string | undefined {
  const span = addressSpan(problem);
  if (span <= MAX_BYTES) return undefined;
  return `its buffers stacked one above another (sizes, alignment padding and fixed offsets) reach ${formatLargeCount(span)} bytes, past ${MAX_EXACT_POWER} (${MAX_BYTES}), the most the planner computes exactly, though its peak may be lower`;
}

/** The issues of the problem's form: its alignment and each buffer's fields. */
function formIssues(problem: PlacementProblem): string[] {
  const issues: string[] = [];
  if (problem.alignment !== undefined && !isPositiveInteger(problem.alignment)) {
    issues.push(`problem alignment ${problem.alignment} is not a positive integer`);
  }
  problem.buffers.forEach((buffer, index) => {
    const issue = bufferIssue(buffer, index, problem.alignment ?? 1);
    if (issue !== undefined) issues.push(issue);
  });
  return issues;
}

function bufferIssue(buffer: PlanBuffer, index: number, defaultAlignment: number): string | undefined {
  const what = `buffer ${index} (${buffer.name})`;
  if (buffer.id !== index) return `${what} has id ${buffer.id}; ids must equal positions`;
  if (!isNonNegativeInteger(buffer.size)) return `${what} has size ${buffer.size}, not a non-negative integer`;
  if (!Number.isSafeInteger(buffer.start) || !Number.isSafeInteger(buffer.end)) {
    return `${what} has lifetime [${buffer.start}, ${buffer.end}), not integer steps`;
  }
  if (buffer.end <= buffer.start) return `${what} has empty lifetime [${buffer.start}, ${buffer.end})`;
  if (buffer.alignment !== undefined && !isPositiveInteger(buffer.alignment)) {
    return `${what} has alignment ${buffer.alignment}, not a positive integer`;
  }
  if (buffer.fixedOffset !== undefined) {
    if (!isNonNegativeInteger(buffer.fixedOffset)) return `${what} has fixed offset ${buffer.fixedOffset}, not a non-negative integer`;
    const alignment = buffer.alignment ?? defaultAlignment;
    if (buffer.fixedOffset % alignment !== 0) return `${what} has fixed offset ${buffer.fixedOffset}, not a multiple of ${alignment}`;
  }
  return undefined;
}

/**
 * The most bytes any plan of the problem can reach: every free buffer stacked
 * with the most alignment padding it can need (alignment − 1 bytes), above the
 * highest fixed buffer (a fixed buffer sits below that top, so it is not
 * stacked again: a solution, every offset fixed, spans what its plan did).
 * Plans stay exact when this stays within MAX_BYTES, which it may equal: one
 * buffer of 2^53 − 1 bytes is placed at 0 and peaks there exactly.
 */
function addressSpan(problem: PlacementProblem): number {
  let total = 0;
  let fixedTop = 0;
  for (const buffer of problem.buffers) {
    const alignment = buffer.alignment ?? problem.alignment ?? 1;
    if (buffer.fixedOffset !== undefined && Number.isFinite(buffer.fixedOffset)) {
      fixedTop = Math.max(fixedTop, buffer.fixedOffset + (Number.isFinite(buffer.size) ? buffer.size : 0));
    } else if (Number.isFinite(buffer.size)) {
      total += buffer.size + (Number.isFinite(alignment) ? Math.max(0, alignment - 1) : 0);
    }
  }
  return total + fixedTop;
}

/**
 * Pairs of buffers whose fixed offsets overlap while both are live (and they
 * share no memory on purpose): no plan can hold both. A sweep over start steps.
 */
function fixedOverlapIssues(problem: PlacementProblem): string[] {
  const roots = aliasRoots(problem);
  const byRegion = new Map<string, PlanBuffer[]>();
  for (const b of problem.buffers) {
    if (b.fixedOffset === undefined || b.size === 0) continue;
    const list = byRegion.get(regionOf(b));
    if (list === undefined) byRegion.set(regionOf(b), [b]);
    else list.push(b);
  }
  const issues: string[] = [];
  for (const fixed of byRegion.values()) {
    fixedOverlapsIn(fixed, roots, issues);
    if (issues.length >= MAX_FIXED_ISSUES) break;
  }
  return issues.slice(0, MAX_FIXED_ISSUES);
}

const MAX_FIXED_ISSUES = 10;

/**
 * The pairs of `fixed` (one region's fixed buffers) live together whose
 * offsets overlap, outside an alias group, in one sweep over time: the live
 * ones sit in a max-tree by offset rank holding their top addresses, so each
 * buffer asks only for those starting below its top and ending above its
 * base. O(n log n) plus the pairs found; 20,000 buffers live at once with
 * every offset fixed took seconds pair by pair.
 */
function fixedOverlapsIn(fixed: readonly PlanBuffer[], roots: readonly number[], issues: string[]): void {
  const byOffset = fixed.slice().sort((a, b) => a.fixedOffset! - b.fixedOffset! || a.id - b.id);
  const rank = new Map(byOffset.map((b, r) => [b.id, r]));
  const offsets = byOffset.map((b) => b.fixedOffset!);
  const byStart = fixed.slice().sort((a, b) => a.start - b.start || a.id - b.id);
  const byEnd = fixed.slice().sort((a, b) => a.end - b.end || a.id - b.id);
  const tree = new MaxTree(byOffset.length);
  let ended = 0;
  for (const b of byStart) {
    while (ended < byEnd.length && byEnd[ended]!.end <= b.start) tree.set(rank.get(byEnd[ended++]!.id)!, -Infinity);
    for (const r of tree.above(countBelow(offsets, b.fixedOffset! + b.size), b.fixedOffset!)) {
      const a = byOffset[r]!;
      if (roots[a.id] === roots[b.id]) continue;
      issues.push(
        `buffers ${a.id} (${a.name}) and ${b.id} (${b.name}) are live together and their fixed offsets overlap ` +
          `([${a.fixedOffset}, ${a.fixedOffset! + a.size}) and [${b.fixedOffset}, ${b.fixedOffset! + b.size}))`,
      );
      if (issues.length >= MAX_FIXED_ISSUES) return;
    }
    tree.set(rank.get(b.id)!, b.fixedOffset! + b.size);
  }
}

function isNonNegativeInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}
