// placeScratch: METHODS.md M4, scratch buffers in the free space of the
// activation heap, per memory region. Depends only on the planner.
//
// - Activations are placed first; each region's heap is [0, activation peak).
// - For every step that needs scratch, the free areas of each heap at that
//   step are the ranges no live activation (or scratch placed there) uses.
// - Scratch is queued in execution order; within one op, fixed sizes largest
//   first, then the variable-size ones (largest minimum first).
// - A latency-critical buffer goes to a fast region, any other to a slow one
//   (the activation region when the target has no such region).
// - Fixed size: overlay an already placed scratch of the same op that is at
//   least as large when the rule allows it; otherwise the smallest free area that fits,
//   at its bottom or top; otherwise grow the heap at its top or bottom, by
//   the missing amount when that end is partly free.
// - Variable size: the largest remaining free areas in decreasing size, one
//   buffer each; with more buffers than areas, areas are shared evenly. A
//   minimum above the share grows the heap for that buffer.
// - Retries (when the target asks): both sides, both growth ends, and
//   "non-critical scratch in fast memory when it fits without growth"; the
//   best run by the target's criterion is kept (the first on ties).
// - Finally a heap that grew downwards is shifted up so it starts at 0.

import type { ScratchRequest } from './scratch-requests';
import type { PlacementProblem } from '../problem/problem';
import { fitIn, growFor, StepAreas, type Heap, type Interval } from './areas';
import type { MemoryRegion, ScratchCriterion, ScratchSettings, ScratchSide } from '../targets/target';

/** One placed scratch buffer. */
export interface PlacedScratch {
  readonly request: number; // index into the requests
  readonly region: string;
  readonly offset: number; // in its region, after the final shift
  readonly size: number; // bytes granted (a variable buffer's share; else the request's size)
  readonly overlays: number | undefined; // index of the same-op scratch it shares bytes with
  readonly grown: boolean; // the heap grew to make room for it
}

/** A choice of sides for one run of the placement. */
export interface ScratchVariant {
  readonly side: ScratchSide;
  readonly grow: ScratchSide;
  readonly preferFast: boolean;
}

/** Each region's heap after scratch placement. */
export interface HeapResult {
  readonly name: string;
  readonly activationPeak: number;
  readonly size: number; // top - bottom: the region's peak with scratch
  readonly shift: number; // bytes the activations moved up (the heap grew downwards)
  readonly fragments: number; // free areas left at the steps that took scratch
}

/** The outcome of placeScratch. */
export interface ScratchPlacement {
  readonly placed: readonly PlacedScratch[]; // by request index
  readonly heaps: readonly HeapResult[]; // one per region of the target
  readonly alignments: ReadonlyMap<string, number>; // offset alignment of each region
  readonly variant: ScratchVariant;
  readonly runs: number; // variants tried
}

/** What placeScratch needs. */
export interface ScratchInput {
  readonly problem: PlacementProblem; // the activations
  readonly offsets: readonly number[]; // their placement
  readonly regions: readonly MemoryRegion[];
  readonly requests: readonly ScratchRequest[];
  readonly settings: ScratchSettings;
}

/** Places every scratch request; see the module header. */
export function placeScratch(input: ScratchInput): ScratchPlacement {
  const first: ScratchVariant = { side: input.settings.side, grow: input.settings.grow, preferFast: input.settings.criterion === 'most-fast' };
  const variants = input.settings.retries ? allVariants(first) : [first];
  let best: ScratchPlacement | undefined;
  for (const variant of variants) {
    const run = new ScratchRun(input, variant).place();
    if (best === undefined || better(run, best, input.settings.criterion, input.regions)) best = run;
  }
  return { ...best!, runs: variants.length };
}

function allVariants(first: ScratchVariant): ScratchVariant[] {
  const other = (s: ScratchSide): ScratchSide => (s === 'top' ? 'bottom' : 'top');
  const list: ScratchVariant[] = [];
  for (const preferFast of [first.preferFast, !first.preferFast]) {
    for (const side of [first.side, other(first.side)]) {
      for (const grow of [first.grow, other(first.grow)]) list.push({ side, grow, preferFast });
    }
  }
  return list;
}

