import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import type { BufferInfo } from '../problem/build-problem';
import type { ScratchRequest } from './scratch-requests';
import { regionPeaks } from '../assembly/explain-plan';
import { placeScratch, type ScratchPlacement } from './place-scratch';
import type { PlacementProblem, PlanBuffer } from '../problem/problem';
import { boundsWithScratch } from './bound';
import { withPlacedScratch } from './merge';
import type { MemoryRegion, ScratchSettings } from '../targets/target';
import { validatePlan } from '../assembly/validate-plan';

const RAM: MemoryRegion[] = [{ name: 'ram', alignment: 1, fast: false }];
const SETTINGS: ScratchSettings = { rules: [], placement: 'free-areas', side: 'bottom', grow: 'top', retries: false, criterion: 'smallest-heap' };

/** Activations as [name, size, start, end, offset]. */
type Placed = readonly [string, number, number, number, number];

function activations(list: readonly Placed[], region = 'ram') {
  const buffers: PlanBuffer[] = list.map(([name, size, start, end], id) => ({ id, name, size, start, end, region }));
  const info: BufferInfo[] = list.map(([, size]) => ({ kind: 'activation', node: undefined, bytes: size, padding: 0, graphIo: false }));
  return { problem: { buffers } as PlacementProblem, offsets: list.map((b) => b[4]), info };
}

let ruleIndex = 0;
function request(step: number, size: number, options: Partial<ScratchRequest> = {}): ScratchRequest {
  return {
    node: `op${step}`,
    opType: 'Conv',
    step,
    label: `s${ruleIndex}`,
    bytes: size,
    size,
    variable: false,
    latencyCritical: false,
    overlay: false,
    region: 'ram',
    alignment: 1,
    rule: ruleIndex++,
    ...options,
  };
}

/** Places scratch, checks the merged plan is valid and not below the bound; returns offsets by request. */
function place(list: readonly Placed[], requests: readonly ScratchRequest[], settings: Partial<ScratchSettings> = {}, regions = RAM) {
  const act = activations(list, regions[0]!.name);
  const placement = placeScratch({ problem: act.problem, offsets: act.offsets, regions, requests, settings: { ...SETTINGS, ...settings } });
  checkMerged(act, requests, placement, regions);
  return {
    placement,
    offsets: placement.placed.map((p) => p.offset),
    sizes: placement.placed.map((p) => p.size),
    heap: (name = regions[0]!.name) => placement.heaps.find((h) => h.name === name)!,
  };
}

function checkMerged(act: ReturnType<typeof activations>, requests: readonly ScratchRequest[], placement: ScratchPlacement, regions: readonly MemoryRegion[]) {
  const merged = withPlacedScratch({ problem: act.problem, info: act.info, scratch: requests }, act.offsets, placement);
  const peaks = regionPeaks(merged.problem, merged.offsets);
  const peak = [...peaks.values()].reduce((a, b) => a + b, 0);
  const validation = validatePlan(merged.problem, { offsets: merged.offsets, peak, regions: [...peaks].map(([name, p]) => ({ name, peak: p })) });
  expect(validation.violations).toEqual([]);
  for (const h of placement.heaps) expect(peaks.get(h.name) ?? 0).toBe(h.size);
  const n = act.problem.buffers.length;
  const final = requests.map((q, k) => ({ ...q, region: merged.problem.buffers[n + k]!.region! }));
  const bounds = boundsWithScratch(act.problem, act.problem, final, regions.map((r) => r.name));
  for (const b of bounds) expect(b.lowerBound).toBeLessThanOrEqual(peaks.get(b.name) ?? 0);
}

// step 0: a [0,10), b [15,25), c [40,80) -> free [10,15) (5 bytes) and [25,40) (15 bytes)
const THREE: Placed[] = [
  ['a', 10, 0, 2, 0],
  ['b', 10, 0, 1, 15],
  ['c', 40, 0, 1, 40],
];

