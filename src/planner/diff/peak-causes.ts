// Splits the peak change of two plans into causes that sum to it exactly.
// Depends only on the plan file types and the diff helpers.
//
// - Per region, peak = occupied + gap: `occupied` is the union of the live
//   buffers' address ranges at the region's peak step, `gap` the holes and
//   padding under the peak at that step. So peakB - peakA is, per region,
//   (occupiedB - occupiedA) + (gapB - gapA).
// - The gap change is placement (or the strategy or target, when they differ).
// - The occupied change is split by buffer, each buffer contributing the bytes
//   it alone covers (see occupancy.ts): a pair live at both peaks contributes
//   its size change (put down to the alignment when its tensor holds the same
//   bytes on both sides, to a changed dim when the ratio matches one); a
//   buffer at one peak only contributes +B or -A, put down to a fusion unit
//   whose nodes produce it, to a new or removed op, to a move between
//   regions, to a size unknown on the side where it is 0 B, or to the peak
//   moving to another step (at the same step: to the lifetime changing; a
//   pair whose size changed splits its share into the growth and the rest).
// - A region whose peak moved to another step because of another cause (the
//   tensors a fusion unit of A tiled on chip now make the peak of dram) has
//   its old peak's buffers, no longer the peak, put down to that cause: the
//   region grew by the new peak less the old one, not by the new peak while
//   a "peak moved" cause says it fell (foldPeakMoves).

import type { ModelPlan, PlannedBuffer } from '../plan-types';
import type { PlanFile } from '../assembly/plan-file';
import { emptyGrowthDims, growthDims } from './dim-growth';
import { setDimsOf } from './dim-follows';
import type { CauseKind, DimChange, InputChange } from './diff-types';
import { targetLabels } from './side-labels';
import type { BufferMatch } from './match-buffers';
import { regionsAtPeak, type RegionAtPeak } from './occupancy';
import { heldBytes } from '../assembly/plan-records';
import { paddingChange } from './padding-change';

/** A cause while it is being summed: the bytes and what it involves. */
export interface CauseDraft {
  kind: CauseKind;
  bytes: number;
  readonly buffers: Set<string>;
  readonly nodes: Set<string>;
  readonly regions: Set<string>;
  readonly byRegion: Map<string, number>; // its bytes by region: a move between regions can take from one what it adds to the other
  readonly idsA: Set<number>;
  readonly idsB: Set<number>;
  readonly dim?: string;
  readonly inputs?: readonly string[]; // input-changed: the tensors whose given shape or value changed
  readonly unit?: string;
  readonly side?: 'a' | 'b'; // size-unknown: the plan where the sizes are unknown
  readonly move?: readonly [string, string]; // region-moved: from and to
  readonly alignments?: readonly [number, number]; // alignment-changed: the alignment in A and in B
  movedInAll?: number; // region-moved: every matched buffer that moved from and to these regions, live at a peak or not
  peakMovedIn?: Set<string>; // regions whose peak this cause moved to another step (their old peak's share is in its bytes)
  readonly sizes: [number, number]; // sizes before and after of the buffers involved
  readonly sizeOf: Map<string, [number, number]>; // each buffer's size in A and in B (0 on a side without it), by name; a scratch buffer given free space: what it asks
  readonly givenOf: Map<string, [number | undefined, number | undefined]>; // a scratch buffer given more free space than it asks: what it was given in A and in B
  readonly alignedOf: Map<string, readonly [number, number]>; // a pair whose size changed by alignment padding alone (its data the same): the alignment in A and in B
}

/** Everything the causes are computed from. */
export interface CauseInput {
  readonly a: PlanFile;
  readonly b: PlanFile;
  readonly match: BufferMatch;
  readonly scalings: Parameters<typeof growthDims>[2];
  readonly dims: readonly DimChange[];
  readonly inputs: readonly InputChange[]; // shape overrides and input values that differ
}

/** The region states at the peak of each plan, by region name. */
export interface PeakStates {
  readonly a: ReadonlyMap<string, RegionAtPeak>;
  readonly b: ReadonlyMap<string, RegionAtPeak>;
}

