// Growth's shortcut against the plain assessment: on random residual conv
// nets, random on-chip sizes and random runs of steps, rulesHold agrees with
// assess(...).capacityHolds and allHold, capacityFailures with its failing
// capacity verdicts, and tileFitsSram with the placed tile plan.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convNet, fusionSettings } from '../testing/conv-net';
import { unitContext } from './builder';
import { assess, candidateOf, capacityFailures, failures, rulesHold } from './candidate';
import { tileFitsSram, tileSramBytes } from './rules';

/** A chain of `blocks` residual blocks (Conv 3×3, Relu, Conv, Add, Relu) with a strided Conv every third block. */
function residualNet(blocks: number, channels: number, size: number) {
  const net = convNet([2, channels, size, size]);
  let last = 'x';
  for (let b = 0; b < blocks; b++) {
    net.conv(`b${b}c1`, last, { out: channels, k: 3, p: 1 }).op('Relu', `b${b}r1`, `b${b}c1`);
    net.conv(`b${b}c2`, `b${b}r1`, { out: channels, k: 3, p: 1 }).op('Add', `b${b}a`, `b${b}c2`, last).op('Relu', `b${b}r2`, `b${b}a`);
    last = `b${b}r2`;
    if (b % 3 === 2 && net.shape(last)[2] >= 4) {
      net.conv(`b${b}s`, last, { out: channels, k: 3, s: 2, p: 1 });
      last = `b${b}s`;
    }
  }
  return net.output(last).graph();
}

describe('rulesHold', () => {
  it('agrees with the plain assessment on random runs of steps', () => {
    let holding = 0;
    let failing = 0;
    let whole = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 4, max: 24 }),
        fc.record({ sramBytes: fc.integer({ min: 256, max: 60000 }), nramBytes: fc.integer({ min: 128, max: 30000 }), wramBytes: fc.integer({ min: 64, max: 20000 }), coresPerCluster: fc.integer({ min: 1, max: 4 }) }),
        fc.record({
          maxSmallMaps: fc.integer({ min: 1, max: 4 }),
          split: fc.constantFrom('large-to-small', 'small-to-large'),
          redundancyPercent: fc.integer({ min: 0, max: 300 }),
          minMainLayers: fc.integer({ min: 1, max: 3 }),
          singleOutput: fc.boolean(),
          mainMainNonMain: fc.boolean(),
          scalarThenVector: fc.boolean(),
        }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 12 }),
        (blocks, channels, size, fusion, rules, runs) => {
          const g = residualNet(blocks, channels, size);
          const ctx = unitContext(g, g.nodes.map((_, i) => i), fusionSettings(fusion, rules));
          for (const [x, y] of runs) {
            const first = x % g.nodes.length;
            const last = first + (y % (g.nodes.length - first));
            const a = assess(ctx, first, last);
            expect(rulesHold(ctx, first, last)).toBe(a.capacityHolds);
            expect(rulesHold(ctx, first, last, true)).toBe(a.allHold);
            expect(capacityFailures(ctx, first, last)).toBe(failures(a, true));
            if (a.allHold) whole++;
            if (a.capacityHolds) holding++;
            else failing++;
            const tile = a.candidate.tile;
            if (tile === undefined) continue;
            const peak = tileSramBytes(a.candidate.unit, tile);
            for (const limit of [peak, peak + 1, Math.floor(peak / 2), peak * 2, fusion.sramBytes]) {
              const fresh = candidateOf(ctx, first, last).unit; // no plan placed for it yet
              expect(tileFitsSram(fresh, tile, limit)).toBe(peak < limit);
            }
          }
        },
      ),
      { numRuns: 120, seed: 20261124 },
    );
    expect(holding).toBeGreaterThan(50);
    expect(failing).toBeGreaterThan(50);
    expect(whole).toBeGreaterThan(20);
  });
});
