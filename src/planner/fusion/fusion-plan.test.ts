import { describe, expect, it } from 'vitest';
import { planModel, type ModelPlan } from '../plan';
import { parseTarget } from '../targets/parse';
import { convNet, fusionTarget, reluChain } from './testing/conv-net';

const inRegion = (plan: ModelPlan, region: string) => plan.buffers.filter((b) => b.region === region);
const regionPeak = (plan: ModelPlan, name: string) => plan.regions.find((r) => r.name === name)!.peak;

/** x [1,4,8,8] -> c1 (3×3) -> r1 Relu -> c2 (3×3): every tensor 1 KiB. */
const chain = () => reluChain().model();

describe('template fusion units in the plan', () => {
  const plan = planModel(chain(), fusionTarget({}));

  it('moves the tensors inside the unit from DRAM to the unit’s SRAM plan', () => {
    expect(plan.valid).toBe(true);
    expect(plan.fusionUnits.map((u) => [u.name, u.kind, u.nodes, u.mode, u.internal, u.region])).toEqual([
      ['tfu0', 'tfu', ['c1', 'r1', 'c2'], 'small-map', ['c1', 'r1'], 'sram'],
    ]);
    expect(inRegion(plan, 'dram').map((b) => b.name)).toEqual(['x', 'c2']);
    expect(inRegion(plan, 'sram').map((b) => [b.name, b.size, b.start, b.end]).sort()).toEqual([
      ['c1', 1024, 0, 2],
      ['r1', 1024, 1, 3],
      ['tfu0:c2', 1024, 2, 3],
      ['tfu0:x', 1024, 0, 1],
    ]);
    expect(regionPeak(plan, 'sram')).toBe(2048);
    expect(plan.fusionUnits[0]!.onChipBytes).toBe(2048);
  });

  it('counts the DRAM traffic the unit saves: two tensors written and read back', () => {
    // before: x (host write, read), c1, r1 (write, read), c2 (write, host read): 8 KiB; after: x and c2 only
    expect(plan.traffic).toEqual({ before: 8192, after: 4096 });
    expect(plan.fusionUnits[0]!.traffic).toEqual({ before: 6144, after: 2048 });
    expect(plan.fusionUnits[0]!.trafficSaved).toBe(4096);
  });

  it('explains every layer', () => {
    expect(plan.fusionExplanations).toEqual([
      { node: 'c1', unit: 'tfu0', reason: "in tfu0 (3 layers, small-map tile of 1 whole map(s)): its output 'c1' stays on chip" },
      { node: 'r1', unit: 'tfu0', reason: "in tfu0 (3 layers, small-map tile of 1 whole map(s)): its output 'r1' stays on chip" },
      { node: 'c2', unit: 'tfu0', reason: "last layer of tfu0 (3 layers, small-map tile of 1 whole map(s)): writes 'c2' to DRAM" },
    ]);
    expect(plan.fusionUnits[0]!.rules).toContain('wram: weights fit WRAM: 1.13 KiB per core <= 1.00 MiB');
  });

  it('is off with fusion disabled, so both plans compare', () => {
    const off = planModel(chain(), fusionTarget({ enabled: false }));
    expect([off.fusionUnits, off.fusionExplanations, off.traffic]).toEqual([[], [], { before: 8192, after: 8192 }]);
    expect(regionPeak(off, 'dram')).toBeGreaterThan(regionPeak(plan, 'dram'));
  });

  it('says why a layer is left out', () => {
    const tight = planModel(chain(), fusionTarget({ wramBytes: 600 }));
    expect(tight.fusionUnits).toEqual([]);
    expect(tight.fusionExplanations[0]).toEqual({
      node: 'c1',
      reason: "no unit can start here: main-layers: 1 main layer(s) < 2 (growth stopped before 'c2': wram: weights exceed WRAM: 1.13 KiB per core > 600 B)",
    });
  });

  it('gives a DRAM buffer written in place into a fused Concat its own bytes', () => {
    const m = convNet([1, 4, 8, 8]).op('Relu', 'r0', 'x').conv('c1', 'r0', { out: 4, k: 3, p: 1 }).concat('cat', 'c1', 'r0').conv('c2', 'cat', { out: 4 }).output('c2').model();
    const fused = planModel(m, fusionTarget({ rules: { start: 'first-conv-pool', direction: 'forward' } }));
    expect(fused.valid).toBe(true);
    expect(fused.fusionUnits.map((u) => u.nodes)).toEqual([['c1', 'cat', 'c2']]);
    const r0 = fused.buffers.find((b) => b.name === 'r0')!;
    expect([r0.region, r0.alias]).toEqual(['dram', undefined]);
  });
});

