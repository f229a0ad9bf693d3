// The sentences of the causes of a plan diff: each names its largest buffers
// by name with their sizes before and after (largest change first; "and N
// more" only ever hides smaller ones), agrees in number, and says which way
// the peak moved in words that match the sign. Depends only on the diff types.

import { formatBytes, MINUS } from '../../shared/format';
import type { PlanFile } from '../assembly/plan-file';
import type { BufferStatus, Cause, DimChange, InputChange, RegionDelta } from './diff-types';
import { labelNames, setDimsOf } from './dim-follows';
import { inputChangeText } from './input-changes';
import type { CauseDraft, PeakStates } from './peak-causes';
import { targetLabels } from './side-labels';
import { targetFieldChanges } from './target-fields';

/** Buffers named in a cause's sentence before "and N more". */
export const NAMED_BUFFERS = 3;

/** What a sentence reads besides its cause. */
export interface SummaryContext {
  readonly a: PlanFile;
  readonly b: PlanFile;
  readonly dims: readonly DimChange[];
  readonly inputs: readonly InputChange[];
  readonly states: PeakStates;
  readonly resized?: ReadonlyMap<string, ReadonlyMap<BufferStatus, number>>; // of the buffers that changed region, by `from>to`, those whose size changed too, by status
}

/** The cause record of a summed draft, with its sentence. */
export function toCause(d: CauseDraft, ctx: SummaryContext): Cause {
  const setDims = d.dim === undefined ? undefined : setDimsOf(d.dim, ctx.dims);
  const fields = d.kind === 'target-changed' ? targetFieldChanges(ctx.a, ctx.b) : undefined;
  return {
    kind: d.kind,
    bytes: d.bytes,
    summary: withPeakMoves(summaryOf(d, ctx), d, ctx),
    buffers: byChange(d).map(([name]) => name),
    idsA: [...d.idsA],
    idsB: [...d.idsB],
    nodes: [...d.nodes],
    ...(d.dim !== undefined && { dim: d.dim }),
    ...(setDims !== undefined && { setDims }),
    ...(d.inputs !== undefined && { inputs: d.inputs }),
    ...(d.unit !== undefined && { unit: d.unit }),
    ...(d.side !== undefined && { side: d.side }),
    regions: [...d.regions],
    ...(fields !== undefined && { title: fields.join(', ') }),
  };
}

/**
 * The one cause of a comparison of two different models: "A and B are
 * different models (a.onnx, b.onnx): …". Their tensors are no versions of
 * one another, so none is said to have grown; empty when the peaks agree.
 */