/** The causes of the peak change, keyed; their bytes sum to the sum of the region deltas. */
export function peakCauses(input: CauseInput): { drafts: Map<string, CauseDraft>; states: PeakStates } {
  const states = { a: regionsAtPeak(input.a.plan), b: regionsAtPeak(input.b.plan) };
  const drafts = new Map<string, CauseDraft>();
  const add: Add = (key, init, bytes, region, buffer, before) => {
    if (bytes === 0) return;
    const draft = drafts.get(key) ?? { ...init, bytes: 0, buffers: new Set(), nodes: new Set(), regions: new Set(), byRegion: new Map(), idsA: new Set(), idsB: new Set(), sizes: [0, 0], sizeOf: new Map(), givenOf: new Map(), alignedOf: new Map() };
    draft.bytes += bytes;
    draft.regions.add(region);
    draft.byRegion.set(region, (draft.byRegion.get(region) ?? 0) + bytes);
    const named = buffer ?? before;
    if (named !== undefined) draft.buffers.add(named.name);
    if (named !== undefined && !draft.sizeOf.has(named.name)) {
      draft.sizeOf.set(named.name, [before === undefined ? 0 : heldBytes(before), buffer === undefined ? 0 : heldBytes(buffer)]);
      const given = (b: PlannedBuffer | undefined) => (b === undefined || heldBytes(b) === b.size ? undefined : b.size);
      if (given(before) !== undefined || given(buffer) !== undefined) draft.givenOf.set(named.name, [given(before), given(buffer)]);
      const aligned = before === undefined || buffer === undefined ? undefined : paddingChange(input.a, before, input.b, buffer);
      if (aligned !== undefined) draft.alignedOf.set(named.name, aligned);
    }
    if (named?.node !== undefined) draft.nodes.add(named.node);
    if (before !== undefined) draft.idsA.add(before.id);
    if (buffer !== undefined) draft.idsB.add(buffer.id);
    draft.sizes[0] += before?.size ?? 0;
    draft.sizes[1] += buffer?.size ?? 0;
    drafts.set(key, draft);
  };
  const [unitsA, unitsB] = [fusionIndex(input.a.plan, 'a'), fusionIndex(input.b.plan, 'b')];
  const unknown = { a: unknownSizes(input.a), b: unknownSizes(input.b) };
  for (const region of new Set([...states.a.keys(), ...states.b.keys()])) {
    const atA = states.a.get(region);
    const atB = states.b.get(region);
    addPlacement(input, region, (atB?.gap ?? 0) - (atA?.gap ?? 0), add);
    const ctx: RegionContext = { input, region, atA, atB, unitsA, unitsB, unknown, add };
    for (const [j, bytes] of atB?.contributions ?? []) onlyOrBothB(ctx, j, bytes);
    for (const [i, bytes] of atA?.contributions ?? []) onlyA(ctx, i, bytes);
  }
  foldPeakMoves(drafts);
  countMoves(input, drafts, unitsA, unitsB);
  for (const draft of drafts.values()) draft.kind = signedKind(draft.kind, draft.bytes);
  return { drafts, states };
}

/** Causes that take no peak-moved share: the peak moving itself, and the holes' change, whose bytes are the holes' alone. */
const HOLES_OR_PEAK: ReadonlySet<CauseKind> = new Set(['peak-moved', 'placement-worse', 'placement-better', 'strategy-changed', 'target-changed']);

/**
 * Puts a region's peak-moved share down to the cause that moved the peak
 * when the two disagree in sign with the region's change: the share is the
 * old peak's buffers, still there but no longer the peak, and the region's
 * change is what the new peak (brought by that cause, its largest share of
 * the region's sign) holds beyond the old one. A peak that moved for no
 * other cause (an order change) keeps its own cause, and so does one whose
 * only other cause is the holes' change.
 */
function foldPeakMoves(drafts: Map<string, CauseDraft>): void {
  for (const moved of drafts.values()) {
    if (moved.kind !== 'peak-moved') continue;
    for (const [region, share] of moved.byRegion) {
      const change = [...drafts.values()].reduce((s, d) => s + (d.byRegion.get(region) ?? 0), 0);
      if (share === 0 || change === 0 || Math.sign(share) === Math.sign(change)) continue;
      const into = [...drafts.values()]
        .filter((d) => !HOLES_OR_PEAK.has(d.kind) && Math.sign(d.byRegion.get(region) ?? 0) === Math.sign(change))
        .sort((x, y) => Math.abs(y.byRegion.get(region)!) - Math.abs(x.byRegion.get(region)!))[0];
      if (into === undefined) continue;
      into.bytes += share;
      into.byRegion.set(region, into.byRegion.get(region)! + share);
      into.peakMovedIn = new Set([...(into.peakMovedIn ?? []), region]);
      moved.bytes -= share;
      moved.byRegion.set(region, 0);
    }
  }
}