describe('M4 fixed-size scratch', () => {
  it('takes the smallest free area that fits, largest buffer first, at the bottom', () => {
    const r = place(THREE, [request(0, 4), request(0, 12)]);
    expect(r.offsets).toEqual([10, 25]);
    expect(r.heap().size).toBe(80);
  });

  it('or at the top of the area', () => {
    const r = place(THREE, [request(0, 4), request(0, 12)], { side: 'top' });
    expect(r.offsets).toEqual([11, 28]);
  });

  it('grows the heap at the top when nothing fits', () => {
    const r = place(THREE, [request(0, 30)]);
    expect(r.offsets).toEqual([80]);
    expect(r.heap()).toMatchObject({ activationPeak: 80, size: 110, shift: 0 });
    expect(r.placement.placed[0]!.grown).toBe(true);
  });

  it('or at the bottom, moving the activations up', () => {
    const r = place(THREE, [request(0, 30)], { grow: 'bottom' });
    expect(r.offsets).toEqual([0]);
    expect(r.heap()).toMatchObject({ size: 110, shift: 30 });
  });

  it('grows only by the missing amount when the end of the heap is partly free', () => {
    // step 1: only a [0,10) is live -> free [10,80): 70 bytes at the top
    const r = place(THREE, [request(1, 75)]);
    expect(r.offsets).toEqual([10]);
    expect(r.heap().size).toBe(85);
    const down = place([['a', 10, 0, 2, 70], ['b', 70, 0, 1, 0]], [request(1, 75)], { grow: 'bottom' });
    expect(down.offsets).toEqual([0]); // free [0,70) at step 1: grows by 5 below
    expect(down.heap()).toMatchObject({ size: 85, shift: 5 });
  });

  it('overlays a same-op scratch at least as large when the rule allows it', () => {
    const big = request(0, 12, { node: 'conv' });
    const small = request(0, 9, { node: 'conv', overlay: true });
    const other = request(1, 9, { node: 'next', overlay: true });
    const r = place(THREE, [small, big, other]);
    expect(r.offsets).toEqual([25, 25, 10]);
    expect(r.placement.placed.map((p) => p.overlays)).toEqual([1, undefined, undefined]);
  });

  it('keeps the alignment of the region', () => {
    const regions: MemoryRegion[] = [{ name: 'ram', alignment: 8, fast: false }];
    const r = place(THREE, [request(0, 4, { alignment: 8 }), request(0, 30, { alignment: 8 })], {}, regions);
    // [10,15) has no aligned room for 4 bytes; [25,40) does at 32; 30 grows at the top
    expect(r.offsets).toEqual([32, 80]);
  });
});

describe('M4 variable-size scratch', () => {
  // step 0: a [0,10), b [30,40) live, heap top 55 -> free [10,30) (20) and [40,55) (15)
  const TWO: Placed[] = [
    ['a', 10, 0, 1, 0],
    ['b', 10, 0, 1, 30],
    ['c', 15, 1, 2, 40],
  ];

  it('gives each buffer one of the largest free areas, larger minimums first', () => {
    const r = place(TWO, [request(0, 4, { variable: true }), request(0, 8, { variable: true })]);
    expect(r.offsets).toEqual([40, 10]);
    expect(r.sizes).toEqual([15, 20]);
  });

  it('shares areas evenly when there are more buffers than areas', () => {
    const r = place(TWO, [request(0, 8, { variable: true }), request(0, 4, { variable: true }), request(0, 2, { variable: true })]);
    expect(r.offsets).toEqual([10, 40, 20]);
    expect(r.sizes).toEqual([10, 15, 10]);
  });

  it('comes after the op\'s fixed buffers', () => {
    const r = place(TWO, [request(0, 2, { variable: true }), request(0, 12)]);
    // the fixed 12 takes the smallest area that fits, [40,55); the variable one gets [10,30)
    expect(r.offsets).toEqual([10, 40]);
    expect(r.sizes).toEqual([20, 12]);
  });

  it('grows the heap for a minimum larger than every area', () => {
    const r = place(TWO, [request(0, 30, { variable: true })]);
    expect(r.offsets).toEqual([40]); // [40,55) is free at the top: grows by 15
    expect(r.sizes).toEqual([30]);
    expect(r.heap().size).toBe(70);
  });
});

