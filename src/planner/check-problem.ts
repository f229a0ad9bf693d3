// Checks that a placement problem is well formed before any strategy sees it.
// Depends only on the problem types and shared errors.

import { InputError } from '../shared/errors';
import { resolveAliasGroups, type ResolvedAliases } from './alias-groups';
import type { PlacementProblem, PlanBuffer } from './problem';

/** Every reason the problem cannot be planned, as sentences naming the value; empty when fine. */
export function checkProblem(problem: PlacementProblem): string[] {
  return [...bufferIssues(problem), ...resolveAliasGroups(problem).issues];
}

/**
 * Resolves the alias groups of a problem that must be well formed; throws
 * InputError('bad-argument') naming the first issue otherwise.
 */
export function resolveCheckedProblem(problem: PlacementProblem): ResolvedAliases {
  const issues = bufferIssues(problem);
  const resolved = resolveAliasGroups(problem);
  issues.push(...resolved.issues);
  if (issues.length > 0) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw new InputError('bad-argument', `invalid placement problem: ${issues[0]}${more}`);
  }
  return resolved;
}

function bufferIssues(problem: PlacementProblem): string[] {
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

function isNonNegativeInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}
