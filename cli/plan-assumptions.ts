// The lines of `plan`'s text that say what a plan rests on: default dims,
// dims that size nothing, totals given against their parts, sizes unknown or
// past 2^53 − 1 bytes, If branches guessed, the KV cache's past inputs reused,
// kernel workspace not planned, and a fit that holds only as far as known.

import { planLowerEstimate } from '../src/planner/assembly/assumptions';
import { WORKSPACE_NOT_COUNTED } from '../src/planner/scratch/kernel-workspace';
import { SIZES_NOTHING } from '../src/model/infer/dims';
import { kvPastKeptText } from '../src/planner/explain/kv-past-words';
import type { ModelPlan } from '../src/planner/plan';
import { formatCount, MAX_EXACT_POWER, PAST_LIMIT_UNLIMITED } from '../src/shared/format';

/** The tensors known to need more than 2^53 − 1 bytes each: how many, and the first by name and op. */
function pastLimitText(tooLarge: ModelPlan['assumptions']['unknown']): string {
  const first = tooLarge[0]!;
  return `${tooLarge.length} tensor(s) need more than ${MAX_EXACT_POWER} bytes (${formatCount(Number.MAX_SAFE_INTEGER)}) each, first '${first.tensor}' (from ${first.op || 'input'})`;
}

/** "3 tensor(s)", "2 scratch buffer(s)" or both. */
export function unknownCount(unknown: ModelPlan['assumptions']['unknown']): string {
  const scratch = unknown.filter((u) => u.scratch === true).length;
  const tensors = unknown.length - scratch;
  return [tensors > 0 ? `${tensors} tensor(s)` : '', scratch > 0 ? `${scratch} scratch buffer(s)` : ''].filter((w) => w !== '').join(' and ');
}

/** Why a string tensor's size stays unknown whatever is given: no option sizes it (a `.tflite` takes no --shape at all). */
export const STRING_NOT_COUNTED = "a string's size is known only at run time: no option gives it, and the figures leave its bytes out (lower estimates by them)";

/** What gives the unknown sizes: shapes for tensors, a rule that evaluates for scratch; nothing for a string, said so. */
export function unknownHint(unknown: ModelPlan['assumptions']['unknown'], shapes: string): string {
  const scratch = unknown.some((u) => u.scratch === true);
  const strings = unknown.some((u) => u.string === true);
  const tensors = unknown.some((u) => u.scratch !== true && u.tripCount === undefined && u.string !== true);
  const trips = [...new Set(unknown.flatMap((u) => u.tripCount?.inputs ?? []))];
  // a Loop's trip count computed from graph inputs: their values size its outputs, as a shape would
  const tripHint = trips.length === 0 ? '' : `give the Loop's trip count with ${trips.map((i) => `--input ${i}=N`).join(' ')}${tensors ? '' : ` (or ${shapes.replace(/^give /, '')})`}`;
  return [tripHint, tensors ? shapes : '', scratch ? "fix the target's scratch rule" : '', strings ? STRING_NOT_COUNTED : ''].filter((w) => w !== '').join('; ');
}

/** A dim the user bound, as they wrote it (names made safe with the plan, by displaySafe): `--dim x:0=4 (N)` when given by an input axis, `--dim N=4` by its name. */
function givenDim(d: ModelPlan['assumptions']['dims'][number]): string {
  return d.givenAs === undefined ? `--dim ${d.name}=${d.value}` : `--dim ${d.givenAs}=${d.value} (${d.name})`;
}

/** Diagnostics the text says as warnings beside the assumptions, near the top: a total length given against its parts (`dim-mismatch`). */
export const TOP_WARNINGS: ReadonlySet<string> = new Set(['dim-mismatch']);

/** What the plan rests on, when it rests on anything: one line each. */
export function assumptionLines(plan: ModelPlan): string[] {
  const { dims, unknown, branches } = plan.assumptions;
  const lines: string[] = [];
  for (const d of dims.filter((x) => !x.bound)) lines.push(`  assumes       ${d.name}=${d.value} (${d.axes.join(', ')}; default: ${d.rule}) — set with --dim`);
  for (const d of dims.filter((x) => x.bound && x.sizesNothing === true)) lines.push(`  warning       ${givenDim(d)} ${SIZES_NOTHING} (${d.axes.join(', ')})`);
  // dims given against one another: read beside the dims they contradict, not after the peak's live list
  for (const d of plan.diagnostics.filter((x) => TOP_WARNINGS.has(x.code))) lines.push(`  warning       ${d.message} [${d.code}]`);
  const unknownSizes = unknown.filter((u) => u.pastLimit !== true);
  if (unknownSizes.length > 0) {
    const ops = [...new Set(unknownSizes.map((u) => u.op || 'input'))].slice(0, 4).join(', ');
    const first = unknownSizes[0]!;
    lines.push(`  unknown       ${unknownCount(unknownSizes)} of unknown size planned as 0 bytes (from ${ops}); first '${first.tensor}': ${first.reason} — ${unknownHint(unknownSizes, 'give shapes with --shape')}`);
  }
  const tooLarge = unknown.filter((u) => u.pastLimit === true);
  if (tooLarge.length > 0) lines.push(`  too large     ${pastLimitText(tooLarge)}, over any size limit or budget; planned as 0 bytes, so the figures are lower estimates`);
  for (const b of branches) lines.push(`  branch        ${b.node}: ${b.taken} — ${b.reason}`);
  const kept = plan.explanation.kvPastKept;
  if (kept !== undefined) lines.push(`  assumes       ${kvPastKeptText(kept)}`);
  // a fused attention op's kernel workspace the target's scratch rules do not plan: the figures leave it out, said here
  for (const d of plan.diagnostics.filter((x) => x.code === WORKSPACE_NOT_COUNTED)) lines.push(`  warning       ${d.message}`);
  return lines;
}

/** A plan within its size limits whose figures are lower estimates: it fits only as far as known, as the page says. */
export function knownFitLines(plan: ModelPlan): string[] {
  if (!plan.fits || !planLowerEstimate(plan) || !plan.regions.some((r) => r.sizeLimit !== undefined)) return [];
  // a size past 2^53 − 1 bytes in a region with a limit does not fit: one that fits holds it in no such region
  const tooLarge = plan.assumptions.unknown.length > 0 && plan.assumptions.unknown.every((u) => u.pastLimit === true);
  const why = plan.complete ? "the arena is a lower estimate: a kernel's scratch requests are not known, none assumed" : tooLarge ? `some sizes pass ${MAX_EXACT_POWER} bytes, ${PAST_LIMIT_UNLIMITED}` : 'some sizes are unknown, counted as 0 bytes';
  return [`  fits          only as far as known: every region is within its size limit with the sizes known (${why})`];
}
