import { describe, expect, it } from 'vitest';
import type { InferredGraph } from '../../model/inferred';
import { buildDwPwUnits } from './dw-pw';
import type { FusionUnitCore } from './fusion-types';
import { fusionSettings } from './testing/conv-net';
import { nchwTwin } from './testing/nchw-twin';
import { tfliteNet } from './testing/tflite-net';
import { buildTfus } from './tfu/builder';
import { checkUnits } from './tfu/check';

const order = (g: InferredGraph) => g.nodes.map((_, i) => i);
/** What a unit is, without its rule sentences (which name op types). */
const shapeOf = (u: FusionUnitCore) => ({ ...u, rules: u.rules.map((r) => r.rule), boundary: u.boundary.length });

/** x [1, 12, 10, 3] -> CONV_2D 3×3 -> DEPTHWISE 3×3 /2 -> RELU6 -> CONV_2D 1×1 -> MAX_POOL 2×2 -> CONV_2D 3×3 VALID: H, W and C all differ. */
const chain = () =>
  tfliteNet([1, 12, 10, 3])
    .conv('c1', 'x', { out: 6, k: 3 })
    .dw('dw', 'c1', { s: 2 })
    .op('RELU6', 'r', 'dw')
    .conv('pw', 'r', { out: 5 })
    .pool('p', 'pw', { k: 2 })
    .conv('c2', 'p', { out: 7, k: 3, padding: 'VALID', s: 1 })
    .output('c2')
    .graph();

describe('template fusion units (M2) on TFLite graphs', () => {
  it('tiles an NHWC chain as it tiles its NCHW twin, and the independent checker accepts the units', () => {
    const g = chain();
    const twin = nchwTwin(g);
    // a tight SRAM forces large-map tiles, so rows, halos and channels all count
    for (const sramBytes of [1 << 20, 2048, 900]) {
      const s = fusionSettings({ sramBytes }, { redundancyPercent: 1000, strideRedundancy: 20 });
      const units = buildTfus(g, order(g), s).units;
      expect(units.length, `SRAM ${sramBytes}`).toBeGreaterThan(0);
      expect(units.map(shapeOf)).toEqual(buildTfus(twin, order(twin), s).units.map(shapeOf));
      expect(checkUnits(g, units, s)).toEqual([]);
    }
  });

  it('sizes a whole-map tile from the NHWC dims (hand-computed)', () => {
    // x [1, 12, 10, 3] float32 -> c1 [1, 12, 10, 6] -> c2 [1, 12, 10, 4]: 1440, 2880 and 1920 B
    const g = tfliteNet([1, 12, 10, 3]).conv('c1', 'x', { out: 6, k: 3 }).conv('c2', 'c1', { out: 4, k: 3 }).output('c2').graph();
    const [unit] = buildTfus(g, [0, 1], fusionSettings()).units;
    expect(unit!.tile).toMatchObject({ mode: 'small-map', maps: 1, rows: 12, cols: 10, tiles: 1 });
    // x and c1 live at c1, c1 and c2 at c2: the plan's peak is 2880 + 1920
    expect(unit!.onChip.sram).toBe(4800);
    expect(unit!.inputLoads).toEqual([{ name: 'x', bytes: 1440 }]);
  });

  it('splits the rows of an NHWC map with the halos of its windows (hand-computed)', () => {
    // x [1, 8, 4, 2] float32 -> c1 3×3 SAME -> c2 3×3 SAME: rows of 4 × 2 × 4 B = 32 B each
    const g = tfliteNet([1, 8, 4, 2]).conv('c1', 'x', { out: 2, k: 3 }).conv('c2', 'c1', { out: 2, k: 3 }).output('c2').graph();
    const s = fusionSettings({ sramBytes: 330 }, { redundancyPercent: 1000, strideRedundancy: 20 });
    const [unit] = buildTfus(g, [0, 1], s).units;
    // 2 output rows of c2 need at most 4 rows of c1 and 6 of x: x + c1 = 192 + 128 = 320 B < 330;
    // 3 rows would need 7 rows of x and 5 of c1 (384 B), 4 rows 6 and 5 (352 B)
    expect(unit!.tile).toMatchObject({ mode: 'large-map', rows: 2, cols: 4, tiles: 4 });
    // c2's tile (64 B) reuses x's bytes: they are never live together
    expect(unit!.onChip.sram).toBe(320);
    // x loaded as rows [0,4) [0,6) [2,8) [4,8): 20 rows of 32 B
    expect(unit!.inputLoads).toEqual([{ name: 'x', bytes: 20 * 32 }]);
    expect(checkUnits(g, [unit!], s)).toEqual([]);
  });
});

describe('depthwise + pointwise units (M5) on TFLite graphs', () => {
  it('fuses DEPTHWISE_CONV_2D, its RELU6 and the 1×1 CONV_2D; the cache window holds rows of W × C', () => {
    const g = tfliteNet([1, 12, 10, 6], 'int8').dw('dw', 'x').op('RELU6', 'r', 'dw').conv('pw', 'r', { out: 16 }).output('pw').graph();
    const s = fusionSettings({ dwPwCacheBytes: 200 });
    const [unit] = buildDwPwUnits(g, order(g), s).units;
    expect([unit!.nodes, unit!.internal, unit!.output]).toEqual([['dw', 'r', 'pw'], ['dw', 'r'], 'pw']);
    // a row of the int8 depthwise result: W 10 × C 6 × 1 B; 200 B hold 3 rows; 12 rows in 4 passes
    expect(unit!.cache).toEqual({ capacity: 200, rowBytes: 60, rows: 3, bytes: 180, passes: 4 });
    expect(checkUnits(g, [unit!], s)).toEqual([]);
    const twin = nchwTwin(g);
    expect(buildDwPwUnits(twin, order(twin), s).units.map(shapeOf)).toEqual([shapeOf(unit!)]);
  });

  it('leaves a depthwise result that a squeeze-and-excite also reads unfused, and says why', () => {
    const g = tfliteNet([1, 8, 8, 4]).dw('dw', 'x').pool('se', 'dw', { k: 8, s: 8, padding: 'VALID', op: 'AVERAGE_POOL_2D' }).op('MUL', 'm', 'dw', 'se').conv('pw', 'm', { out: 8 }).output('pw').graph();
    const found = buildDwPwUnits(g, order(g), fusionSettings({ dwPwCacheBytes: 1 << 20 }));
    expect(found.units).toEqual([]);
    expect(found.notes.get(0)).toBe("not fused with a pointwise Conv: the depthwise result is read outside its module by AVERAGE_POOL_2D 'se' and MUL 'm'");
  });
});
