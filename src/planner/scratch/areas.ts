// The per-step free areas of each region's heap after activations are placed,
// and the heap's bounds as scratch placement grows them (METHODS.md M4, steps
// 1-2). Depends only on problem types.

import { regionOf, type PlacementProblem } from '../problem/problem';

/** A half-open byte range [lo, hi). */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

/** One region's heap: [bottom, top), starting as the activation plan's [0, peak). */
export interface Heap {
  readonly name: string;
  readonly alignment: number;
  readonly fast: boolean;
  readonly activationPeak: number;
  bottom: number; // may go below 0 when the heap grows downwards
  top: number;
}

/** Rounds up to a multiple of `alignment` (also for negative values). */
export function alignUpTo(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

/** Rounds down to a multiple of `alignment` (also for negative values). */
export function alignDownTo(value: number, alignment: number): number {
  return Math.floor(value / alignment) * alignment;
}

/** Byte ranges taken at the steps that need scratch, per region. */
export class StepAreas {
  private readonly taken = new Map<string, Interval[]>(); // `${region}\u0000${step}` -> ranges, unsorted

  /** Records the activations live at each of `steps` (a sweep over lifetimes). */
  constructor(problem: PlacementProblem, offsets: readonly number[], steps: readonly number[]) {
    const wanted = [...new Set(steps)].sort((a, b) => a - b);
    const byStart = problem.buffers.filter((b) => b.size > 0).sort((a, b) => a.start - b.start);
    let next = 0;
    let active: typeof byStart = [];
    for (const step of wanted) {
      while (next < byStart.length && byStart[next]!.start <= step) active.push(byStart[next++]!);
      active = active.filter((b) => b.end > step);
      for (const b of active) this.add(regionOf(b), step, { lo: offsets[b.id]!, hi: offsets[b.id]! + b.size });
    }
  }

  /** Marks a range taken at a step. */
  add(region: string, step: number, range: Interval): void {
    const key = `${region}\u0000${step}`;
    const list = this.taken.get(key);
    if (list === undefined) this.taken.set(key, [range]);
    else list.push(range);
  }

  /** The free ranges of `heap` at `step`, ascending. */
  free(heap: Heap, step: number): Interval[] {
    const taken = (this.taken.get(`${heap.name}\u0000${step}`) ?? []).slice().sort((a, b) => a.lo - b.lo);
    const free: Interval[] = [];
    let at = heap.bottom;
    for (const range of taken) {
      if (range.lo > at) free.push({ lo: at, hi: Math.min(range.lo, heap.top) });
      at = Math.max(at, range.hi);
      if (at >= heap.top) break;
    }
    if (at < heap.top) free.push({ lo: at, hi: heap.top });
    return free.filter((r) => r.hi > r.lo);
  }
}

/** Where a buffer of `size` fits inside `area` at the given side, or undefined. */
export function fitIn(area: Interval, size: number, alignment: number, side: 'bottom' | 'top'): number | undefined {
  const offset = side === 'bottom' ? alignUpTo(area.lo, alignment) : alignDownTo(area.hi - size, alignment);
  return offset >= area.lo && offset + size <= area.hi ? offset : undefined;
}

/**
 * Grows the heap so that `size` bytes fit at its top (or bottom), using the
 * free space already at that end; returns the offset. `free` is the heap's
 * free list at the step.
 */
export function growFor(heap: Heap, free: readonly Interval[], size: number, side: 'bottom' | 'top'): number {
  if (side === 'top') {
    const last = free[free.length - 1];
    const from = last !== undefined && last.hi === heap.top ? last.lo : heap.top;
    const offset = alignUpTo(from, heap.alignment);
    heap.top = Math.max(heap.top, offset + size);
    return offset;
  }
  const first = free[0];
  const to = first !== undefined && first.lo === heap.bottom ? first.hi : heap.bottom;
  const offset = alignDownTo(to - size, heap.alignment);
  heap.bottom = Math.min(heap.bottom, offset);
  return offset;
}
