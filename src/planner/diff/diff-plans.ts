// diffPlans: why plan B is bigger (or smaller) than plan A. Matches buffers
// (match-buffers.ts), marks each grown, shrunk, new, gone, moved or same, and
// splits the peak delta into causes ranked by bytes (peak-causes.ts).
// Depends only on the planner's plan and plan file types.
//
// The causes account for the delta exactly: per region, peak = bytes the live
// buffers cover at the peak step + the holes and padding under the peak there;
// every byte of the covered change is put down to one buffer's cause, and the
// holes-and-padding change to placement (or to the strategy or target when
// they differ). A plan's peak is the sum of its region peaks, so the causes
// sum to the delta.

import { assert } from '../../shared/assert';
import { formatBytes } from '../../shared/format';
import type { PlannedBuffer } from '../plan';
import type { PlanFile } from '../plan-file';
import { changedDims, dimScalings } from './dim-growth';
import type { BufferChange, BufferStatus, Cause, DimChange, PlanDiff, RegionDelta } from './diff-types';
import { matchBuffers, type BufferMatch } from './match-buffers';
import { peakCauses, type CauseDraft, type PeakStates } from './peak-causes';

export type { BufferChange, BufferStatus, Cause, CauseKind, DimChange, PlanDiff, RegionDelta } from './diff-types';

/** Compares plan A with plan B; see the module header. */
export function diffPlans(a: PlanFile, b: PlanFile): PlanDiff {
  const match = matchBuffers(a, b);
  const dims = changedDims(a.settings.dims, b.settings.dims);
  const { drafts, states } = peakCauses({ a, b, match, dims, scalings: dimScalings(dims) });
  const regions = regionDeltas(a, b);
  const delta = b.plan.peak - a.plan.peak;
  const causes = [...drafts.values()]
    .filter((d) => d.bytes !== 0)
    .map((d) => toCause(d, { a, b, dims, states }))
    .sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes) || x.summary.localeCompare(y.summary));
  const explained = regions.reduce((s, r) => s + r.delta, 0);
  assert(causes.reduce((s, c) => s + c.bytes, 0) === explained, 'the causes sum to the region peak deltas');
  return {
    peakA: a.plan.peak,
    peakB: b.plan.peak,
    delta,
    regions,
    dims,
    strategyA: a.plan.strategy,
    strategyB: b.plan.strategy,
    targetA: a.settings.target,
    targetB: b.settings.target,
    buffers: bufferChanges(a, b, match),
    causes,
  };
}

function regionDeltas(a: PlanFile, b: PlanFile): RegionDelta[] {
  const names = [...new Set([...a.plan.regions.map((r) => r.name), ...b.plan.regions.map((r) => r.name)])];
  return names.map((name) => {
    const peakA = a.plan.regions.find((r) => r.name === name)?.peak ?? 0;
    const peakB = b.plan.regions.find((r) => r.name === name)?.peak ?? 0;
    return { name, peakA, peakB, delta: peakB - peakA };
  });
}

/** Every buffer of A and B: matched pairs in B's order, then A's unmatched buffers. */
function bufferChanges(a: PlanFile, b: PlanFile, match: BufferMatch): BufferChange[] {
  const out: BufferChange[] = b.plan.buffers.map((bufB, j) => {
    const i = match.bToA[j];
    const bufA = i === undefined ? undefined : a.plan.buffers[i];
    const sideB = { nameB: bufB.name, idB: bufB.id, sizeB: bufB.size, offsetB: bufB.offset, regionB: bufB.region };
    const node = bufB.node ?? bufA?.node;
    if (bufA === undefined) return { status: 'new', ...sideB, ...(node !== undefined && { node }) };
    const sideA = { nameA: bufA.name, idA: bufA.id, sizeA: bufA.size, offsetA: bufA.offset, regionA: bufA.region };
    const matchedBy = match.byProducer.has(j) ? 'producer' : 'name';
    return { status: pairStatus(bufA, bufB), ...sideA, ...sideB, ...(node !== undefined && { node }), matchedBy };
  });
  a.plan.buffers.forEach((bufA, i) => {
    if (match.aToB[i] !== undefined) return;
    out.push({ status: 'gone', nameA: bufA.name, idA: bufA.id, sizeA: bufA.size, offsetA: bufA.offset, regionA: bufA.region, ...(bufA.node !== undefined && { node: bufA.node }) });
  });
  return out;
}

function pairStatus(bufA: PlannedBuffer, bufB: PlannedBuffer): BufferStatus {
  if (bufB.size > bufA.size) return 'grown';
  if (bufB.size < bufA.size) return 'shrunk';
  return bufA.offset !== bufB.offset || bufA.region !== bufB.region ? 'moved' : 'same';
}

interface SummaryContext {
  readonly a: PlanFile;
  readonly b: PlanFile;
  readonly dims: readonly DimChange[];
  readonly states: PeakStates;
}

