// The records of a model plan's regions and buffers, as `plan --json` gives
// them: peaks, bounds, limits, what spilled along the memory map and the bytes
// moved per region. Written by planModel (plan.ts); depends only on the planner.

import type { StoredAs } from '../compute-units/stored-as';
import type { PlacementProblem } from '../problem/problem';
import type { SharingRule, BufferKind } from '../problem/build-buffers';
import type { KvCaches } from '../problem/kv-cache';
import type { ScratchRequest } from '../scratch/scratch-requests';
import type { SpillResult } from '../spill/spill-plan';
import { wantedRegions, type RegionMoves } from '../spill/spill-report';
import type { TargetProfile } from '../targets/target';
import type { PlanExplanation, Waste } from './explain-plan';
import type { PlacedPlan, PlacementSearch } from './placement';

/** One region of a model plan. */
export interface RegionPlan {
  readonly name: string;
  readonly peak: number; // bytes the region needs
  readonly lowerBound: number;
  readonly optimal: boolean;
  readonly fast: boolean;
  readonly sizeLimit?: number;
  readonly overBy: number; // bytes of used above sizeLimit; 0 when it fits or has no limit
  readonly pastLimit?: readonly string[]; // with a size limit: tensors held here whose sizes are known to pass 2^53 − 1 bytes (planned as 0 bytes), so it is over its limit whatever `overBy` says of the sizes known
  readonly activationPeak?: number; // before M4 placed scratch in it
  readonly spilled?: number; // bytes of alias groups placed here that wanted a faster region of the memory map (0 when nothing spilled); absent in older plan files
  readonly moved?: RegionMoves; // bytes written to and read from it over one inference (its buffers', and the weights' when the target places them here); when activations may take more than one region
  readonly weights?: number; // bytes the model's weights take here, set aside at the region's base (target's planning.weights)
  readonly io?: number; // bytes of graph inputs and outputs planned here over the whole run, as placed (not all live at once: it may pass the peak)
  readonly runtimeTail?: number; // with runtime 'tflm' on a .tflite model: bytes of the tensor arena to declare beyond the plan's head (TFLite Micro's persistent tail and planning), in the activation region
  readonly runtimeHead?: number; // with runtime 'tflm': the head TFLite Micro reaches with the plan written into the file (runtimePlan.planned.head), which the runtime uses instead of `peak`
  readonly used?: number; // peak (runtimeHead when given) + weights (+ runtimeTail): what the region holds at most
  readonly peakStep?: number;
  readonly waste: Waste;
}

/** What a region holds besides what was placed, and what the spill did, for regionRecords. */
export interface RegionHolds {
  readonly spilled: ReadonlyMap<string, number>;
  readonly moves: ReadonlyMap<string, RegionMoves>;
  readonly spills: boolean; // the target spills along its memory map
  readonly moved: boolean; // give bytes moved: activations may take more than one region (spilled or not)
  readonly weights: ReadonlyMap<string, number>;
  readonly runtime?: ReadonlyMap<string, RuntimeArena>; // a runtime's arena in a region (TFLite Micro's tensor arena)
  readonly io: ReadonlyMap<string, number>;
}

/** What a runtime's arena holds in a region: the head of the plan it runs (in place of the region's peak) and its tail. */
export interface RuntimeArena {
  readonly head: number; // the head it reaches with the plan it is given (TFLite Micro: the plan written into the file)
  readonly tail: number; // bytes it keeps beside the head (TFLite Micro's persistent tail and planning)
  readonly tailEstimated?: boolean; // some part of the tail is estimated: what the region needs is an estimate
}

/** The bytes a region holds at most: its plan's peak (a runtime's head in its place) with the weights and a runtime's tail beside it. */
export function regionUsed(peak: number, weights: number, runtime: RuntimeArena | undefined): number {
  return (runtime?.head ?? peak) + weights + (runtime?.tail ?? 0);
}

/** One buffer of a model plan. */
export interface PlannedBuffer {
  readonly id: number;
  readonly name: string;
  readonly kind: BufferKind;
  readonly size: number; // bytes reserved
  readonly bytes: number; // bytes of data (size - alignment padding)
  readonly start: number; // first step it is live
  readonly end: number; // first step it is no longer live
  readonly offset: number;
  readonly region: string;
  readonly node?: string; // producing (or owning) node
  readonly alias?: { readonly parent: number; readonly offset: number; readonly rule: SharingRule };
  readonly wanted?: string; // the faster region it wanted, when it spilled
  readonly moved?: number; // bytes written to and read from it over one inference; when activations may take more than one region
  readonly scratch?: ScratchRuleRecord; // for a scratch buffer: the target's rule that sized it
  readonly storedAs?: StoredAs; // stored in its compute unit's type, not the model's (M3): why its size is not shape × dtype
  readonly unknownSize?: true; // its size is unknown (listed in assumptions.unknown): planned as 0 bytes, so its `size` and `bytes` of 0 are no measure
  readonly kvCache?: 'past' | 'present'; // a decoder's KV cache (kv-cache.ts): a past input brought in, or the present output handed back
  readonly state?: true; // model state the runtime keeps between runs (a TFLite variable tensor): kind 'activation', in the arena for the whole run, not graph I/O
}