const moveKey = (from: string, to: string) => `region:${from}>${to}`;

/**
 * Sets each region-moved cause's count of every matched buffer that moved
 * between its two regions (a fusion unit on one side aside, whose cause is
 * its own): the cause names only those live at a peak, which may be a few of many.
 */
function countMoves(input: CauseInput, drafts: Map<string, CauseDraft>, unitsA: FusionIndex, unitsB: FusionIndex): void {
  const moves = new Map<string, number>();
  input.match.aToB.forEach((j, i) => {
    if (j === undefined) return;
    const [bufA, bufB] = [input.a.plan.buffers[i]!, input.b.plan.buffers[j]!];
    if (bufA.region === bufB.region || unitsA.of(bufA)?.name !== unitsB.of(bufB)?.name) return;
    const key = moveKey(bufA.region, bufB.region);
    moves.set(key, (moves.get(key) ?? 0) + 1);
  });
  for (const [key, draft] of drafts) if (draft.kind === 'region-moved') draft.movedInAll = moves.get(key) ?? draft.buffers.size;
}

/** What a cause is known by before its bytes are summed. */
type DraftInit = Omit<CauseDraft, 'bytes' | 'buffers' | 'nodes' | 'regions' | 'byRegion' | 'idsA' | 'idsB' | 'sizes' | 'sizeOf' | 'givenOf' | 'alignedOf' | 'peakMovedIn' | 'movedInAll'>;

/** Adds `bytes` to the cause `key` (made from `init` the first time), naming the buffer after and before. */
type Add = (key: string, init: DraftInit, bytes: number, region: string, buffer?: PlannedBuffer, before?: PlannedBuffer) => void;

/**
 * Whether a summed cause says something: bytes in all, or, for buffers that
 * moved between regions, bytes taken from one region and added to another
 * (a spill that moves 4 MiB from SRAM to external RAM changes both peaks by
 * 4 MiB and the total by nothing).
 */
export function causeCounts(d: CauseDraft): boolean {
  return d.bytes !== 0 || (d.kind === 'region-moved' && [...d.byRegion.values()].some((v) => v !== 0));
}

/** A kind that says a direction, matched to the sign of the summed bytes. */
function signedKind(kind: CauseKind, bytes: number): CauseKind {
  if (kind === 'placement-worse' || kind === 'placement-better') return bytes > 0 ? 'placement-worse' : 'placement-better';
  if (kind === 'tensor-grew' || kind === 'tensor-shrunk') return bytes > 0 ? 'tensor-grew' : 'tensor-shrunk';
  return kind;
}

interface RegionContext {
  readonly input: CauseInput;
  readonly region: string;
  readonly atA: RegionAtPeak | undefined;
  readonly atB: RegionAtPeak | undefined;
  readonly unitsA: FusionIndex;
  readonly unitsB: FusionIndex;
  readonly unknown: { readonly a: ReadonlySet<string>; readonly b: ReadonlySet<string> }; // tensors of unknown size, by side
  readonly add: Add;
}

/** The tensors whose size the plan does not know (planned as 0 B). */
export function unknownSizes(file: PlanFile): ReadonlySet<string> {
  return new Set((file.plan.assumptions?.unknown ?? []).map((u) => u.tensor));
}

/** True when `buffer` is 0 B on `side` because its size is unknown there. */
function unknownOn(ctx: RegionContext, side: 'a' | 'b', buffer: PlannedBuffer): boolean {
  return buffer.size === 0 && ctx.unknown[side].has(buffer.name);
}

function addPlacement(input: CauseInput, region: string, bytes: number, add: Add): void {
  const { a, b } = input;
  if (a.settings.strategy !== b.settings.strategy || a.plan.strategy !== b.plan.strategy) add('strategy', { kind: 'strategy-changed' }, bytes, region);
  else if (targetLabels(a, b) !== undefined || a.plan.target !== b.plan.target) add('target', { kind: 'target-changed' }, bytes, region);
  else add('placement', { kind: bytes > 0 ? 'placement-worse' : 'placement-better' }, bytes, region);
}