describe('M4 regions and retries', () => {
  const TWO_REGIONS: MemoryRegion[] = [
    { name: 'sram', alignment: 8, fast: true },
    { name: 'dram', alignment: 16, fast: false },
  ];
  const SRAM: Placed[] = [
    ['a', 16, 0, 1, 0],
    ['b', 16, 0, 1, 48],
  ];

  it('puts latency-critical scratch in fast memory and the rest in slow memory, each planned alone', () => {
    const r = place(SRAM, [request(0, 24, { region: 'sram', alignment: 8, latencyCritical: true }), request(0, 24, { region: 'dram', alignment: 16 })], {}, TWO_REGIONS);
    expect(r.placement.placed.map((p) => [p.region, p.offset])).toEqual([
      ['sram', 16],
      ['dram', 0],
    ]);
    expect(r.heap('sram').size).toBe(64);
    expect(r.heap('dram').size).toBe(24);
  });

  it('can favour fast memory for the rest when it fits there without growth', () => {
    const r = place(SRAM, [request(0, 8, { region: 'dram', alignment: 16 })], { criterion: 'most-fast' }, TWO_REGIONS);
    expect(r.placement.placed.map((p) => [p.region, p.offset])).toEqual([['sram', 16]]);
    expect(r.heap('dram').size).toBe(0);
  });

  it('retries other sides and keeps the best run by the criterion', () => {
    const FREE_BELOW: Placed[] = [['a', 15, 0, 1, 5]]; // step 0: free [0,5) only
    const once = place(FREE_BELOW, [request(0, 8)]);
    expect(once.heap().size).toBe(28); // grown at the top
    const retried = place(FREE_BELOW, [request(0, 8)], { retries: true, criterion: 'smallest-heap' });
    expect(retried.placement.runs).toBe(8);
    expect(retried.placement.variant.grow).toBe('bottom');
    expect(retried.heap().size).toBe(23);
    expect(retried.offsets).toEqual([0]);
  });
});

describe('M4 on random heaps', () => {
  const scenario = fc.record({
    buffers: fc.array(fc.record({ size: fc.integer({ min: 1, max: 64 }), start: fc.integer({ min: 0, max: 8 }), len: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 16 }),
    requests: fc.array(
      fc.record({
        step: fc.integer({ min: 0, max: 11 }),
        size: fc.integer({ min: 1, max: 80 }),
        variable: fc.boolean(),
        overlay: fc.boolean(),
        critical: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    settings: fc.record({
      side: fc.constantFrom('bottom' as const, 'top' as const),
      grow: fc.constantFrom('bottom' as const, 'top' as const),
      retries: fc.boolean(),
      criterion: fc.constantFrom('no-growth' as const, 'smallest-heap' as const, 'least-fragmentation' as const, 'most-fast' as const),
    }),
  });
  const regions: MemoryRegion[] = [
    { name: 'fast', alignment: 4, fast: true },
    { name: 'slow', alignment: 16, fast: false },
  ];

  it('always yields valid plans at or above the bound', () => {
    fc.assert(
      fc.property(scenario, ({ buffers, requests, settings }) => {
        const problem: PlacementProblem = {
          alignment: 4,
          buffers: buffers.map((b, id) => ({ id, name: `t${id}`, size: b.size * 4, start: b.start, end: b.start + b.len, region: 'fast' })),
        };
        const offsets = assignOffsets(problem, 'm1').offsets;
        const list: Placed[] = problem.buffers.map((b) => [b.name, b.size, b.start, b.end, offsets[b.id]!]);
        const queue = requests.map((q, k) => {
          const region = q.critical ? regions[0]! : regions[1]!;
          return request(q.step, q.size, { node: `op${q.step}`, rule: k, variable: q.variable, overlay: q.overlay, latencyCritical: q.critical, region: region.name, alignment: region.alignment, size: Math.ceil(q.size / region.alignment) * region.alignment });
        });
        place(list, queue, settings, regions);
      }),
      { numRuns: 400 },
    );
  });
});
