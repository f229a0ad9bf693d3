// Properties of template fusion units on random conv nets and random
// on-chip sizes: the independent checker accepts every unit the builder
// makes, and the plan with them stays valid with consistent traffic.
// Fusion does not always lower traffic: the redundancy rule allows halo
// loads up to its threshold, which may exceed what the unit keeps on chip.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planModel } from '../../plan';
import { parseTarget } from '../../targets/parse';
import { convNet } from '../testing/conv-net';
import { buildTfus } from './builder';
import { checkUnits } from './check';

type Op =
  | { readonly kind: 'conv'; readonly k: number; readonly s: number; readonly p: number; readonly d: number; readonly out: number }
  | { readonly kind: 'relu' }
  | { readonly kind: 'pool' }
  | { readonly kind: 'residual' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('conv' as const), k: fc.constantFrom(1, 3, 5), s: fc.constantFrom(1, 1, 2), p: fc.integer({ min: 0, max: 2 }), d: fc.constantFrom(1, 1, 2), out: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'relu' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pool' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'residual' as const }) },
);

/** A net from the ops (ops that do not fit the map are skipped), and its layer count. */
function netOf(input: [number, number, number, number], ops: readonly Op[]) {
  const net = convNet(input);
  let last = 'x';
  let count = 0;
  ops.forEach((o, i) => {
    const [, c, h, w] = net.shape(last);
    const name = `l${i}`;
    if (o.kind === 'conv') {
      if (Math.min(h, w) + 2 * o.p - o.d * (o.k - 1) < 1 || o.p >= o.k) return;
      net.conv(name, last, { out: o.out, k: o.k, s: o.s, p: o.p, d: o.d });
    } else if (o.kind === 'relu') net.op('Relu', name, last);
    else if (o.kind === 'pool') {
      if (Math.min(h, w) < 2) return;
      net.pool(name, last);
    } else {
      // a residual: conv 3×3 keeping the shape, added to its input
      if (Math.min(h, w) < 3) return;
      net.conv(`${name}c`, last, { out: c, k: 3, p: 1 }).op('Add', name, `${name}c`, last);
      count++;
    }
    last = name;
    count++;
  });
  return { net: net.output(last), count };
}

const settingsDoc = fc.record({
  sramBytes: fc.integer({ min: 256, max: 40000 }),
  nramBytes: fc.integer({ min: 128, max: 20000 }),
  wramBytes: fc.integer({ min: 64, max: 20000 }),
  coresPerCluster: fc.integer({ min: 1, max: 4 }),
  rules: fc.record({
    start: fc.constantFrom('first-unfused', 'first-conv-pool'),
    direction: fc.constantFrom('forward', 'backward-then-forward'),
    preferBlocks: fc.boolean(),
    minMainLayers: fc.integer({ min: 1, max: 2 }),
    mainMainNonMain: fc.constantFrom(false, false, true),
    redundancyPercent: fc.integer({ min: 0, max: 300 }),
    strideRedundancy: fc.integer({ min: 2, max: 10 }),
    maxSmallMaps: fc.integer({ min: 1, max: 4 }),
    split: fc.constantFrom('large-to-small', 'small-to-large'),
  }),
});

describe('template fusion units on random conv nets', () => {
  it('are accepted by the independent checker, and the fused plan is valid', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 3, max: 20 }), fc.integer({ min: 3, max: 20 })),
        fc.array(op, { minLength: 2, maxLength: 8 }),
        settingsDoc,
        (input, ops, doc) => {
          const { net, count } = netOf(input, ops);
          if (count < 2) return;
          const target = parseTarget({ name: 'p', regions: [{ name: 'dram', alignment: 4 }, { name: 'sram', fast: true }], fusion: doc, planning: { activationRegion: 'dram' } });
          const g = net.graph();
          const result = buildTfus(g, g.nodes.map((_, i) => i), target.fusion!);
          expect(checkUnits(g, result.units, target.fusion!)).toEqual([]);
          const plan = planModel(net.model(), target);
          expect(plan.valid).toBe(true);
          expect(plan.fusionUnits.reduce((sum, u) => sum + u.trafficSaved, 0)).toBe(plan.traffic.before - plan.traffic.after);
          // the redundancy threshold may let halo loads outweigh the savings: the plan says so
          const costly = plan.diagnostics.filter((d) => d.code === 'fusion-costs-traffic').length;
          expect(costly).toBe(plan.fusionUnits.filter((u) => u.trafficSaved < 0).length);
          expect(plan.regions.find((r) => r.name === 'sram')!.peak).toBeLessThan(doc.sramBytes);
        },
      ),
      { numRuns: 150, seed: 20261121 },
    );
  });
});
