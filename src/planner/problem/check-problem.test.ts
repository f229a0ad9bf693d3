import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/random';
import { checkProblem, resolveCheckedProblem } from './check-problem';
import { conflicts, type PlacementProblem, type PlanBuffer } from './problem';

/** Random fixed buffers in two regions, some overlapping in time and address. */
function fixedProblem(count: number, seed: number): PlacementProblem {
  const random = seededRandom(seed);
  const buffers: PlanBuffer[] = Array.from({ length: count }, (_, id) => {
    const start = Math.floor(random() * 40);
    return {
      id,
      name: `f${id}`,
      size: Math.floor(random() * 64),
      start,
      end: start + 1 + Math.floor(random() * 8),
      fixedOffset: Math.floor(random() * 1024),
      ...(random() < 0.3 && { region: 'second' }),
    };
  });
  return { buffers };
}

/** Every pair of conflicting fixed buffers whose ranges overlap, as "a,b" with a < b. */
function overlappingPairs(problem: PlacementProblem): Set<string> {
  const pairs = new Set<string>();
  const { buffers } = problem;
  for (const a of buffers) {
    for (const b of buffers) {
      if (a.id >= b.id || !conflicts(a, b)) continue;
      if (a.fixedOffset! < b.fixedOffset! + b.size && b.fixedOffset! < a.fixedOffset! + a.size) pairs.add(`${a.id},${b.id}`);
    }
  }
  return pairs;
}

/** The pairs the check names, from its messages. */
function namedPairs(problem: PlacementProblem): Set<string> {
  const names = checkProblem(problem).flatMap((issue) => [...issue.matchAll(/buffers (\d+) \(f\d+\) and (\d+) \(f\d+\)/g)]);
  return new Set(names.map((m) => [Number(m[1]), Number(m[2])].sort((x, y) => x - y).join(',')));
}

describe('fixed offsets that overlap', () => {
  it('are found exactly as a pair-by-pair check finds them, region by region, up to ten named', () => {
    for (let seed = 0; seed < 300; seed++) {
      const problem = fixedProblem(2 + (seed % 12), seed);
      const expected = overlappingPairs(problem);
      const named = namedPairs(problem);
      if (expected.size <= 10) expect([...named].sort()).toEqual([...expected].sort());
      else expect(named.size).toBe(10);
      for (const pair of named) expect(expected.has(pair)).toBe(true);
    }
  });

  it('leave thousands of buffers live at once with disjoint fixed offsets alone', () => {
    const buffers: PlanBuffer[] = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `f${id}`, size: 16, start: id % 7, end: 20_000, fixedOffset: 16 * id }));
    expect(() => resolveCheckedProblem({ buffers })).not.toThrow();
    const clash = buffers.map((b) => (b.id === 19_999 ? { ...b, fixedOffset: 8 } : b));
    expect(() => resolveCheckedProblem({ buffers: clash })).toThrow(/buffers 0 \(f0\) and 19999 \(f19999\) are live together and their fixed offsets overlap/);
  });
});