/** The scratch rule behind a scratch buffer (M4), as the target states it. */
export interface ScratchRuleRecord {
  readonly rule: string; // the rule's name, e.g. 'im2col'
  readonly bytes: number; // the size the rule gives (fixed bytes or its formula's value); a variable-size buffer's minimum
  readonly size: number; // `bytes` rounded up to its region's alignment: what the buffer asked of the placement
  readonly variable: boolean; // placement may grant more than `bytes`: the buffer's `size` is what it got
  readonly formula?: string; // the formula of the op's shapes that gave `bytes`, when the rule has one
  readonly latencyCritical?: boolean; // the rule keeps it in a fast region; false: M4 places it in the target's slow one (absent in plans saved before it was recorded)
}

/** The bytes a buffer holds: all of it, but for a variable-size scratch buffer only what its rule asks (the rest is free space it was given). */
export function heldBytes(b: Pick<PlannedBuffer, 'size' | 'scratch'>): number {
  return b.scratch?.variable === true ? Math.min(b.size, b.scratch.size) : b.size;
}

/** How the plan used the target's memory map (spill/). */
export interface SpillSummary {
  readonly map: readonly string[]; // regions activations may take, fastest first
  readonly proven: boolean; // every region's choice proven the best of the knapsack over time
  readonly spilledBuffers: number; // buffers placed below the region they wanted
  readonly movedScratch: number; // scratch buffers too large for their region, moved down the map
}

/** Whether a plan's activations were split between regions (its spill used more than the region they wanted). */
export function splitBetweenRegions(plan: { readonly spill?: SpillSummary }): boolean {
  return (plan.spill?.map.length ?? 0) > 1;
}

/** A split plan's explanation with the bound that holds for every split (spill/place-stage.ts). */
export function withBound(explanation: PlanExplanation, lowerBound: number): PlanExplanation {
  const { peak } = explanation;
  return { ...explanation, lowerBound, gap: lowerBound > 0 ? peak / lowerBound - 1 : 0, optimal: peak === lowerBound };
}

/**
 * A plan with sizes unknown (`complete` false) as it may be shown: nothing about the model's memory is optimal or
 * proven (a tensor of unknown size is planned as 0 bytes), so `optimal` and every region's are false, and a proof of
 * the placement of the sizes known moves from `search.proof` to `search.knownSizesProof`. A complete plan is returned as it is.
 */
export function withUnknownSizes<P extends { readonly complete: boolean; readonly optimal: boolean; readonly search?: PlacementSearch; readonly regions: readonly { readonly optimal: boolean }[] }>(plan: P): P {
  if (plan.complete) return plan;
  const search = plan.search;
  const known = search?.proof ?? search?.knownSizesProof;
  return {
    ...plan,
    optimal: false,
    regions: plan.regions.map((r) => (r.optimal ? { ...r, optimal: false } : r)),
    ...(search !== undefined && {
      search: search.proven || known !== undefined ? { proven: false, stoppedBy: search.stoppedBy === 'optimal' ? 'done' : search.stoppedBy, ...(known !== undefined && { knownSizesProof: known }) } : search,
    }),
  };
}

/**
 * `regions` with `pastLimit` on each one with a size limit that holds a tensor whose size is known to pass 2^53 − 1
 * bytes: no limit is that large, so the region is over it. A tensor planned under another name (an alias) counts
 * against `activationRegion`.
 */
export function withPastLimit<R extends RegionPlan>(regions: readonly R[], buffers: readonly { readonly name: string; readonly region?: string }[], unknown: readonly { readonly tensor: string; readonly pastLimit?: true }[], activationRegion: string): R[] {
  const byRegion = new Map<string, string[]>();
  const regionOfName = new Map(buffers.map((b) => [b.name, b.region ?? activationRegion]));
  for (const u of unknown.filter((x) => x.pastLimit === true)) {
    const region = regionOfName.get(u.tensor) ?? activationRegion;
    byRegion.set(region, [...(byRegion.get(region) ?? []), u.tensor]);
  }
  return regions.map((r) => (r.sizeLimit !== undefined && byRegion.has(r.name) ? { ...r, pastLimit: byRegion.get(r.name)! } : r));
}

