// The text lines of a runtime plan (TensorFlow Lite Micro): the runtime's own
// head, heapscope's head as the runtime reaches it, the tail and the arena to declare.

import type { ModelPlan } from '../src/planner/plan';
import { formatBytes, formatBytesExact, formatCount } from '../src/shared/format';

const bytes = formatBytesExact;

/** Lines for `plan` text output; none without a runtime plan. */
export function runtimeLines(plan: ModelPlan): string[] {
  const r = plan.runtimePlan;
  if (r === undefined) return [];
  const lines = ['  TensorFlow Lite Micro (32-bit build):'];
  const file = r.filePlan;
  if (file !== undefined) {
    const check = file.valid
      ? 'valid'
      : file.insideCustomOp !== undefined
        ? `it overlaps tensors of the custom operator ${file.insideCustomOp}, which may use them one after another; heapscope cannot check that: ${file.problem ?? ''}`
        : `NOT valid by TFLite Micro's lifetimes: ${file.problem ?? ''}`;
    lines.push(`    file's plan   head ${bytes(r.head)} with the file's offline plan (${check})`);
    lines.push(`    TFLM greedy   head ${bytes(r.greedyHead)} (its own planner, without the offline plan)`);
  } else {
    lines.push(`    TFLM's plan   head ${bytes(r.head)} (GreedyMemoryPlanner, reproduced)`);
  }
  const p = r.planned;
  const change = p.saving > 0 ? `${formatBytes(p.saving)} smaller (${p.savingPercent.toFixed(1)} %)` : p.saving === 0 ? 'no smaller' : `${formatBytes(-p.saving)} LARGER`;
  lines.push(`    heapscope     head ${bytes(p.head)}, ${change}, written as an offline plan (from ${p.source}; --save-tflite)`);
  lines.push(`    tail          ${bytes(r.tail)}${r.tailEstimated ? ', an estimate: ' + r.tailParts.filter((t) => t.estimated).map((t) => t.what).join(', ') + ' are estimated' : ''}`);
  for (const t of r.tailParts) lines.push(`      ${t.what.padEnd(20)} ${formatCount(t.bytes).padStart(9)} B${t.estimated ? ' (estimate)' : ''}  ${t.rule}`);
  // a kernel whose scratch requests are not known is planned with none: the arena it needs can only be larger
  const least = (plan.assumptions.kernels ?? []).length > 0 ? '≥ ' : '';
  // the arena is the head on top of the tail: where the tail has estimated parts, so has the arena
  const estimate = r.tailEstimated ? "; an estimate, resting on the tail's estimated parts" : '';
  if (r.refused !== undefined && r.refused.length > 0) {
    // no arena makes AllocateTensors() succeed: the figures are of what TFLM would plan, were the model accepted
    lines.push(`    arena         NONE works: TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena (why: 'refused' below);`);
    lines.push(`                  were it accepted: declare ${least}${bytes(r.arena)} as it is, ${least}${bytes(p.arena)} with heapscope's plan${estimate}`);
  } else {
    lines.push(`    arena         declare ${least}${bytes(r.arena)} as it is, ${least}${bytes(p.arena)} with heapscope's plan${estimate}`);
  }
  lines.push(`                  (${r.arenaReason})`);
  for (const why of r.refused ?? []) lines.push(`    refused       ${why}`);
  // the arena rests on offsets heapscope's own lifetimes call overlapping (Vela's, inside its custom operator): the peak and
  // lower bound above are of those buffers placed apart, so the two figures are said together, never one without the other
  if (file !== undefined && !file.valid && p.source === "the file's own offline plan") {
    lines.push(`    warning       this arena and the header's ARENA_SIZE rest on the file's offline plan, which heapscope cannot check (${file.problem ?? 'tensors live at once share bytes'}); placed apart, as the peak above, they need ${bytes(plan.peak)}`);
  }
  for (const note of [...r.notes, ...(r.assumes ?? [])]) lines.push(`    assumes       ${note}`);
  return lines;
}
