// assignOffsets: strategy names, malformed problems, alias groups, fixed offsets.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { resolveAliasGroups } from '../problem/alias-groups';
import { assignOffsets } from './assign-offsets';
import { checkProblem } from '../problem/check-problem';
import type { Alias, PlacementProblem, PlanBuffer } from '../problem/problem';
import { STRATEGIES, STRATEGY_NAMES } from '../strategies/registry';
import { validatePlan } from './validate-plan';

function buffer(id: number, start: number, end: number, size: number, extra: Partial<PlanBuffer> = {}): PlanBuffer {
  return { id, name: `b${id}`, start, end, size, ...extra };
}

function rejection(problem: PlacementProblem): string {
  try {
    assignOffsets(problem);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('bad-argument');
    return (error as InputError).message;
  }
  throw new Error('expected the problem to be rejected');
}

describe('assignOffsets', () => {
  it('lists every strategy in the registry, and rejects unknown names', () => {
    expect(Object.keys(STRATEGIES).sort()).toEqual([...STRATEGY_NAMES].sort());
    expect(() => assignOffsets({ buffers: [] }, 'fastest')).toThrow(/unknown strategy "fastest"; expected one of best, tflm/);
  });

  it('plans an empty problem', () => {
    const plan = assignOffsets({ buffers: [] });
    expect([plan.offsets, plan.peak, plan.lowerBound, plan.optimal]).toEqual([[], 0, 0, true]);
    expect(validatePlan({ buffers: [] }, plan).valid).toBe(true);
  });

  it.each<[string, PlacementProblem, RegExp]>([
    ['an id that is not the position', { buffers: [buffer(1, 0, 1, 4)] }, /buffer 0 \(b1\) has id 1/],
    ['a negative size', { buffers: [buffer(0, 0, 1, -4)] }, /size -4, not a non-negative integer/],
    ['an empty lifetime', { buffers: [buffer(0, 2, 2, 4)] }, /empty lifetime \[2, 2\)/],
    ['a zero alignment', { buffers: [buffer(0, 0, 1, 4, { alignment: 0 })] }, /alignment 0, not a positive integer/],
    ['a misaligned fixed offset', { buffers: [buffer(0, 0, 1, 4, { alignment: 8, fixedOffset: 4 })] }, /fixed offset 4, not a multiple of 8/],
    ['an alias of a missing buffer', { buffers: [buffer(0, 0, 1, 4)], aliases: [{ buffer: 0, parent: 3, offset: 0 }] }, /does not exist/],
    ['an alias cycle', { buffers: [buffer(0, 0, 1, 4), buffer(1, 0, 1, 4)], aliases: cycle(), }, /cycle/],
    [
      'an alias across regions',
      { buffers: [buffer(0, 0, 1, 4), buffer(1, 0, 1, 4, { region: 'sram' })], aliases: [{ buffer: 1, parent: 0, offset: 0 }] },
      /another region/,
    ],
    [
      'a window that cannot meet its alignment',
      { buffers: [buffer(0, 0, 2, 16, { alignment: 8 }), buffer(1, 0, 1, 4, { alignment: 8 })], aliases: [{ buffer: 1, parent: 0, offset: 4 }] },
      /cannot meet alignment 8/,
    ],
    [
      'fixed offsets that disagree inside a group',
      {
        buffers: [buffer(0, 0, 2, 16, { fixedOffset: 0 }), buffer(1, 0, 1, 4, { fixedOffset: 0 })],
        aliases: [{ buffer: 1, parent: 0, offset: 4 }],
      },
      /disagrees/,
    ],
  ])('rejects %s', (_what, problem, message) => {
    expect(rejection(problem)).toMatch(message);
    expect(checkProblem(problem).length).toBeGreaterThan(0);
  });

  it('follows alias chains and normalises windows that start below their parent', () => {
    // b1 is a window of b0 at -4 (b0 sits 4 bytes into b1's group); b2 a view of b1
    const problem: PlacementProblem = {
      alignment: 4,
      buffers: [buffer(0, 0, 2, 8), buffer(1, 1, 3, 16), buffer(2, 2, 4, 16), buffer(3, 0, 4, 4)],
      aliases: [
        { buffer: 1, parent: 0, offset: -4 },
        { buffer: 2, parent: 1, offset: 0 },
      ],
    };
    const { groups, groupOf } = resolveAliasGroups(problem);
    expect(groups.map((g) => [g.members, g.rel])).toEqual([
      [[0, 1, 2], [4, 0, 0]],
      [[3], [0]],
    ]);
    expect([...groupOf]).toEqual([0, 0, 0, 1]);
    const plan = assignOffsets(problem, 'best');
    expect(plan.offsets).toEqual([4, 0, 0, 16]);
    expect([plan.peak, plan.lowerBound]).toEqual([20, 20]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('moves a whole alias group to the offset one of its members is fixed at', () => {
    const problem: PlacementProblem = {
      buffers: [buffer(0, 0, 2, 8), buffer(1, 1, 3, 4, { fixedOffset: 36 }), buffer(2, 0, 3, 8)],
      aliases: [{ buffer: 1, parent: 0, offset: 4 }],
    };
    for (const strategy of STRATEGY_NAMES) {
      const plan = assignOffsets(problem, strategy);
      expect(plan.offsets.slice(0, 2)).toEqual([32, 36]);
      expect(validatePlan(problem, plan).valid).toBe(true);
    }
    expect(assignOffsets(problem, 'best').offsets[2]).toBe(0);
  });

  it('meets a window alignment through the group base (phase), not by aligning the base alone', () => {
    // the window at +4 needs alignment 8: the base must be 4 mod 8
    const problem: PlacementProblem = {
      buffers: [buffer(0, 0, 2, 12), buffer(1, 0, 1, 4, { alignment: 8 }), buffer(2, 0, 2, 3)],
      aliases: [{ buffer: 1, parent: 0, offset: 4 }],
    };
    const plan = assignOffsets(problem, 'tflm');
    expect(plan.offsets).toEqual([4, 8, 0]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });
});

function cycle(): Alias[] {
  return [
    { buffer: 0, parent: 1, offset: 0 },
    { buffer: 1, parent: 0, offset: 0 },
  ];
}