/** A buffer of B covering `bytes` at B's peak in the region. */
function onlyOrBothB(ctx: RegionContext, j: number, bytes: number): void {
  const { input, region, add } = ctx;
  const bufB = input.b.plan.buffers[j]!;
  const i = input.match.bToA[j];
  if (i === undefined) {
    const unit = fusionChange(ctx, bufB, bufB);
    if (unit !== undefined) add(fusionKey(unit), fusionInit(unit), bytes, region, bufB);
    else add(`new:${bufB.node ?? bufB.name}`, { kind: 'new-buffer-at-peak' }, bytes, region, bufB);
    return;
  }
  const bufA = input.a.plan.buffers[i]!;
  const bytesA = ctx.atA?.contributions.get(i) ?? 0;
  const unit = fusionChange(ctx, bufA, bufB);
  if (unit !== undefined) {
    add(fusionKey(unit), fusionInit(unit), bytes - bytesA, region, bufB, bufA);
  } else if (ctx.atA?.contributions.has(i) === true) {
    addGrowth(ctx, bufA, bufB, bytes - bytesA);
  } else if (unknownOn(ctx, 'a', bufA)) {
    add('unknown:a', { kind: 'size-unknown', side: 'a' }, bytes, region, bufB, bufA);
  } else {
    const growth = bufA.size === bufB.size ? 0 : Math.round(bytes * (1 - bufA.size / bufB.size));
    addGrowth(ctx, bufA, bufB, growth);
    addElsewhere(ctx, bufA, bufB, bytes - growth);
  }
}

/** A buffer of A covering `bytes` at A's peak whose match (if any) is not at B's peak there. */
function onlyA(ctx: RegionContext, i: number, bytes: number): void {
  const { input, region, add } = ctx;
  const bufA = input.a.plan.buffers[i]!;
  const j = input.match.aToB[i];
  if (j !== undefined && ctx.atB?.contributions.has(j)) return; // counted with B
  const bufB = j === undefined ? undefined : input.b.plan.buffers[j]!;
  const unit = fusionChange(ctx, bufA, bufB ?? bufA);
  if (unit !== undefined) add(fusionKey(unit), fusionInit(unit), -bytes, region, bufB, bufA);
  else if (bufB === undefined) add(`gone:${bufA.node ?? bufA.name}`, { kind: 'buffer-gone' }, -bytes, region, undefined, bufA);
  else if (unknownOn(ctx, 'b', bufB)) add('unknown:b', { kind: 'size-unknown', side: 'b' }, -bytes, region, bufB, bufA);
  else if (bufB.size === 0) addGrowth(ctx, bufA, bufB, -bytes); // empty in B (a dim of 0): it shrank, wherever the peak is
  else addElsewhere(ctx, bufA, bufB, -bytes);
}

/** A fusion unit in one plan only. */
interface UnitRef {
  readonly name: string;
  readonly side: 'a' | 'b';
}

const fusionKey = (unit: UnitRef) => `fusion:${unit.side}:${unit.name}`;
const fusionInit = (unit: UnitRef) => ({ kind: unit.side === 'b' ? ('fusion-added' as const) : ('fusion-undone' as const), unit: unit.name });

/** The fusion unit that owns a pair in one plan and not in the other (B's first), if any; an unmatched buffer is passed as both. */
function fusionChange(ctx: RegionContext, bufA: PlannedBuffer, bufB: PlannedBuffer): UnitRef | undefined {
  const inA = ctx.unitsA.of(bufA)?.name;
  const inB = ctx.unitsB.of(bufB)?.name;
  if (inB !== undefined && inB !== inA) return { name: inB, side: 'b' };
  if (inA !== undefined && inA !== inB) return { name: inA, side: 'a' };
  return undefined;
}

