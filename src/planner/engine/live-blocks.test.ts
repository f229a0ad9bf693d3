// The run-based live-block list against a plain scan of every block: through
// random inserts (at the gap it finds) and removals, first fit and tightest
// fit give the same base, with and without alignment.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveBlocks } from './live-blocks';
import { alignBase, type PreparedRegion } from './prepared';

/** Only the alignment fields, which is all a gap query reads. */
function alignments(modulus: readonly number[], phase: readonly number[]): PreparedRegion {
  return { itemModulus: Float64Array.from(modulus), itemPhase: Float64Array.from(phase) } as unknown as PreparedRegion;
}

/** The gap rule over every block, sorted by offset. */
function scannedGap(blocks: readonly (readonly [number, number])[], prep: PreparedRegion, item: number, extent: number, tightest: boolean): number {
  let from = alignBase(prep, item, 0);
  let best = NaN;
  let bestSlack = Infinity;
  for (const [lo, hi] of blocks) {
    if (lo >= from + extent) {
      if (!tightest) return from;
      if (lo - from < bestSlack) {
        bestSlack = lo - from;
        best = from;
      }
    }
    if (hi > from) from = alignBase(prep, item, hi);
  }
  return best === best ? best : from;
}

const op = fc.record({
  remove: fc.nat(3), // 0: remove a block (a quarter of the time), so a few hundred stay live
  pick: fc.nat(),
  extent: fc.integer({ min: 1, max: 12 }),
  modulus: fc.constantFrom(1, 1, 4, 16),
  phase: fc.nat(15),
  tightest: fc.boolean(),
});

describe('LiveBlocks', () => {
  it('finds the gap a scan of every block finds, through random inserts and removals', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 600 }), (ops) => {
        const prep = alignments(ops.map((o) => o.modulus), ops.map((o) => o.phase % o.modulus));
        const live = new LiveBlocks();
        const blocks: [number, number, number][] = []; // lo, hi, item; sorted by lo
        ops.forEach((o, item) => {
          if (o.remove === 0 && blocks.length > 0) {
            const [lo, , owner] = blocks.splice(o.pick % blocks.length, 1)[0]!;
            live.remove(lo, owner);
            return;
          }
          const base = live.gap(prep, item, o.extent, o.tightest);
          expect(base).toBe(scannedGap(blocks.map(([lo, hi]) => [lo, hi] as const), prep, item, o.extent, o.tightest));
          live.insert(base, base + o.extent, item);
          blocks.push([base, base + o.extent, item]);
          blocks.sort((a, b) => a[0] - b[0]);
        });
      }),
      { numRuns: 200 },
    );
  });
});
