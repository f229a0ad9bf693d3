// The words of what `best` kept, for the text and the page alike: a
// baseline's plan, its own search's, or, on a memory map, a baseline's
// placement of the split best's own placements made. Loads no placement code,
// so the page's main thread can say it.

import { formatBytes } from '../../shared/format';
import type { ModelPlan } from '../plan-types';

/** What the portfolio kept, and what its winner plans when chosen itself where that is another plan. */
export interface PortfolioKept {
  readonly kept: string; // "best kept tflm's plan"
  readonly alone?: string; // "tvm-conflicts chosen itself splits them its own way and plans 3.20 MiB"
}

/**
 * What `plan`'s portfolio kept, with `titled(winner)` after the winner's plan
 * or placement (the page's title of the strategy, in brackets). On a memory map, best's own spill keeps the
 * winner's placement of the split best's placements made, which is not the
 * winner's own plan (SqueezeNet fp16 on mcu: tvm-conflicts's placement in
 * best's 2.63 MiB, tvm-conflicts chosen 3.20 MiB); a crowded spill runs no
 * baseline whole, so its winner is such a placement too.
 */
export function portfolioKept(plan: Pick<ModelPlan, 'strategy' | 'portfolio' | 'spill' | 'peak'>, titled: (winner: string) => string = () => ''): PortfolioKept | undefined {
  const p = plan.portfolio;
  if (p === undefined) return undefined;
  if (p.winner === plan.strategy) return { kept: `${plan.strategy} kept its own search's plan` };
  if (!keptPlacementOnly(plan)) return { kept: `${plan.strategy} kept ${p.winner}'s plan${titled(p.winner)}` };
  const kept = `${plan.strategy} split the buffers between memories with its own placements and kept ${p.winner}'s placement${titled(p.winner)} of that split`;
  if (p.winnerPeak === undefined) return { kept };
  // chosen itself, the winner may split them its own way and still end at the same peak (person_detect on mcu: tflm)
  if (p.winnerPeak === plan.peak) return { kept, alone: `${p.winner} chosen itself plans the same ${formatBytes(p.winnerPeak)}` };
  return { kept, alone: `${p.winner} chosen itself splits them its own way and plans ${formatBytes(p.winnerPeak)}` };
}

/** Whether the portfolio kept its winner's placement of a split its own placements made, not the winner's own plan. */
export function keptPlacementOnly(plan: Pick<ModelPlan, 'strategy' | 'portfolio' | 'spill'>): boolean {
  const p = plan.portfolio;
  if (p === undefined || p.winner === plan.strategy) return false;
  return p.winnerPeak !== undefined || (plan.spill !== undefined && p.m1Peak === undefined);
}
