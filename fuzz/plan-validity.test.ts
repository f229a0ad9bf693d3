// The independent plan check of the campaigns: a true plan passes; overlap,
// a lowered peak, an alias to nothing and inexact numbers are caught; and it
// holds at more than 20,000 buffers live at once, where one overlap among
// them is still found.

import { describe, expect, it } from 'vitest';
import { planProblems, type PlanLike } from './plan-validity';

type B = PlanLike['buffers'][number];

function plan(buffers: B[], peak = Math.max(0, ...buffers.map((b) => b.offset + b.size))): PlanLike {
  return { peak, lowerBound: 0, buffers, regions: [{ name: 'sram', peak }] };
}

const buffer = (id: number, offset: number, size = 16, start = 0, end = 2): B => ({ id, name: `b${id}`, size, start, end, offset, region: 'sram' });

describe('planProblems', () => {
  it('passes a true plan: buffers live together side by side, apart in time at the same offset', () => {
    expect(planProblems(plan([buffer(0, 0), buffer(1, 16), buffer(2, 0, 16, 2, 3)]))).toEqual([]);
  });

  it('catches overlap, a lowered peak, an alias to nothing, and inexact numbers', () => {
    expect(planProblems(plan([buffer(0, 0), buffer(1, 8)])).join()).toMatch(/overlap/);
    expect(planProblems(plan([buffer(0, 0), buffer(1, 16)], 16)).join()).toMatch(/peak/);
    expect(planProblems(plan([buffer(0, 0), { ...buffer(1, 0), alias: { parent: 9, offset: 0 } }])).join()).toMatch(/aliases a buffer/);
    expect(planProblems(plan([buffer(0, 0, 1.5)])).join()).toMatch(/size 1.5/);
    expect(planProblems({ ...plan([buffer(0, 0)]), lowerBound: 99 }).join()).toMatch(/lower bound 99 above peak 16/);
    expect(planProblems(null)).toEqual(['the plan has no buffers or regions list']);
  });

  it('checks a plan of 25,000 buffers live at once, and finds the one overlap among them', () => {
    const buffers = Array.from({ length: 25_000 }, (_, i) => buffer(i, i * 16, 16, i % 3, 9));
    expect(planProblems(plan(buffers))).toEqual([]);
    buffers[20_000] = { ...buffers[20_000]!, offset: buffers[12_345]!.offset + 8 };
    expect(planProblems(plan(buffers)).join()).toMatch(/buffers 12345 \(b12345\) and 20000 \(b20000\) are live together and overlap/);
  });
});
