// The memory-map lines of `plan`'s text: what would make a plan fit, the
// bytes moved per region, why the largest spilled buffers went, and where
// the weights and graph inputs/outputs are.

import type { ModelPlan } from '../src/planner/plan';
import { counted, formatBytes } from '../src/shared/format';
import { unplacedWeightsWords } from '../src/planner/spill/weights-io';
import { ruleScratchTexts } from '../src/planner/explain/scratch-region-words';

/** "needs 1.2 MiB more ext-ram, or at least 1.2 MiB more sram", when the plan does not fit; every option at least so much when the plan's figures are lower estimates. */
export function needsLines(plan: ModelPlan, lowerEstimate: boolean): string[] {
  const needs = plan.fitNeeds ?? [];
  if (needs.length === 0) return [];
  const options = needs.map((n) => `${n.atLeast || lowerEstimate ? 'at least ' : ''}${formatBytes(n.bytes)} more ${n.region}`);
  return [`  to fit        needs ${options.join(', or ')}`];
}

/** Bytes moved per region and the spilled buffers explained (largest first). */
export function spillLines(plan: ModelPlan): string[] {
  const lines: string[] = [];
  const moved = plan.regions.filter((r) => r.moved !== undefined && r.moved.written + r.moved.read > 0);
  const weights = plan.storage?.weights;
  const withWeights = weights === undefined || weights.in === 'flash' ? '' : `; the weights read in ${weights.in}${weights.copied ? ' and copied there at start' : ''} included`;
  if (moved.length > 0) lines.push(`  moved         ${moved.map((r) => `${r.name} ${formatBytes(r.moved!.written)} written, ${formatBytes(r.moved!.read)} read`).join('; ')} (one inference${withWeights})`);
  const spill = plan.spill;
  if (spill === undefined) return lines;
  const search = spill.proven ? 'proven the most bytes moved in the fast region' : 'greedy by bytes moved per byte-step, search stopped by its work budget';
  const scratch = spill.movedScratch > 0 ? `; ${spill.movedScratch} scratch buffers larger than their region` : '';
  // nothing spilled: no choice was made, so there is no search to name
  const what = spill.spilledBuffers === 0 ? `nothing spilled: no buffer planned in ${spill.map[0] ?? 'the first region'} moved to a slower region` : `${counted(spill.spilledBuffers, 'buffer')} to ${spill.map.slice(1).join(', ')} (${search})`;
  // scratch a rule sends to a slow memory is not spilled, but its bytes are there: 'nothing spilled' alone hid them
  const byRule = ruleScratchTexts(plan).map((t) => `; ${t.text}`).join('');
  lines.push(`  spill         ${what}${scratch}${byRule}`);
  for (const s of plan.explanation.spilled ?? []) lines.push(`    ${formatBytes(s.size).padStart(10)}  ${s.name} -> ${s.region}: ${s.reason}`);
  return lines;
}

/** " (1.15 MiB of it weights)" for a region holding the model's weights. */
export function heldWeights(r: ModelPlan['regions'][number]): string {
  return (r.weights ?? 0) > 0 ? ` (${formatBytes(r.weights!)} of it weights)` : '';
}

/**
 * The weights line: their bytes, how many tensors, and where they are. Weights of unknown size (a custom op's output
 * over constants alone) are counted as 0 bytes, so the bytes are "at least" so many and the line says how many are
 * unknown.
 */
export function weightsLine(plan: ModelPlan): string {
  const unknown = plan.weights.unknownSizes ?? 0;
  const least = unknown > 0 ? 'at least ' : '';
  const left = unknown > 0 ? `${unknown} of unknown size, counted as 0 bytes; ` : '';
  return `  weights       ${least}${formatBytes(plan.weights.bytes)} in ${counted(plan.weights.tensors, 'tensor')} (${left}${weightsWhere(plan)})`;
}

/** Where the weights are: "in flash, outside every region" (on a host: outside the planned regions, loaded by the runtime), "in sram, copied from flash at start". */
function weightsWhere(plan: ModelPlan): string {
  const w = plan.storage?.weights;
  if (w === undefined) return 'own region, not planned';
  if (w.in === 'flash') return unplacedWeightsWords(w.home);
  const from = w.home === 'runtime' ? 'copied there at start' : 'copied from flash at start';
  return `in ${w.in} for the whole run${w.copied ? `, ${from}` : ''}, below the arena`;
}

/** Who holds the graph inputs and outputs, and the bytes the arena gives them. */
export function ioLines(plan: ModelPlan): string[] {
  const io = plan.storage?.io;
  if (io === undefined) return [];
  const where = io.owner === 'application'
    ? `owned by the application${io.inArena > 0 ? `; ${formatBytes(io.inArena)} share memory with activations and stay in the arena` : ', outside the arena'}`
    : 'in the arena';
  // the regions' figure is what the inputs and outputs take as placed (each rounded up to its region's alignment); said
  // beside the total it qualifies, before the KV cache's share, and only where it reads apart from the data's figure
  const placed = plan.regions.reduce((sum, r) => sum + (r.io ?? 0), 0);
  const aligned = placed > io.bytes && formatBytes(placed) !== formatBytes(io.bytes) ? ` (${formatBytes(placed)} as placed, with alignment)` : '';
  // a total over the run (inputs and outputs need not be live at once), and a KV cache's share of it, counted apart elsewhere
  const kv = (io.kvBytes ?? 0) > 0 ? `, ${formatBytes(io.kvBytes)} of it KV cache` : '';
  // inputs and outputs of unknown size are planned as 0 bytes: the total is of the sizes known
  const unknown = io.unknownSizes ?? 0;
  const least = unknown > 0 ? 'at least ' : '';
  const left = unknown > 0 ? ` (${unknown} of unknown size, planned as 0 bytes)` : '';
  return [`  graph I/O     ${least}${formatBytes(io.bytes)} of data in inputs and outputs in all over the run${aligned}${kv}${left}, ${where}`];
}

/** Whether region `name` holds a graph input or output of unknown size (planned as 0 bytes): its graph I/O figure is then a lower estimate. */
export function ioOfUnknownSize(plan: ModelPlan, name: string): boolean {
  if ((plan.storage?.io.unknownSizes ?? 0) === 0 || plan.storage?.io.owner === 'application') return false;
  return plan.buffers.some((b) => b.unknownSize === true && (b.kind === 'input' || b.kind === 'output') && b.region === name);
}