export function modelsDifferCauses(a: PlanFile, b: PlanFile, regions: readonly RegionDelta[], sharedNames: number): Cause[] {
  // the one cause even when the peaks are equal: two models needing the same memory is no plan of one model unchanged
  const bytes = regions.reduce((s, r) => s + r.delta, 0);
  const fileName = (path: string) => path.split(/[\\/]/).pop() || path;
  const shared = `${sharedNames === 0 ? 'no' : sharedNames} tensor ${sharedNames === 1 ? 'name' : 'names'} in common, little op order`;
  const summary = `A and B are different models (${fileName(a.model)}, ${fileName(b.model)}: ${shared}): buffers are matched by name only; ${bytes === 0 ? peakWay(bytes) : `${peakWay(bytes)}, ${signed(bytes)}`}`;
  return [{ kind: 'models-differ', bytes, summary, buffers: [], idsA: [], idsB: [], nodes: [], regions: regions.filter((r) => r.delta !== 0).map((r) => r.name) }];
}

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? MINUS : ''}${formatBytes(Math.abs(n))}`;

/** Up to three names, quoted, then how many more. */
function list(names: ReadonlySet<string>): string {
  const all = [...names];
  const shown = all.slice(0, NAMED_BUFFERS).map((n) => `'${n}'`).join(', ');
  return all.length > NAMED_BUFFERS ? `${shown} and ${all.length - NAMED_BUFFERS} more` : shown;
}

/**
 * A buffer's sizes in A and B as a cause names them: a pair whose padding
 * alone changed (another alignment) at its size in A twice, outside the
 * alignment's own cause, which counts that change: it neither grew nor shrank.
 */
function sizesOf(d: CauseDraft, name: string): [number, number] {
  const [a, b] = d.sizeOf.get(name) ?? [0, 0];
  return d.kind !== 'alignment-changed' && d.alignedOf.has(name) ? [a, a] : [a, b];
}

/** A cause's buffers with their sizes in A and B (sizesOf), largest size change first (then largest size, then name). */
function byChange(d: CauseDraft): [string, number, number][] {
  return [...d.buffers]
    .map((name): [string, number, number] => [name, ...sizesOf(d, name)])
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]) || Math.max(y[1], y[2]) - Math.max(x[1], x[2]) || x[0].localeCompare(y[0]));
}

/**
 * "'logits' 31 KiB → 1000 KiB, 'present_0' 8 KiB → 256 KiB and 4 more": the
 * largest changes by name. "none" only on the side a buffer is missing from
 * (A for a new buffer, B for a gone one); a tensor both plans hold with no
 * bytes on one side (an empty past cache) reads "0 B", so a tensor that grew
 * is not mistaken for a new one.
 */
function sizedList(d: CauseDraft): string {
  const all = byChange(d);
  const unknownOn = d.kind === 'size-unknown' ? d.side : undefined;
  const sizeA = (n: number) => (unknownOn === 'a' ? 'unknown' : n === 0 && d.kind === 'new-buffer-at-peak' ? 'none' : formatBytes(n));
  const sizeB = (n: number) => (unknownOn === 'b' ? 'unknown' : n === 0 && d.kind === 'buffer-gone' ? 'none' : formatBytes(n));
  const shown = all.slice(0, NAMED_BUFFERS).map(([name, a, b]) => `${a === b ? `'${name}' ${sizeA(a)}` : `'${name}' ${sizeA(a)} → ${sizeB(b)}`}${givenText(d, name)}${alignedText(d, name)}`);
  const text = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
  return all.length > NAMED_BUFFERS ? `${shown.join(', ')} and ${all.length - NAMED_BUFFERS} smaller` : text;
}

/** " (alignment 64 → 16)" for a pair named at one size whose padding changed with the alignment (sizesOf), as the alignment's cause words it. */
function alignedText(d: CauseDraft, name: string): string {
  const aligned = d.kind === 'alignment-changed' ? undefined : d.alignedOf.get(name);
  return aligned === undefined ? '' : ` (alignment ${aligned[0]} → ${aligned[1]})`;
}

/** " (given 7.30 MiB of free space in B)" for a scratch buffer whose size there is what it asks and not the free space it was given. */
function givenText(d: CauseDraft, name: string): string {
  const [a, b] = d.givenOf.get(name) ?? [undefined, undefined];
  const sides = [...(a === undefined ? [] : [`${formatBytes(a)} in A`]), ...(b === undefined ? [] : [`${formatBytes(b)} in B`])];
  return sides.length === 0 ? '' : ` (given ${sides.join(', ')} of free space)`;
}

/** "spill off → spill on: " when the target's settings differ (the move is theirs), else nothing. */
function settingChange(ctx: SummaryContext): string {
  const labels = targetChange(ctx);
  return labels === undefined ? '' : `${labels[0]} → ${labels[1]}: `;
}

/** What differs between the two targets, the facts both share (the preset's name) left out; undefined when nothing does. */
function targetChange(ctx: SummaryContext): [string, string] | undefined {
  const labels = targetLabels(ctx.a, ctx.b);
  if (labels === undefined) return undefined;
  const [a, b] = labels.map((l) => l.split(' · ')) as [string[], string[]];
  let same = 0;
  while (same < a.length - 1 && same < b.length - 1 && a[same] === b[same]) same++;
  return [a.slice(same).join(' · '), b.slice(same).join(' · ')];
}

/** ": sram −4.69 MiB, ext-ram +4.69 MiB at their peaks" for a cause that changed more than one region's peak. */
function regionShares(d: CauseDraft): string {
  const shares = [...d.byRegion].filter(([, bytes]) => bytes !== 0);
  if (shares.length < 2) return '';
  return `: ${shares.map(([region, bytes]) => `${region} ${signed(bytes)}`).join(', ')} at their peaks`;
}

/**
 * `text` with the regions whose peak the cause moved to another step named
 * before its closing figure: "…; the peak falls by 551 KiB (the peak of
 * region dram moved from step 62 (Conv 'Conv_62') to step 2 (MaxPool
 * 'MaxPool_2')), −551 KiB", its share in that region being the new peak less
 * the old one.
 */
function withPeakMoves(text: string, d: CauseDraft, ctx: SummaryContext): string {
  if (d.peakMovedIn === undefined) return text;
  const moves = [...d.peakMovedIn].map((r) => `the peak of region ${r} moved from ${stepText(ctx.a, ctx.states.a.get(r)?.step)} to ${stepText(ctx.b, ctx.states.b.get(r)?.step)}`);
  const end = `, ${signed(d.bytes)}`;
  const note = ` (${moves.join('; ')})`;
  return text.endsWith(end) ? `${text.slice(0, -end.length)}${note}${end}` : `${text}${note}`;
}

/** "the peak grows by 1 MiB" or "the peak falls by 1 MiB". */
function peakWay(bytes: number): string {
  return bytes === 0 ? 'the peak is the same' : `the peak ${bytes > 0 ? 'grows' : 'falls'} by ${formatBytes(Math.abs(bytes))}`;
}


const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryOf(d: CauseDraft, ctx: SummaryContext): string {
  const n = d.buffers.size;
  switch (d.kind) {
    case 'dim-changed':
      return `${dimText(d.dim!, ctx.dims)}: ${count(n, 'buffer')} live at the peak ${d.bytes > 0 ? 'grew' : 'shrank'} (${sizedList(d)}), ${signed(d.bytes)}`;
    case 'input-changed':
      return `${inputChangeText(ctx.inputs)}: ${count(n, 'buffer')} live at the peak ${d.bytes > 0 ? 'grew' : 'shrank'} (${sizedList(d)}), ${signed(d.bytes)}`;
    case 'tensor-grew':
    case 'tensor-shrunk': {
      const why = ctx.a.settings.target === ctx.b.settings.target ? '' : ` with the target ${ctx.a.settings.target} → ${ctx.b.settings.target}`;
      return `${n === 1 ? 'tensor' : 'tensors'} ${sizedList(d)}${opText(ctx.b, d.nodes)} ${d.bytes > 0 ? 'grew' : 'shrank'}${why} at the peak, ${signed(d.bytes)}`;
    }
    case 'alignment-changed':
      return alignmentText(d, ctx);
    case 'new-buffer-at-peak':
      return `${newBufferText(d, ctx)} ${sizedList(d)}, live at the peak, ${signed(d.bytes)}`;
    case 'buffer-gone':
      return `${goneText(d, ctx)} ${sizedList(d)} no longer at the peak, ${signed(d.bytes)}`;
    case 'fusion-added':
      return `fusion unit '${d.unit}' of B tiles ${count(n, 'tensor')} on chip (moved on chip: ${sizedList(d)})${regionShares(d)}; ${peakWay(d.bytes)} (regions ${[...d.regions].join(', ')}), ${signed(d.bytes)}`;
    case 'fusion-undone':
      return `fusion unit '${d.unit}' of A is not in B: ${count(n, 'tensor')} it tiled on chip ${n === 1 ? 'moves' : 'move'} off chip (${sizedList(d)})${regionShares(d)}; ${peakWay(d.bytes)}, ${signed(d.bytes)}`;
    case 'region-moved':
      return `${settingChange(ctx)}${movedText(d, ctx)} (${sizedList(d)})${regionShares(d)}, ${d.bytes === 0 ? '±0 B in all' : signed(d.bytes)}`;
    case 'peak-moved':
      return peakMovedText(d, ctx);
    case 'lifetime-changed':
      return lifetimeText(d, ctx);
    case 'size-unknown': {
      const side = d.side === 'a' ? 'A' : 'B';
      return `size unknown in ${side} for ${count(n, 'tensor')} (${sizedList(d)}), planned there as 0 B: ${side}'s peak is a lower estimate, ${signed(d.bytes)}`;
    }
    default:
      return placementText(d, ctx);
  }
}

