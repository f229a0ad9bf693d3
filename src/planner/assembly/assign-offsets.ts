// assignOffsets: runs a placement strategy on every memory region of a problem
// and returns the offsets, peaks and lower bounds. Depends only on src/shared
// and the planner's own modules.

import { InputError } from '../../shared/errors';
import { groupsByRegion, type AliasGroup } from '../problem/alias-groups';
import { resolveCheckedProblem } from '../problem/check-problem';
import { prepareRegion } from '../engine/prepared';
import { lowerBoundOfGroups } from '../problem/lower-bound';
import type { PlacementProblem, PlanResult, RegionResult, StopReason } from '../problem/problem';
import { STRATEGIES } from '../strategies/registry';
import { isStrategyName, STRATEGY_NAMES } from '../strategies/strategy-names';
import type { PlanOptions, StrategyOutcome } from '../strategies/strategy';

/**
 * Places every buffer of `problem` with the strategy named `strategyName`
 * (default `best`). Throws InputError('bad-argument') for an unknown strategy
 * or a malformed problem.
 */
export function assignOffsets(problem: PlacementProblem, strategyName = 'best', options: PlanOptions = {}): PlanResult {
  if (!isStrategyName(strategyName)) {
    throw new InputError('bad-argument', `unknown strategy "${strategyName}"; expected one of ${STRATEGY_NAMES.join(', ')}`);
  }
  const strategy = STRATEGIES[strategyName];
  const resolved = resolveCheckedProblem(problem);
  const bounds = lowerBoundOfGroups(problem, resolved.groups).regions;
  const offsets = new Array<number>(problem.buffers.length).fill(0);
  const regions: RegionResult[] = [];
  const outcomes: StrategyOutcome[] = [];
  groupsByRegion(problem, resolved.groups).forEach(({ name, groups }, r) => {
    const lowerBound = bounds[r]!.lowerBound;
    const prep = prepareRegion(problem, name, groups);
    const outcome = strategy.plan(prep, { lowerBound, peakStep: bounds[r]!.peakStep, options });
    outcomes.push(outcome);
    const peak = spreadItems(problem, groups, outcome.offsets, offsets);
    regions.push({ name, peak, lowerBound, optimal: peak <= lowerBound || outcome.proven });
  });
  const winner = winnerOf(outcomes, regions);
  return {
    strategy: strategyName,
    offsets,
    peak: regions.reduce((sum, r) => sum + r.peak, 0),
    lowerBound: regions.reduce((sum, r) => sum + r.lowerBound, 0),
    regions,
    optimal: regions.every((r) => r.optimal),
    stats: {
      placements: outcomes.reduce((sum, o) => sum + o.placements, 0),
      attempts: outcomes.reduce((sum, o) => sum + o.attempts, 0),
      improvements: outcomes.reduce((sum, o) => sum + o.improvements, 0),
      stoppedBy: combinedStop(outcomes.map((o) => o.stoppedBy)),
    },
    ...(winner !== undefined && { winner }),
  };
}

/** The winner a portfolio reports for the region with the largest peak. */
function winnerOf(outcomes: readonly StrategyOutcome[], regions: readonly RegionResult[]): string | undefined {
  let top = -1;
  regions.forEach((r, i) => {
    if (outcomes[i]!.winner !== undefined && (top < 0 || r.peak > regions[top]!.peak)) top = i;
  });
  return top < 0 ? undefined : outcomes[top]!.winner;
}

/** The stop reason of a multi-region plan: the least conclusive of its regions'. */
function combinedStop(reasons: readonly StopReason[]): StopReason {
  const rank: readonly StopReason[] = ['time', 'iterations', 'done', 'optimal'];
  let worst: StopReason = 'optimal';
  for (const reason of reasons) if (rank.indexOf(reason) < rank.indexOf(worst)) worst = reason;
  return reasons.length === 0 ? 'done' : worst;
}

/**
 * Writes each buffer's offset (its item's base plus its place in the item)
 * into `offsets`; returns the region's peak. A buffer of no bytes occupies no
 * memory, wherever its offset.
 */
export function spreadItems(problem: PlacementProblem, groups: readonly AliasGroup[], itemOffsets: ArrayLike<number>, offsets: number[]): number {
  let peak = 0;
  groups.forEach((group, item) => {
    group.members.forEach((b, k) => {
      const offset = itemOffsets[item]! + group.rel[k]!;
      offsets[b] = offset;
      if (problem.buffers[b]!.size > 0) peak = Math.max(peak, offset + problem.buffers[b]!.size);
    });
  });
  return peak;
}
