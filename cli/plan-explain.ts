// Text lines of `plan` that say why the peak is what it is: what the
// portfolio kept, each buffer live at the peak with its reason, and the
// evaluated suggestions with their savings and the arguments that apply them.

import { portfolioKept } from '../src/planner/explain/portfolio-words';
import type { ModelPlan } from '../src/planner/plan';
import { formatBytes, MINUS } from '../src/shared/format';

/** The buffers live at the peak, largest first, each with why it is alive; `top` of them. */
export function peakLiveLines(plan: ModelPlan, top: number): string[] {
  const records = plan.explanation.peakLive;
  const byId = new Map(plan.buffers.map((b) => [b.id, b]));
  const lines = records.slice(0, top).flatMap((r) => [
    `    ${formatBytes(r.size).padStart(11)}  ${(byId.get(r.id)?.state === true ? 'state' : r.kind).padEnd(10)}  ${r.name}`,
    `    ${''.padStart(11)}  ${spanText(r)}: ${r.reason}${storedText(byId.get(r.id))}`,
  ]);
  if (records.length > top) lines.push(`    ... and ${records.length - top} more`);
  return lines;
}

/** "; 363 KiB as int8 on npu (1.42 MiB as float32)" for a buffer a compute unit stores in its own type, as the page's Details say it. */
function storedText(b: ModelPlan['buffers'][number] | undefined): string {
  const s = b?.storedAs;
  return s === undefined ? '' : `; ${formatBytes(b!.bytes)} as ${s.dtype} on ${s.unit} (${formatBytes(s.modelBytes)} as ${s.modelDtype})`;
}

function spanText(r: ModelPlan['explanation']['peakLive'][number]): string {
  const from = r.producer !== undefined ? `${r.producer.opType} ${r.producer.node}` : r.causes[0] === 'state' ? 'model state' : r.causes[0] === 'unfed' ? 'start of the run' : 'graph input';
  if (r.kind === 'scratch' || r.kind === 'cache') return `steps ${r.span.start}-${r.span.end} (${r.span.steps})`;
  const to = r.lastReader === undefined ? 'the end' : `${r.lastReader.opType} ${r.lastReader.node}`;
  return `${from} -> ${to}, steps ${r.span.start}-${r.span.end} (${r.span.steps})`;
}

/** A suggestion's effect in the margin: the bytes it takes off the peak, else "fits" when it makes the plan fit. */
function savedText(s: NonNullable<ModelPlan['suggestions']>[number]): string {
  if (s.saves > 0) return `${MINUS}${formatBytes(s.saves)}`;
  return s.fits === true ? 'fits' : `+${formatBytes(-s.saves)}`;
}

/** The suggestions, those that make the plan fit first, then the savings that raise no slow region, then the trades of fast memory for slow (largest saving first within each): the action, the saving and how to apply it. */
export function suggestionLines(plan: ModelPlan): string[] {
  const suggestions = plan.suggestions ?? [];
  if (suggestions.length === 0) return [];
  return [
    `  suggestions   ${suggestions.length}, each planned again:`,
    ...suggestions.map((s) => `    ${savedText(s).padStart(11)}  ${s.action}${s.args === undefined ? ' [model edit]' : ` [${s.args.join(' ')}]`}`),
  ];
}

/** The portfolio's line: what best kept, against M1's plan, and what its winner plans chosen itself where that is another plan. */
export function portfolioLines(plan: ModelPlan): string[] {
  const words = portfolioKept(plan);
  const m1Peak = plan.portfolio?.m1Peak;
  if (words === undefined) return [];
  const saved = m1Peak === undefined ? undefined : m1Peak - plan.peak;
  const versus = m1Peak === undefined || saved === undefined
    ? 'M1 not run beside it (thousands of buffers live at once)'
    : saved < 0
      ? `M1 planned alone ends ${formatBytes(-saved)} lower (${formatBytes(m1Peak)}): the problem each plans depends on the strategy (the bodies it sizes)`
      : `${saved > 0 ? `${formatBytes(saved)} below` : 'the same as'} M1 (${formatBytes(m1Peak)})`;
  return [`  strategy      ${words.kept}; ${versus}${words.alone === undefined ? '' : `; ${words.alone}`}`];
}
