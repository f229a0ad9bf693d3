// The run-based live-block list against a plain scan of every block: through
// random inserts (at the gap it finds) and removals, first fit and tightest
// fit give the same base, with and without alignment.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN } from './block-run';
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
  remove: fc.nat(3), // which ops remove a block is up to each test
  pick: fc.nat(),
  extent: fc.integer({ min: 1, max: 12 }),
  modulus: fc.constantFrom(1, 1, 4, 16),
  phase: fc.nat(15),
  tightest: fc.boolean(),
});
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Runs `ops` against a LiveBlocks and against a plain scan, expecting the same base for every gap query. */
function agreesWithScan(ops: readonly Op[], removeWhen: (o: Op) => boolean): void {
  const prep = alignments(ops.map((o) => o.modulus), ops.map((o) => o.phase % o.modulus));
  const live = new LiveBlocks(ops.length);
  const blocks: [number, number, number][] = []; // lo, hi, item; sorted by lo
  ops.forEach((o, item) => {
    if (removeWhen(o) && blocks.length > 0) {
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
}

describe('LiveBlocks', () => {
  it('finds the gap a scan of every block finds, through random inserts and removals', () => {
    // a quarter of the ops remove a block, so a few hundred stay live: several runs
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 600 }), (ops) => agreesWithScan(ops, (o) => o.remove === 0)),
      { numRuns: 200 },
    );
  });

  it('still agrees when removals empty whole runs and the list grows and shrinks again', () => {
    // half the ops remove a block: runs split, empty out, are dropped and reused
    fc.assert(
      fc.property(fc.array(op, { minLength: 500, maxLength: 2500 }), (ops) => agreesWithScan(ops, (o) => o.remove < 2)),
      { numRuns: 20 },
    );
  });

  it('finds the one hole in a packed stack of several runs, wherever it is', () => {
    // a hole at a run's first or last block lies below the next run: the tree must see it there
    const count = 4 * RUN + 7;
    const prep = alignments(new Array<number>(count + 1).fill(1), new Array<number>(count + 1).fill(0));
    const live = new LiveBlocks(count + 1);
    for (let item = 0; item < count; item++) live.insert(item, item + 1, item);
    for (let hole = 0; hole < count; hole++) {
      live.remove(hole, hole);
      expect([live.gap(prep, count, 1, false), live.gap(prep, count, 1, true), live.gap(prep, count, 2, true)]).toEqual([hole, hole, hole === count - 1 ? hole : count]); // two bytes fit only above the stack, or in the top hole
      live.insert(hole, hole + 1, hole);
    }
  });
});