/** A pair's share at one peak only: a move between regions, the peak moving, or (at the same step) the lifetime changing. */
function addElsewhere(ctx: RegionContext, bufA: PlannedBuffer, bufB: PlannedBuffer, bytes: number): void {
  const { region, add } = ctx;
  if (bufA.region !== bufB.region) add(moveKey(bufA.region, bufB.region), { kind: 'region-moved', move: [bufA.region, bufB.region] }, bytes, region, bufB, bufA);
  else if (samePeakStep(ctx)) add(`lifetime:${region}`, { kind: 'lifetime-changed' }, bytes, region, bufB, bufA);
  else add(`peak-moved:${region}`, { kind: 'peak-moved' }, bytes, region, bufB, bufA);
}

/** True when the region's peak is at the same step, running the same node, in both plans. */
function samePeakStep(ctx: Pick<RegionContext, 'input' | 'atA' | 'atB'>): boolean {
  const [stepA, stepB] = [ctx.atA?.step, ctx.atB?.step];
  if (stepA === undefined || stepA !== stepB) return false;
  return ctx.input.a.plan.steps[stepA]?.node === ctx.input.b.plan.steps[stepB]?.node;
}

/**
 * A pair's size change at the peak: its alignment padding when its tensor
 * holds the same bytes on both sides, else a changed dim when the ratio matches one,
 * else a changed input shape or value when there is one (an image's size does
 * not scale every tensor by one ratio: padding and strides round), else the tensor.
 */
function addGrowth(ctx: RegionContext, bufA: PlannedBuffer, bufB: PlannedBuffer, bytes: number): void {
  const alignments = paddingChange(ctx.input.a, bufA, ctx.input.b, bufB);
  if (alignments !== undefined) {
    ctx.add(`alignment:${alignments.join('>')}`, { kind: 'alignment-changed', alignments }, bytes, ctx.region, bufB, bufA);
    return;
  }
  // a buffer empty on one side scales by no ratio: a dim planned as 0 there explains it, unless its size is unknown
  const sized = !unknownOn(ctx, 'a', bufA) && !unknownOn(ctx, 'b', bufB);
  const dim = growthDims(bufA.bytes, bufB.bytes, ctx.input.scalings) ?? (sized ? emptyGrowthDims(bufA.bytes, bufB.bytes, ctx.input.dims) : undefined);
  const inputs = ctx.input.inputs;
  // one cause per dim set: a total that follows its parts (total_seq_len after past_seq_len) joins theirs
  if (dim !== undefined) ctx.add(`dim:${(setDimsOf(dim, ctx.input.dims) ?? [dim]).join(', ')}`, { kind: 'dim-changed', dim }, bytes, ctx.region, bufB, bufA);
  else if (inputs.length > 0 && bufA.bytes !== bufB.bytes) ctx.add('inputs', { kind: 'input-changed', inputs: inputs.map((c) => c.name) }, bytes, ctx.region, bufB, bufA);
  else ctx.add(`tensor:${bufB.name}`, { kind: bytes > 0 ? 'tensor-grew' : 'tensor-shrunk' }, bytes, ctx.region, bufB, bufA);
}

/** Which fusion unit of a plan owns a buffer (by tensor name, then producing node). */
export interface FusionIndex {
  of(buffer: PlannedBuffer): UnitRef | undefined;
}

/** The display name of a fusion unit: its own name, else its kind and first and last node. */
export function fusionUnitName(unit: ModelPlan['fusionUnits'][number], index: number): string {
  const named = (unit as { readonly name?: unknown }).name;
  if (typeof named === 'string' && named !== '') return named;
  const first = unit.nodes[0] ?? `#${index}`;
  const last = unit.nodes[unit.nodes.length - 1];
  return `${unit.kind} ${first}${last !== undefined && last !== first ? `…${last}` : ''}`;
}

/** The fusion unit owning each buffer of a plan, by tensor name, then producing node. */
export function fusionIndex(plan: ModelPlan, side: 'a' | 'b'): FusionIndex {
  const byNode = new Map<string, UnitRef>();
  const byTensor = new Map<string, UnitRef>();
  plan.fusionUnits.forEach((unit, k) => {
    const ref = { name: fusionUnitName(unit, k), side };
    for (const node of unit.nodes) byNode.set(node, ref);
    const internal = (unit as { readonly internal?: unknown }).internal;
    if (Array.isArray(internal)) for (const t of internal) if (typeof t === 'string') byTensor.set(t, ref);
  });
  return { of: (buffer) => byTensor.get(buffer.name) ?? (buffer.node === undefined ? undefined : byNode.get(buffer.node)) };
}
