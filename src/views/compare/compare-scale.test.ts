import { describe, expect, it } from 'vitest';
import type { BufferChange, Cause, PlanDiff } from '../../planner/diff/diff-plans';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { heapData } from '../heap/heap-data';
import { causeFocus, changeFocus, deltaTone, focusedRegion, highlightOf, sharedScale, signedBytes, sizeDelta } from './compare-scale';

function buffer(id: number, name: string, size: number, region = 'ram'): PlannedBuffer {
  return { id, name, kind: 'activation', size, bytes: size, start: id, end: id + 2, offset: 0, region };
}

function plan(buffers: PlannedBuffer[], regions: { name: string; peak: number }[]): ModelPlan {
  return {
    peak: regions.reduce((s, r) => s + r.peak, 0),
    regions: regions.map((r) => ({ ...r, lowerBound: r.peak })),
    buffers,
    steps: [],
  } as unknown as ModelPlan;
}

const change = (c: Partial<BufferChange> & Pick<BufferChange, 'status'>): BufferChange => c;

describe('one address scale for two plans', () => {
  it('gives a region in both plans the larger extent, and leaves a region of one plan as it is', () => {
    const a = heapData(plan([buffer(0, 'x', 100), buffer(1, 'w', 50, 'sram')], [{ name: 'ram', peak: 100 }, { name: 'sram', peak: 50 }]));
    const b = heapData(plan([buffer(0, 'x', 400)], [{ name: 'ram', peak: 400 }]));
    const [wa, wb] = sharedScale(a, b);
    expect(wa.lanes.map((l) => [l.name, l.extent])).toEqual([['ram', 400], ['sram', 50]]);
    expect(wb.lanes.map((l) => [l.name, l.extent])).toEqual([['ram', 400]]);
    // The rest of the view model is shared, not copied.
    expect(wa.offset).toBe(a.offset);
  });

  it('finds the region holding most of the bytes pointed at, for a side that draws one region at a time', () => {
    const p = plan([buffer(0, 'x', 100, 'sram'), buffer(1, 'y', 300, 'ext-ram'), buffer(2, 'z', 50, 'sram')], [{ name: 'sram', peak: 150 }, { name: 'ext-ram', peak: 300 }]);
    expect(focusedRegion(p, ['x', 'z'])).toBe('sram');
    expect(focusedRegion(p, ['x', 'y', 'z'])).toBe('ext-ram');
    expect(focusedRegion(p, ['gone'])).toBeUndefined();
    expect(focusedRegion(p, undefined)).toBeUndefined();
  });

  it('emphasizes buffers by tensor name', () => {
    const data = heapData(plan([buffer(0, 'x', 10), buffer(1, 'y', 10), buffer(2, 'z', 10)], [{ name: 'ram', peak: 30 }]));
    expect([...highlightOf(data, ['z', 'x'])!]).toEqual([1, 0, 1]);
    expect(highlightOf(data, undefined)).toBeUndefined();
  });
});

describe('what a cause points at', () => {
  const diff = {
    buffers: [
      change({ status: 'grown', nameA: 'conv_out', nameB: 'conv_out', node: 'conv' }),
      change({ status: 'grown', nameA: 'old_name', nameB: 'new_name', node: 'relu' }),
      change({ status: 'new', nameB: 'extra', node: 'pad' }),
      change({ status: 'same', nameA: 'other', nameB: 'other' }),
    ],
  } as unknown as PlanDiff;

  it('finds each named buffer on both sides, through renames, and keeps the nodes', () => {
    const cause = { kind: 'dim-changed', bytes: 10, summary: 's', buffers: ['conv_out', 'new_name', 'extra'], nodes: ['conv', 'relu'], regions: [] } as Cause;
    expect(causeFocus(diff, cause)).toEqual({ label: 's', buffersA: ['conv_out', 'old_name'], buffersB: ['conv_out', 'new_name', 'extra'], nodes: ['conv', 'relu'] });
  });

  it('points a buffer change at its two names and its node', () => {
    expect(changeFocus(diff.buffers[1]!)).toEqual({ label: 'new_name: grown', buffersA: ['old_name'], buffersB: ['new_name'], nodes: ['relu'] });
  });

  it('signs byte deltas', () => {
    expect([signedBytes(1536), signedBytes(-2048), signedBytes(0)]).toEqual(['+1.50 KiB', '−2.00 KiB', '0 B']);
  });

  it('does not colour a smaller peak as better when that side is the one over its limits', () => {
    // both fit, or neither: the peak decides
    expect([deltaTone(-5, true, true), deltaTone(5, true, true), deltaTone(-5, false, false), deltaTone(0, true, true)]).toEqual(['diff-down', 'diff-up', 'diff-down', '']);
    // B lower but over its limit while A fits; B higher but fits while A is over
    expect([deltaTone(-5, true, false), deltaTone(5, false, true)]).toEqual(['', '']);
    // the smaller side also fits: the colour stands
    expect([deltaTone(-5, false, true), deltaTone(5, true, false)]).toEqual(['diff-down', 'diff-up']);
  });
});

describe('sizeDelta', () => {
  it('counts what a scratch buffer given free space asks, not the free space', () => {
    expect(sizeDelta({ status: 'new', nameB: 'conv:workspace', sizeB: 7_653_120, requestedB: 2048 })).toBe(2048);
    expect(sizeDelta({ status: 'gone', nameA: 'conv:workspace', sizeA: 1_000_000, requestedA: 2048 })).toBe(-2048);
    expect(sizeDelta({ status: 'grown', nameA: 't', nameB: 't', sizeA: 10, sizeB: 30 })).toBe(20);
  });
});
