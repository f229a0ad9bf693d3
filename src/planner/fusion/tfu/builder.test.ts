import { describe, expect, it } from 'vitest';
import type { InferredGraph } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import type { FusionUnitCore } from '../fusion-types';
import { convNet, fusionSettings, reluChain, residualNet } from '../testing/conv-net';
import { buildTfus } from './builder';
import { checkUnits } from './check';

const fileOrder = (g: InferredGraph) => g.nodes.map((_, i) => i);
const build = (g: InferredGraph, s: FusionSettings) => buildTfus(g, fileOrder(g), s);
const layersOf = (units: readonly FusionUnitCore[]) => units.map((u) => u.nodes);

/** x -> r0 Relu -> c1 (3×3) -> r1 Relu -> c2 (3×3). */
const reluFirst = () =>
  convNet([1, 4, 8, 8]).op('Relu', 'r0', 'x').conv('c1', 'r0', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').conv('c2', 'r1', { out: 4, k: 3, p: 1 }).output('c2').graph();

describe('start rules and direction', () => {
  it('starts at the first unfused layer', () => {
    const r = build(reluFirst(), fusionSettings({}, { start: 'first-unfused', direction: 'forward' }));
    expect(layersOf(r.units)).toEqual([['r0', 'c1', 'r1', 'c2']]);
  });

  it('starts at the first Conv/Pool and, forwards only, leaves the layers before it out', () => {
    const r = build(reluFirst(), fusionSettings({}, { start: 'first-conv-pool', direction: 'forward' }));
    expect(layersOf(r.units)).toEqual([['c1', 'r1', 'c2']]);
    expect(r.notes.get(0)).toBe('not a start layer (units start at a Conv or Pool) and no unit grew over it');
  });

  it('fuses backwards first to pull in the unfused layers before the Conv', () => {
    const r = build(reluFirst(), fusionSettings({}, { start: 'first-conv-pool', direction: 'backward-then-forward' }));
    expect(layersOf(r.units)).toEqual([['r0', 'c1', 'r1', 'c2']]);
  });
});

describe('growth and shrinking', () => {
  /** Three 3×3 convs, 576 B of weights each. */
  const threeConvs = (...outputs: string[]) =>
    convNet([1, 4, 8, 8])
      .conv('c1', 'x', { out: 4, k: 3, p: 1 })
      .conv('c2', 'c1', { out: 4, k: 3, p: 1 })
      .conv('c3', 'c2', { out: 4, k: 3, p: 1 })
      .output('c3', ...outputs)
      .graph();

  it('stops growing at the first capacity rule that fails and says so', () => {
    const r = build(threeConvs(), fusionSettings({ wramBytes: 1200 }, { strideRedundancy: 10 }));
    expect(layersOf(r.units)).toEqual([['c1', 'c2']]);
    expect(r.units[0]!.boundary[0]).toBe("growth stopped before 'c3': wram: weights exceed WRAM: 1.69 KiB per core > 1.17 KiB");
    expect(r.notes.get(2)).toMatch(/^not added to the unit ending at 'c2': wram/);
  });

  it('shrinks a grown unit until its last layer is its only output', () => {
    const r = build(threeConvs('c1'), fusionSettings());
    expect(layersOf(r.units)).toEqual([['c2', 'c3']]);
    expect(r.notes.get(0)).toMatch(/^no unit can start here: single-output: 'c1' also leaves the unit/);
  });
});

describe('whole blocks before single layers', () => {
  const residual = () => residualNet().graph();

  it('takes the whole residual block, whose branches excuse the stride redundancy', () => {
    const r = build(residual(), fusionSettings({}, { preferBlocks: true }));
    expect(layersOf(r.units)).toEqual([['c0', 'c1', 'c2', 'add', 'r']]);
    expect(r.units[0]!.rules.find((v) => v.rule === 'stride-redundancy')!.detail).toBe(
      'kernel - stride sums H 6, W 6 > 4, allowed: a whole block is inside',
    );
  });

  it('grows layer by layer when blocks are not preferred, and stops inside the block', () => {
    const r = build(residual(), fusionSettings({}, { preferBlocks: false }));
    expect(layersOf(r.units)).toEqual([['c1', 'c2', 'add', 'r']]);
  });
});

describe('tile search orders', () => {
  /** One 3×3 conv and a Relu on a 64-row map: the tile is sized by SRAM. */
  const tall = () => convNet([1, 4, 64, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).conv('c2', 'c1', { out: 4 }).output('c2').graph();

  it('both orders give tiles that fit; small-to-large ends closest to the SRAM size', () => {
    const s = (split: string) => fusionSettings({ sramBytes: 9000 }, { split, redundancyPercent: 1000 });
    const big = build(tall(), s('large-to-small')).units[0]!;
    const small = build(tall(), s('small-to-large')).units[0]!;
    expect(big.tile!.mode).toBe('large-map');
    expect(small.tile!.rows).toBeGreaterThanOrEqual(big.tile!.rows);
    for (const [u, split] of [[big, 'large-to-small'], [small, 'small-to-large']] as const) {
      expect(u.onChip.sram).toBeLessThan(9000);
      expect(checkUnits(tall(), [u], s(split))).toEqual([]);
    }
  });
});

describe('checkUnits (independent checker)', () => {
  const g = reluChain([1, 4, 16, 16]).graph();
  const s = fusionSettings({ sramBytes: 6000 }, { redundancyPercent: 1000 });
  const unit = build(g, s).units[0]!;

  it('agrees with the builder on its units', () => {
    expect(unit.tile!.mode).toBe('large-map');
    expect(checkUnits(g, [unit], s)).toEqual([]);
  });

  it('finds a tile buffer too small for the rows its windows read', () => {
    const shrunk = { ...unit, onChipBuffers: unit.onChipBuffers.map((b) => (b.name === 'x' ? { ...b, size: b.size - 64 } : b)) };
    expect(checkUnits(g, [shrunk], s).map((v) => v.rule)).toContain('sram');
  });

  it('finds every rule the settings tighten', () => {
    const tight = fusionSettings({ sramBytes: 6000, wramBytes: 100, nramBytes: 100 }, { redundancyPercent: 1, minMainLayers: 3 });
    expect(new Set(checkUnits(g, [unit], tight).map((v) => v.rule))).toEqual(new Set(['wram', 'nram', 'redundancy', 'main-layers']));
  });

  it('finds small-map tiles that cannot pipeline the next map', () => {
    const two = reluChain([2, 4, 8, 8]).graph();
    const one = fusionSettings({}, { maxSmallMaps: 1 });
    const [u] = build(two, one).units;
    expect([u!.tile!.mode, u!.tile!.maps, u!.onChip.sram]).toEqual(['small-map', 1, 2048]);
    expect(checkUnits(two, [u!], one)).toEqual([]);
    // the tile plan (2 KiB) fits 2.5 KiB, but 576 B of weights + this map + the next (1 KiB each) do not
    const tight = fusionSettings({ sramBytes: 2560 }, { maxSmallMaps: 1 });
    expect(checkUnits(two, [u!], tight).map((v) => v.message)).toEqual(["'c1' needs 2624 B of SRAM > 2560 B"]);
  });

  it('finds a layer in two units', () => {
    expect(checkUnits(g, [unit, { ...unit, id: 1 }], s).map((v) => v.rule)).toContain('disjoint');
  });
});