function toCause(d: CauseDraft, ctx: SummaryContext): Cause {
  return {
    kind: d.kind,
    bytes: d.bytes,
    summary: summaryOf(d, ctx),
    buffers: [...d.buffers],
    idsA: [...d.idsA],
    idsB: [...d.idsB],
    nodes: [...d.nodes],
    ...(d.dim !== undefined && { dim: d.dim }),
    ...(d.unit !== undefined && { unit: d.unit }),
    regions: [...d.regions],
  };
}

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '-' : ''}${formatBytes(Math.abs(n))}`;

/** Up to three names, quoted, then how many more. */
function list(names: ReadonlySet<string>): string {
  const all = [...names];
  const shown = all.slice(0, 3).map((n) => `'${n}'`).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} more` : shown;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryOf(d: CauseDraft, ctx: SummaryContext): string {
  const n = d.buffers.size;
  switch (d.kind) {
    case 'dim-changed':
      return `${dimText(d.dim!, ctx.dims)}: ${count(n, 'buffer')} live at the peak ${d.bytes > 0 ? 'grew' : 'shrank'} (${list(d.buffers)}), ${signed(d.bytes)}`;
    case 'tensor-grew':
    case 'tensor-shrunk': {
      const why = ctx.a.settings.target === ctx.b.settings.target ? '' : ` with the target ${ctx.a.settings.target} → ${ctx.b.settings.target}`;
      return `tensor ${list(d.buffers)}${opText(ctx.b, d.nodes)} ${d.bytes > 0 ? 'grew' : 'shrank'} from ${formatBytes(d.sizes[0])} to ${formatBytes(d.sizes[1])}${why} at the peak, ${signed(d.bytes)}`;
    }
    case 'new-buffer-at-peak':
      return `${newBufferText(d, ctx)} ${list(d.buffers)}, live at the peak, ${signed(d.bytes)}`;
    case 'buffer-gone':
      return `${goneText(d, ctx)} ${list(d.buffers)} no longer at the peak, ${signed(d.bytes)}`;
    case 'fusion-removed':
      return `fusion unit '${d.unit}' keeps ${count(n, 'tensor')} on chip (${list(d.buffers)}): ${signed(d.bytes)} at the peak (regions ${[...d.regions].join(', ')})`;
    case 'fusion-undone':
      return `fusion unit '${d.unit}' of A is not in B: ${count(n, 'tensor')} (${list(d.buffers)}) are back at the peak, ${signed(d.bytes)}`;
    case 'region-moved':
      return `${count(n, 'buffer')} moved from region ${d.move?.[0]} to ${d.move?.[1]} (${list(d.buffers)}), ${signed(d.bytes)}`;
    case 'peak-moved':
      return peakMovedText(d, ctx);
    default:
      return placementText(d, ctx);
  }
}

/** "new op Relu 'r'" when A has no such node, else "Conv 'c' has the new buffer(s)". */
function newBufferText(d: CauseDraft, ctx: SummaryContext): string {
  if (d.nodes.size === 0) return `new ${d.buffers.size === 1 ? 'buffer' : 'buffers'}`;
  const known = [...d.nodes].every((node) => ctx.a.nodes.some((x) => x.name === node) || ctx.a.plan.steps.some((x) => x.node === node));
  return known ? `${opText(ctx.b, d.nodes).trim()} has the new ${d.buffers.size === 1 ? 'buffer' : 'buffers'}` : `new op${opText(ctx.b, d.nodes)} adds`;
}

/** "op Relu 'r' is gone, and with it" when B has no such node, else "Conv 'c' has". */
function goneText(d: CauseDraft, ctx: SummaryContext): string {
  if (d.nodes.size === 0) return d.buffers.size === 1 ? 'buffer' : 'buffers';
  const kept = [...d.nodes].every((node) => ctx.b.nodes.some((x) => x.name === node) || ctx.b.plan.steps.some((x) => x.node === node));
  return kept ? `${opText(ctx.a, d.nodes).trim()} has` : `op${opText(ctx.a, d.nodes)} is gone, and with it`;
}

function dimText(label: string, dims: readonly DimChange[]): string {
  const names = new Set(label.split(/ or |×/).map((part) => part.replace('²', '')));
  const values = dims.filter((c) => names.has(c.name));
  return `dim ${label} changed (${values.map((c) => `${c.name} ${c.a} → ${c.b}`).join(', ')})`;
}

/** " (Conv 'c1')" for one node, " (3 nodes)" for more. */
function opText(file: PlanFile, nodes: ReadonlySet<string>): string {
  if (nodes.size === 0) return '';
  if (nodes.size > 1) return ` (${nodes.size} nodes: ${list(nodes)})`;
  const name = [...nodes][0]!;
  const op = file.nodes.find((n) => n.name === name)?.opType ?? file.plan.steps.find((s) => s.node === name)?.opType;
  return ` ${op ?? 'op'} '${name}'`;
}

function stepText(file: PlanFile, step: number | undefined): string {
  if (step === undefined) return 'no step';
  const info = file.plan.steps[step];
  return info === undefined ? `step ${step}` : `step ${step} (${info.opType} '${info.node}')`;
}

function peakMovedText(d: CauseDraft, ctx: SummaryContext): string {
  const region = [...d.regions][0]!;
  const from = stepText(ctx.a, ctx.states.a.get(region)?.step);
  const to = stepText(ctx.b, ctx.states.b.get(region)?.step);
  return `the peak of region ${region} moved from ${from} to ${to}: ${count(d.buffers.size, 'buffer')} live at one peak and not the other (${list(d.buffers)}), ${signed(d.bytes)}`;
}

function placementText(d: CauseDraft, ctx: SummaryContext): string {
  const regions = [...d.regions];
  const gaps = regions.map((r) => `${r} ${formatBytes(ctx.states.a.get(r)?.gap ?? 0)} → ${formatBytes(ctx.states.b.get(r)?.gap ?? 0)}`).join(', ');
  const holes = `holes and padding at the peak (${gaps})`;
  if (d.kind === 'strategy-changed') return `strategy ${ctx.a.plan.strategy} → ${ctx.b.plan.strategy} changed the ${holes}, ${signed(d.bytes)}`;
  if (d.kind === 'target-changed') return `target ${ctx.a.settings.target} → ${ctx.b.settings.target} changed the ${holes}, ${signed(d.bytes)}`;
  return `placement got ${d.bytes > 0 ? 'worse' : 'better'}: ${holes}, ${signed(d.bytes)}`;
}