function better(a: ScratchPlacement, b: ScratchPlacement, criterion: ScratchCriterion, regions: readonly MemoryRegion[]): boolean {
  const heap = (p: ScratchPlacement) => p.heaps.reduce((sum, h) => sum + h.size, 0);
  const growth = (p: ScratchPlacement) => p.heaps.reduce((sum, h) => sum + h.size - h.activationPeak, 0);
  const fragments = (p: ScratchPlacement) => p.heaps.reduce((sum, h) => sum + h.fragments, 0);
  const fast = new Set(regions.filter((r) => r.fast).map((r) => r.name));
  const inFast = (p: ScratchPlacement) => p.placed.reduce((sum, s) => sum + (fast.has(s.region) ? s.size : 0), 0);
  const keys: Record<ScratchCriterion, (p: ScratchPlacement) => number> = {
    'no-growth': growth,
    'smallest-heap': heap,
    'least-fragmentation': fragments,
    'most-fast': (p) => -inFast(p),
  };
  const primary = keys[criterion](a) - keys[criterion](b);
  return primary < 0 || (primary === 0 && heap(a) < heap(b));
}

/** One run of M4 with one variant. */
class ScratchRun {
  private readonly heaps = new Map<string, Heap>();
  private readonly areas: StepAreas;
  private readonly placed: (PlacedScratch & { offset: number })[] = [];

  constructor(
    private readonly input: ScratchInput,
    private readonly variant: ScratchVariant,
  ) {
    const peaks = new Map<string, number>();
    input.problem.buffers.forEach((b) => {
      const region = b.region ?? input.regions[0]!.name;
      peaks.set(region, Math.max(peaks.get(region) ?? 0, input.offsets[b.id]! + b.size));
    });
    for (const r of input.regions) {
      const peak = peaks.get(r.name) ?? 0;
      this.heaps.set(r.name, { name: r.name, alignment: r.alignment, fast: r.fast, activationPeak: peak, bottom: 0, top: peak });
    }
    this.areas = new StepAreas(input.problem, input.offsets, input.requests.map((q) => q.step));
  }

  place(): ScratchPlacement {
    const { requests } = this.input;
    const queue = requests.map((_, i) => i).sort((a, b) => queueOrder(requests[a]!, requests[b]!) || a - b);
    for (let k = 0; k < queue.length; ) {
      let end = k;
      while (end < queue.length && requests[queue[end]!]!.step === requests[queue[k]!]!.step) end++;
      const op = queue.slice(k, end);
      for (const i of op) if (!requests[i]!.variable) this.placeFixed(i);
      this.placeVariable(op.filter((i) => requests[i]!.variable));
      k = end;
    }
    return this.result();
  }

  private placeFixed(i: number): void {
    const request = this.input.requests[i]!;
    const fast = this.fastRegion();
    if (this.variant.preferFast && !request.latencyCritical && fast !== undefined && fast.name !== request.region) {
      if (this.tryWithoutGrowth(i, fast)) return;
    }
    const heap = this.heaps.get(request.region)!;
    if (this.tryWithoutGrowth(i, heap)) return;
    const offset = growFor(heap, this.areas.free(heap, request.step), request.size, this.variant.grow);
    this.record(i, heap, offset, request.size, undefined, true);
  }

  /** Overlay or smallest fitting free area; false when neither works. */
  private tryWithoutGrowth(i: number, heap: Heap): boolean {
    const request = this.input.requests[i]!;
    const free = this.areas.free(heap, request.step);
    if (request.overlay) {
      const base = this.overlayBase(i, heap);
      if (base !== undefined) {
        this.record(i, heap, base.offset, request.size, base.index, false);
        return true;
      }
    }
    let chosen: { offset: number; room: number } | undefined;
    for (const area of free) {
      const offset = fitIn(area, request.size, heap.alignment, this.variant.side);
      const room = area.hi - area.lo;
      if (offset !== undefined && (chosen === undefined || room < chosen.room)) chosen = { offset, room };
    }
    if (chosen === undefined) return false;
    this.record(i, heap, chosen.offset, request.size, undefined, false);
    return true;
  }