/**
 * "tensor 'attention_mask' 320 B → 272 B at the peak: alignment 64 → 16
 * bytes with the target cpu → mcu, the tensor itself 260 B on both sides,
 * −48 B": what changed is the padding the target rounds it up with, not the tensor
 * (or the scratch buffer, so named).
 */
function alignmentText(d: CauseDraft, ctx: SummaryContext): string {
  const n = d.buffers.size;
  const [from, to] = d.alignments ?? [0, 0];
  const why = ctx.a.settings.target === ctx.b.settings.target ? '' : ` with the target ${ctx.a.settings.target} → ${ctx.b.settings.target}`;
  const inB = ctx.b.plan.buffers.filter((x) => d.idsB.has(x.id));
  const scratch = inB.filter((x) => x.kind === 'scratch').length;
  const noun = scratch === 0 ? 'tensor' : scratch === inB.length ? 'scratch buffer' : 'buffer';
  const only = n === 1 ? inB[0] : undefined;
  const itself = only !== undefined ? `the ${noun} itself ${formatBytes(only.scratch?.bytes ?? only.bytes)} on both sides` : `the ${noun}s themselves the same size on both sides`;
  const what = n === 1 ? `${noun} ${sizedList(d)} at the peak` : `${count(n, noun)} live at the peak (${sizedList(d)})`;
  return `${what}: alignment ${from} → ${to} ${to === 1 ? 'byte' : 'bytes'}${why}, ${itself}, ${signed(d.bytes)}`;
}

/**
 * "32 buffers moved from region arena to ram, 2 of them live at the peak":
 * every buffer that moved between the two regions is counted, the few named
 * being those at a peak; "2 buffers moved …" when they are all there. Those
 * whose size changed too are counted apart, "(56 of them as they were, 7
 * grew too)", so the first figure is the buffer list's "moved between
 * regions" (a buffer is listed once, as grown when it grew and moved).
 */
