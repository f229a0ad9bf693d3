// The memory-map lines of `plan`'s text: what would make a plan fit, the
// bytes moved per region, and why the largest spilled buffers went.

import type { ModelPlan } from '../src/planner/plan';
import { formatBytes } from '../src/shared/format';

/** "needs 1.2 MiB more ext-ram, or at least 1.2 MiB more sram", when the plan does not fit. */
export function needsLines(plan: ModelPlan): string[] {
  const needs = plan.fitNeeds ?? [];
  if (needs.length === 0) return [];
  const options = needs.map((n) => `${n.atLeast ? 'at least ' : ''}${formatBytes(n.bytes)} more ${n.region}`);
  return [`  to fit        needs ${options.join(', or ')}`];
}

/** Bytes moved per region and the spilled buffers explained (largest first). */
export function spillLines(plan: ModelPlan): string[] {
  const lines: string[] = [];
  const moved = plan.regions.filter((r) => r.moved !== undefined && r.moved.written + r.moved.read > 0);
  if (moved.length > 0) lines.push(`  moved         ${moved.map((r) => `${r.name} ${formatBytes(r.moved!.written)} written, ${formatBytes(r.moved!.read)} read`).join('; ')} (one inference)`);
  const spill = plan.spill;
  if (spill === undefined) return lines;
  const search = spill.proven ? 'proven the most bytes moved in the fast region' : 'greedy by bytes moved per byte-step, search stopped by its work budget';
  lines.push(`  spill         ${spill.spilledBuffers} buffers to ${spill.map.slice(1).join(', ') || 'none'} (${search})${spill.movedScratch > 0 ? `; ${spill.movedScratch} scratch buffers larger than their region` : ''}`);
  for (const s of plan.explanation.spilled ?? []) lines.push(`    ${formatBytes(s.size).padStart(10)}  ${s.name} -> ${s.region}: ${s.reason}`);
  return lines;
}