describe('a unit whose halos cost more than it saves', () => {
  it('is reported: halo loads (83 % redundancy) outweigh the one tensor kept on chip', () => {
    // x [1,1,4,9] (144 B) -> c (3×3, 56 B) -> r; 1×6 tiles load 6 rows × 11 columns of x: 264 B
    const m = convNet([1, 1, 4, 9]).conv('c', 'x', { out: 1, k: 3 }).op('Relu', 'r', 'c').output('r').model();
    const plan = planModel(m, fusionTarget({ sramBytes: 256, nramBytes: 128, wramBytes: 64, rules: { minMainLayers: 1, redundancyPercent: 84 } }));
    expect(plan.fusionUnits.map((u) => [u.nodes, u.tile!.rows, u.tile!.cols, u.traffic, u.trafficSaved])).toEqual([[['c', 'r'], 1, 6, { before: 312, after: 320 }, -8]]);
    expect(plan.traffic).toEqual({ before: 512, after: 520 });
    expect(plan.diagnostics).toContainEqual({
      code: 'fusion-costs-traffic',
      message: 'tfu0 moves 8 more DRAM bytes than its layers unfused: its tile loads (halo redundancy 83.3 %) outweigh the tensors it keeps on chip',
      node: 'c',
    });
  });
});

describe('depthwise + pointwise units in the plan', () => {
  /** x [1,8,16,16] -> dw (3×3) -> relu -> pw (1×1, 16 out); the depthwise result is 8 KiB. */
  const block = () => convNet([1, 8, 16, 16]).dw('dw', 'x').op('Relu', 'relu', 'dw').conv('pw', 'relu', { out: 16 }).output('pw').model();
  const dwTarget = (fields: Readonly<Record<string, unknown>> = {}) => fusionTarget({ templateUnits: false, dwPwCacheBytes: 2048, ...fields });
  const plan = planModel(block(), dwTarget());
  const off = planModel(block(), dwTarget({ enabled: false }));

  it('replaces the depthwise result with a cache buffer live only over the fused step', () => {
    expect(plan.fusionUnits.map((u) => [u.name, u.kind, u.nodes, u.mode, u.onChipBytes, u.cache])).toEqual([
      ['dwpw0', 'dw-pw', ['dw', 'relu', 'pw'], 'cache-window', 2048, { capacity: 2048, rowBytes: 512, rows: 4, bytes: 2048, passes: 4 }],
    ]);
    const cache = plan.buffers.find((b) => b.kind === 'cache')!;
    expect([cache.name, cache.size, cache.start, cache.end, cache.region, cache.node]).toEqual(['dwpw0:cache', 2048, 0, 3, 'sram', 'dw']);
    const relu = plan.buffers.find((b) => b.name === 'relu')!;
    expect([relu.region, relu.alias?.parent]).toEqual(['sram', cache.id]);
    expect(inRegion(plan, 'dram').map((b) => b.name)).toEqual(['x', 'pw']);
    expect(regionPeak(plan, 'sram')).toBe(2048);
  });

  it('saves one write and one read of every tensor of the depthwise module, and the DRAM peak does not grow', () => {
    expect(off.traffic.before - plan.traffic.after).toBe(4 * 8192);
    expect(plan.fusionUnits[0]!.trafficSaved).toBe(4 * 8192);
    expect(regionPeak(plan, 'dram')).toBeLessThan(regionPeak(off, 'dram'));
  });

  it('explains the depthwise Conv, the element-wise op and the pointwise Conv', () => {
    expect(plan.fusionExplanations.map((e) => e.reason)).toEqual([
      "depthwise Conv of dwpw0: its result 'dw' never reaches DRAM, a 2.00 KiB cache window of 4 row(s), slid in 4 pass(es) holds it",
      'element-wise op of the depthwise module of dwpw0: runs in place in the cache',
      "pointwise Conv of dwpw0: reads the depthwise result from the cache, writes 'pw' to DRAM",
    ]);
  });
});

describe('fusion settings of the target profile', () => {
  it('names the field of a bad value', () => {
    expect(() => fusionTarget({ onChipRegion: 'l2' })).toThrow('fusion.onChipRegion must name a region (regions: dram, sram), got "l2"');
    expect(() => fusionTarget({ enabled: 'yes' })).toThrow('fusion.enabled must be true or false, got "yes"');
    expect(() => fusionTarget({ templateUnits: 1 })).toThrow('fusion.templateUnits must be true or false, got 1');
  });

  it('defaults to fusion on, template units on, on-chip buffers in the first fast region', () => {
    const t = parseTarget({ name: 't', regions: [{ name: 'dram' }, { name: 'l1', fast: true }], fusion: { sramBytes: 1, nramBytes: 1, wramBytes: 1 } });
    expect([t.fusion!.enabled, t.fusion!.templateUnits, t.fusion!.onChipRegion]).toEqual([true, true, undefined]);
    const m = convNet([1, 8, 16, 16]).dw('dw', 'x').conv('pw', 'dw', { out: 16 }).output('pw').model();
    const plan = planModel(m, parseTarget({ name: 't', regions: [{ name: 'dram' }, { name: 'l1', fast: true }], fusion: { templateUnits: false, sramBytes: 1, nramBytes: 1, wramBytes: 1, dwPwCacheBytes: 4096 } }));
    expect(plan.buffers.find((b) => b.kind === 'cache')!.region).toBe('l1');
  });
});