function movedText(d: CauseDraft, ctx: SummaryContext): string {
  const n = d.buffers.size;
  const all = Math.max(d.movedInAll ?? n, n);
  const resized = ctx.resized?.get(`${d.move?.[0]}>${d.move?.[1]}`) ?? new Map<BufferStatus, number>();
  const changed = [...resized.values()].reduce((s, k) => s + k, 0);
  const words: Partial<Record<BufferStatus, string>> = { grown: 'grew', shrunk: 'shrank', unknown: 'of unknown size on a side' };
  const parts = (['grown', 'shrunk', 'unknown'] as const).filter((k) => resized.has(k)).map((k) => `${resized.get(k)} ${words[k]}`);
  const split = changed === 0 ? '' : changed >= all ? ` (${parts.join(' and ')} too)` : ` (${all - changed} of them as they were, ${parts.join(' and ')} too)`;
  const moved = `${count(all, 'buffer')} moved from region ${d.move?.[0]} to ${d.move?.[1]}${split}`;
  return all === n ? moved : `${moved}, ${n} of them live at the peak`;
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

/** The dims a label of dim-growth names ('seq', 'batch×seq', 'seq²', 'a or b'). */
/**
 * "dim seq changed (seq 8 → 16)"; the other dims that changed are named too.
 * A total length the user did not give is named as the consequence of the
 * dims it follows, which lead: "dim past_seq_len changed (past_seq_len 0 →
 * 256, and with it total_seq_len 128 → 384)".
 */
function dimText(label: string, dims: readonly DimChange[]): string {
  const change = (c: DimChange) => `${c.name} ${c.a ?? 'unset'} → ${c.b ?? 'unset'}`;
  const set = setDimsOf(label, dims);
  const names = new Set(set ?? labelNames(label));
  // a total that follows only the dims named changed with them, whichever the label names (a buffer empty on one side is put down to its parts)
  const followers = dims.filter((c) => !names.has(c.name) && c.follows !== undefined && (labelNames(label).includes(c.name) || c.follows.every((f) => names.has(f))));
  const others = dims.filter((c) => !names.has(c.name) && !followers.includes(c));
  const also = others.length === 0 ? '' : `; also changed: ${others.map(change).join(', ')}`;
  const withIt = followers.length === 0 ? '' : `, and with ${names.size === 1 ? 'it' : 'them'} ${followers.map(change).join(', ')}`;
  const lead = set === undefined ? label : set.join(', ');
  return `dim ${lead} changed (${dims.filter((c) => names.has(c.name)).map(change).join(', ')}${withIt}${also})`;
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
  return `the peak of region ${region} moved from ${from} to ${to}: ${count(d.buffers.size, 'buffer')} live at one peak and not the other (${sizedList(d)}), ${signed(d.bytes)}`;
}

function lifetimeText(d: CauseDraft, ctx: SummaryContext): string {
  const region = [...d.regions][0]!;
  const at = stepText(ctx.b, ctx.states.b.get(region)?.step);
  const live = d.bytes > 0 ? 'live there in B and not in A' : 'live there in A and not in B';
  return `the peak of region ${region} is at ${at} in both plans; ${count(d.buffers.size, 'buffer')} ${live}: ${d.buffers.size === 1 ? 'its lifetime changed' : 'their lifetimes changed'} (${sizedList(d)}), ${signed(d.bytes)}`;
}

function placementText(d: CauseDraft, ctx: SummaryContext): string {
  const regions = [...d.regions];
  const gaps = regions.map((r) => `${r} ${formatBytes(ctx.states.a.get(r)?.gap ?? 0)} → ${formatBytes(ctx.states.b.get(r)?.gap ?? 0)}`).join(', ');
  const holes = `holes and padding at the peak (${gaps})`;
  if (d.kind === 'strategy-changed') return `strategy ${ctx.a.plan.strategy} → ${ctx.b.plan.strategy} changed the ${holes}, ${signed(d.bytes)}`;
  if (d.kind === 'target-changed') {
    const fields = targetFieldChanges(ctx.a, ctx.b);
    if (fields !== undefined) return `${fields.join(', ')} and with it the ${holes}, ${signed(d.bytes)}`;
    const [la, lb] = targetLabels(ctx.a, ctx.b) ?? [ctx.a.plan.target, ctx.b.plan.target];
    return `target ${la} → ${lb} changed the ${holes}, ${signed(d.bytes)}`;
  }
  return `placement got ${d.bytes > 0 ? 'worse' : 'better'}: ${holes}, ${signed(d.bytes)}`;
}