/** `buffers` with `unknownSize` on each one named in `unknown` (a tensor or scratch buffer whose size is unknown, planned as 0 bytes). */
export function withUnknownSizeFlags(buffers: readonly PlannedBuffer[], unknown: readonly { readonly tensor: string }[]): PlannedBuffer[] {
  const names = new Set(unknown.map((u) => u.tensor));
  return buffers.map((b) => (names.has(b.name) ? { ...b, unknownSize: true } : b));
}

/** `buffers` with each graph input and output of a KV cache in `kv` flagged as its past or its present. */
export function withKvCacheFlags(buffers: readonly PlannedBuffer[], kv: KvCaches): PlannedBuffer[] {
  const half = (b: PlannedBuffer): 'past' | 'present' | undefined => {
    if (b.kind === 'input' && kv.byPast.has(b.name)) return 'past';
    if (b.kind === 'output' && kv.byPresent.has(b.name)) return 'present';
    return undefined;
  };
  return buffers.map((b) => {
    const kvCache = half(b);
    return kvCache === undefined ? b : { ...b, kvCache };
  });
}

/** The plan's summary of its spill. */
export function spillSummary(spill: SpillResult, target: TargetProfile): SpillSummary {
  return {
    map: [spill.wanted, ...target.regions.map((r) => r.name).filter((n) => n !== spill.wanted && spill.unitRegion.includes(n))],
    proven: spill.proven,
    spilledBuffers: wantedRegions(spill).size,
    movedScratch: spill.movedScratch.length,
  };
}

/** The plan's regions; `spilled` only when the target spills and `moved` when its memory map has several regions, so plans without one keep their records. */
export function regionRecords(target: TargetProfile, explanation: PlanExplanation, placed: PlacedPlan, holds: RegionHolds): RegionPlan[] {
  const { spilled, moves, spills, moved } = holds;
  return target.regions.map((region, i) => {
    const r = explanation.regions[i]!;
    const activationPeak = placed.activationPeaks.get(region.name);
    const weights = holds.weights.get(region.name) ?? 0;
    const runtime = holds.runtime?.get(region.name);
    const used = regionUsed(r.peak, weights, runtime);
    return {
      name: region.name,
      peak: r.peak,
      lowerBound: r.lowerBound,
      optimal: r.optimal,
      fast: region.fast,
      ...(region.sizeLimit !== undefined && { sizeLimit: region.sizeLimit }),
      overBy: region.sizeLimit === undefined ? 0 : Math.max(0, used - region.sizeLimit),
      ...(activationPeak !== undefined && { activationPeak }),
      spilled: spilled.get(region.name) ?? 0, // 0 too where the target does not spill (--spill off, one region): DESIGN lists it on every region
      ...((spills || moved) && { moved: moves.get(region.name) ?? { written: 0, read: 0 } }),
      weights,
      io: holds.io.get(region.name) ?? 0,
      ...(runtime !== undefined && runtime.tail > 0 && { runtimeTail: runtime.tail }),
      ...(runtime !== undefined && { runtimeHead: runtime.head }),
      used,
      ...(r.peakStep !== undefined && { peakStep: r.peakStep }),
      waste: r.waste,
    };
  });
}

/** The plan's buffers; `moved` from `moves` when given (by id; none for a buffer outside the arena); `scratchOf` gives a scratch buffer's request (by id). */
export function bufferRecords(problem: PlacementProblem, placed: PlacedPlan, wanted: ReadonlyMap<number, string>, moves: readonly (RegionMoves | undefined)[] | undefined, scratchOf: (id: number) => ScratchRequest | undefined): PlannedBuffer[] {
  const { info } = placed.full;
  return problem.buffers.map((b) => {
    const i = info[b.id]!;
    const q = i.kind === 'scratch' ? scratchOf(b.id) : undefined;
    return {
      id: b.id,
      name: b.name,
      kind: i.kind,
      size: b.size,
      bytes: i.bytes,
      start: b.start,
      end: b.end,
      offset: placed.offsets[b.id]!,
      region: b.region ?? '',
      ...(i.node !== undefined && { node: i.node }),
      ...(i.alias !== undefined && { alias: i.alias }),
      ...(i.state === true && { state: true as const }),
      ...(wanted.has(b.id) && { wanted: wanted.get(b.id)! }),
      ...(moves?.[b.id] !== undefined && { moved: moves[b.id]!.written + moves[b.id]!.read }),
      ...(q !== undefined && { scratch: { rule: q.label, bytes: q.bytes, size: q.size, variable: q.variable, ...(q.formula !== undefined && { formula: q.formula }), latencyCritical: q.latencyCritical } }),
    };
  });
}