  /**
   * A same-op scratch to overlay: the smallest at least as large. (M4's other
   * case, a smaller one with enough free space above it, cannot arise: an
   * op's fixed buffers are queued largest first.)
   */
  private overlayBase(i: number, heap: Heap): { offset: number; index: number } | undefined {
    const request = this.input.requests[i]!;
    let fits: PlacedScratch | undefined;
    for (const p of this.placed) {
      const other = this.input.requests[p.request]!;
      if (p.region !== heap.name || other.step !== request.step || other.node !== request.node || p.overlays !== undefined) continue;
      if (p.size >= request.size && (fits === undefined || p.size < fits.size)) fits = p;
    }
    return fits === undefined ? undefined : { offset: fits.offset, index: fits.request };
  }

  /** How it works: see the module header (variable size). */
  private placeVariable(op: readonly number[]): void {
    if (op.length === 0) return;
    const requests = this.input.requests;
    const byRegion = new Map<string, number[]>();
    for (const i of [...op].sort((a, b) => requests[b]!.size - requests[a]!.size || a - b)) {
      const list = byRegion.get(requests[i]!.region) ?? [];
      list.push(i);
      byRegion.set(requests[i]!.region, list);
    }
    for (const [region, list] of byRegion) {
      const heap = this.heaps.get(region)!;
      const step = requests[list[0]!]!.step;
      const areas = this.areas.free(heap, step).sort((a, b) => b.hi - b.lo - (a.hi - a.lo) || a.lo - b.lo);
      const shares = shareAreas(areas, list.length, heap.alignment);
      const short = list.filter((i, k) => {
        const share = shares[k];
        if (share === undefined || share.size < requests[i]!.size) return true;
        this.record(i, heap, share.offset, share.size, undefined, false);
        return false;
      });
      for (const i of short) {
        const min = requests[i]!.size;
        this.record(i, heap, growFor(heap, this.areas.free(heap, step), min, this.variant.grow), min, undefined, true);
      }
    }
  }

  private record(i: number, heap: Heap, offset: number, size: number, overlays: number | undefined, grown: boolean): void {
    const step = this.input.requests[i]!.step;
    this.placed.push({ request: i, region: heap.name, offset, size, overlays, grown });
    this.areas.add(heap.name, step, { lo: offset, hi: offset + size });
  }

  private fastRegion(): Heap | undefined {
    return [...this.heaps.values()].find((h) => h.fast);
  }

  private result(): ScratchPlacement {
    const steps = new Set(this.input.requests.map((q) => q.step));
    const heaps: HeapResult[] = [...this.heaps.values()].map((h) => {
      let fragments = 0;
      for (const step of steps) fragments += this.areas.free(h, step).length;
      return { name: h.name, activationPeak: h.activationPeak, size: h.top - h.bottom, shift: 0 - h.bottom, fragments };
    });
    const shift = new Map(heaps.map((h) => [h.name, h.shift]));
    const placed = this.placed
      .map((p) => ({ ...p, offset: p.offset + shift.get(p.region)! }))
      .sort((a, b) => a.request - b.request);
    const alignments = new Map([...this.heaps.values()].map((h) => [h.name, h.alignment]));
    return { placed, heaps, alignments, variant: this.variant, runs: 1 };
  }
}

/** Execution order; within an op, fixed before variable, larger first, then rule order. */
function queueOrder(a: ScratchRequest, b: ScratchRequest): number {
  return a.step - b.step || Number(a.variable) - Number(b.variable) || b.size - a.size || a.rule - b.rule;
}

/** Splits the areas (largest first) among `count` buffers: round robin, equal aligned shares. */
function shareAreas(areas: readonly Interval[], count: number, alignment: number): ({ offset: number; size: number } | undefined)[] {
  if (areas.length === 0) return new Array(count).fill(undefined);
  const perArea = new Array<number>(Math.min(areas.length, count)).fill(0);
  for (let k = 0; k < count; k++) perArea[k % perArea.length]!++;
  const seen = new Array<number>(perArea.length).fill(0);
  const shares: ({ offset: number; size: number } | undefined)[] = [];
  for (let k = 0; k < count; k++) {
    const a = k % perArea.length;
    const area = areas[a]!;
    const start = Math.ceil(area.lo / alignment) * alignment;
    const n = perArea[a]!;
    const share = n === 1 ? area.hi - start : Math.floor((area.hi - start) / n / alignment) * alignment;
    shares.push(share > 0 ? { offset: start + seen[a]! * share, size: share } : undefined);
    seen[a]!++;
  }
  return shares;
}
