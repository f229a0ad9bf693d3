import { describe, expect, it } from 'vitest';
import type { InferredGraph } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import type { Tile } from '../feature-map';
import { candidateOf } from './candidate';
import { convNet, fusionSettings, reluChain } from '../testing/conv-net';
import { unitContext } from './builder';
import { evaluateRules, nram, nramPerCore, sharedWeights, smallMaps, sram, tileable, tileSramBytes, wram } from './rules';
import { mainLayers, mainMainNonMain, redundancy, scalarThenVector, singleOutput, smallMapPipeline, strideRedundancy, strideSums } from './shape-rules';
import type { Candidate } from './verdict';

const whole = (maps = 1, rows = 8, cols = 8): Tile => ({ mode: 'small-map', maps, rows, cols });
const large = (rows: number, cols: number): Tile => ({ mode: 'large-map', maps: 1, rows, cols });

/** The candidate of steps [first, last] (file order) with `tile`. */
function candidate(g: InferredGraph, first: number, last: number, tile: Tile | undefined, s: FusionSettings = fusionSettings()): Candidate {
  const ctx = unitContext(g, g.nodes.map((_, i) => i), s);
  return { ...candidateOf(ctx, first, last), tile };
}

/** x [N,4,8,8] -> c1 (3×3, pad 1) -> r1 Relu -> c2 (3×3, pad 1); every tensor 1 KiB per map, each weight 576 B. */
const chain = (n = 1) => reluChain([n, 4, 8, 8]).graph();

describe('tileable', () => {
  it('holds when every layer passes a tile and fails on a layer without a tiling rule', () => {
    expect(tileable(candidate(chain(), 0, 2, whole())).holds).toBe(true);
    const g = convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).node('Reshape', 'rs', ['c1'], [1, 4, 8, 8]).conv('c2', 'rs', { out: 4 }).output('c2').graph();
    const v = tileable(candidate(g, 0, 2, whole()));
    expect([v.holds, v.detail]).toEqual([false, "'rs' cannot be tiled: Reshape has no feature-map tiling rule"]);
  });
});

describe('shared-weights', () => {
  it('fails when a Conv reads weights another Conv reads too', () => {
    expect(sharedWeights(candidate(chain(), 0, 2, whole())).holds).toBe(true);
    const g = convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).conv('c2', 'c1', { out: 4, k: 3, p: 1, weight: 'c1.w' }).output('c2').graph();
    const v = sharedWeights(candidate(g, 0, 1, whole()));
    expect([v.holds, v.detail]).toEqual([false, "'c1' shares weights 'c1.w' with another layer"]);
  });
});

describe('wram', () => {
  it('holds up to the WRAM size, split by output channel over the cores', () => {
    // 2 × 576 B on one core; 4 cores each take one output channel: 2 × 144 B
    expect(wram(candidate(chain(), 0, 2, whole()), fusionSettings({ wramBytes: 1152 })).holds).toBe(true);
    const over = wram(candidate(chain(), 0, 2, whole()), fusionSettings({ wramBytes: 1151 }));
    expect([over.holds, over.detail]).toEqual([false, 'weights exceed WRAM: 1.13 KiB per core > 1.12 KiB']);
    expect(wram(candidate(chain(), 0, 2, whole()), fusionSettings({ wramBytes: 288, coresPerCluster: 4 })).holds).toBe(true);
    expect(wram(candidate(chain(), 0, 2, whole()), fusionSettings({ wramBytes: 287, coresPerCluster: 4 })).holds).toBe(false);
  });
});

describe('sram', () => {
  it('needs the tile plan peak: two 1 KiB tiles live at every layer', () => {
    const c = candidate(chain(), 0, 2, whole());
    expect(tileSramBytes(c.unit, whole())).toBe(2048);
    // METHODS.md: in + out < S
    expect(sram(c, fusionSettings({ sramBytes: 2049 })).holds).toBe(true);
    const v = sram(c, fusionSettings({ sramBytes: 2048 }));
    expect([v.holds, v.detail]).toEqual([false, 'tile needs SRAM: 2.00 KiB >= 2.00 KiB']);
  });

  it('fails when no tile exists, naming what a 1×1 tile needs', () => {
    const v = sram(candidate(chain(), 0, 2, undefined), fusionSettings({ sramBytes: 10 }));
    expect(v.holds).toBe(false);
    expect(v.detail).toMatch(/^no tile fits SRAM: even a 1×1 tile needs .* >= 10 B$/);
  });
});

describe('nram', () => {
  it('splits the tile rows over the cores, each with its input halo', () => {
    const c = candidate(chain(), 0, 2, whole());
    // one core: 1 KiB out + 1 KiB in; two cores: 4 rows out (512 B) + 6 input rows (768 B)
    expect(nramPerCore(c.unit, whole(), 1)).toBe(2048);
    expect(nramPerCore(c.unit, whole(), 2)).toBe(1280);
    expect(nram(c, fusionSettings({ nramBytes: 1280, coresPerCluster: 2 })).holds).toBe(true);
    expect(nram(c, fusionSettings({ nramBytes: 1279, coresPerCluster: 2 })).holds).toBe(false);
  });
});

describe('small-maps', () => {
  it('caps the feature maps of a small-map tile', () => {
    const c = candidate(chain(2), 0, 2, whole(2));
    expect(smallMaps(c, fusionSettings({}, { maxSmallMaps: 2 })).holds).toBe(true);
    expect(smallMaps(c, fusionSettings({}, { maxSmallMaps: 1 })).holds).toBe(false);
  });
});

describe('small-map-pipeline', () => {
  it('keeps the next map loading while the current one computes', () => {
    // N = 2, one map per tile: in1 = in2 = 1 KiB; w_0 + in1 + in2 = 576 + 2048
    const c = candidate(chain(2), 0, 2, whole(1));
    expect(smallMapPipeline(c, fusionSettings({ sramBytes: 2624 })).holds).toBe(true);
    const v = smallMapPipeline(c, fusionSettings({ sramBytes: 2623 }));
    expect([v.holds, v.detail]).toEqual([false, "at 'c1': w_i + in1 + in2 = 2.56 KiB (2624 B) > 2.56 KiB (2623 B)"]);
    const w = smallMapPipeline(c, fusionSettings({ wramBytes: 575 }));
    expect([w.holds, w.detail]).toEqual([false, "at 'c1': w_i + w_(i+1) per core = 576 B > 575 B"]);
  });
});

describe('redundancy', () => {
  /** Two 3×3 pad-1 convs on x [1,4,8,4]. */
  const twoConvs = () => convNet([1, 4, 8, 4]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).conv('c2', 'c1', { out: 4, k: 3, p: 1 }).output('c2').graph();

  it('is exact: rows [0,4) and [4,8) load input rows [0,6) and [2,8), 12 of 8', () => {
    const c = candidate(twoConvs(), 0, 1, large(4, 4));
    expect(redundancy(c, fusionSettings({}, { redundancyPercent: 50 })).detail).toBe('halo redundancy 50.0 % <= 50 %');
    expect(redundancy(c, fusionSettings({}, { redundancyPercent: 49 })).holds).toBe(false);
  });

  it('multiplies the H and W halos: 12 rows × 8 columns loaded of 8 × 4', () => {
    const c = candidate(twoConvs(), 0, 1, large(4, 2));
    expect(redundancy(c, fusionSettings({}, { redundancyPercent: 200 })).detail).toBe('halo redundancy 200.0 % <= 200 %');
    expect(redundancy(c, fusionSettings({}, { redundancyPercent: 199.9 })).holds).toBe(false);
  });

  it('does not apply in small-map mode', () => {
    expect(redundancy(candidate(twoConvs(), 0, 1, whole(1, 8, 4)), fusionSettings({}, { redundancyPercent: 0 })).holds).toBe(true);
  });
});

describe('stride-redundancy', () => {
  it('sums (dilated kernel - stride) over Conv and Pool layers', () => {
    const g = convNet([1, 4, 16, 16])
      .conv('c1', 'x', { out: 4, k: 3, p: 1 })
      .conv('c2', 'c1', { out: 4, k: 3, p: 2, d: 2 })
      .pool('p1', 'c2')
      .conv('c3', 'p1', { out: 4, k: 3, p: 1 })
      .output('c3')
      .graph();
    const ctx = unitContext(g, [0, 1, 2, 3], fusionSettings());
    expect(strideSums(candidateOf(ctx, 0, 3).unit.layers)).toEqual([8, 8]); // 2 + 4 + 0 + 2
    expect(strideRedundancy(candidate(g, 0, 2, whole(1, 8, 8)), fusionSettings({}, { strideRedundancy: 6 })).holds).toBe(true);
    const v = strideRedundancy(candidate(g, 0, 3, whole(1, 8, 8)), fusionSettings({}, { strideRedundancy: 6 }));
    expect([v.holds, v.detail]).toEqual([false, 'kernel - stride sums H 8, W 8 > 6']);
  });

  it('is allowed over the limit when the unit holds a whole multi-branch block', () => {
    const c = { ...candidate(chain(), 0, 2, whole()), wholeBlock: true };
    const v = strideRedundancy(c, fusionSettings({}, { strideRedundancy: 1 }));
    expect([v.holds, v.detail]).toEqual([true, 'kernel - stride sums H 4, W 4 > 1, allowed: a whole block is inside']);
  });
});

describe('single-output', () => {
  it('fails when a tensor before the last layer is read after the unit', () => {
    expect(singleOutput(candidate(chain(), 0, 2, whole())).holds).toBe(true);
    const g = convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').conv('c2', 'r1', { out: 4 }).output('c2', 'r1').graph();
    const v = singleOutput(candidate(g, 0, 2, whole()));
    expect([v.holds, v.detail]).toEqual([false, "'r1' also leaves the unit"]);
  });
});

describe('main-layers', () => {
  it('counts Conv, Pool, MatMul/Gemm layers', () => {
    expect(mainLayers(candidate(chain(), 0, 2, whole()), fusionSettings()).holds).toBe(true);
    const v = mainLayers(candidate(chain(), 0, 1, whole()), fusionSettings());
    expect([v.holds, v.detail]).toEqual([false, '1 main layer(s) < 2']);
  });
});

describe('main-main-non-main', () => {
  it('needs a main layer feeding a main layer feeding a non-main one', () => {
    const g = convNet([1, 4, 8, 8]).pool('p1', 'x').conv('c1', 'p1', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').output('r1').graph();
    expect(mainMainNonMain(candidate(g, 0, 2, whole(1, 4, 4))).detail).toBe('MaxPool -> Conv -> Relu');
    expect(mainMainNonMain(candidate(chain(), 0, 2, whole())).holds).toBe(false);
  });
});

describe('scalar-then-vector', () => {
  it('needs an element-wise arithmetic layer feeding an activation or normalisation', () => {
    const g = convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).op('Add', 'a1', 'c1', 'x').op('Relu', 'r1', 'a1').output('r1').graph();
    expect(scalarThenVector(candidate(g, 0, 2, whole())).detail).toBe('Add -> Relu');
    expect(scalarThenVector(candidate(chain(), 0, 2, whole())).holds).toBe(false);
  });
});

describe('rule switches', () => {
  it('evaluates only the enabled rules, and the pipeline rule only in small-map mode', () => {
    const names = (tile: Tile, rules: Record<string, unknown>) => evaluateRules(candidate(chain(), 0, 2, tile), fusionSettings({}, rules)).map((v) => v.rule);
    const base = ['tileable', 'wram', 'sram', 'nram', 'small-maps', 'redundancy', 'stride-redundancy', 'main-layers', 'map-output'];
    expect(names(large(4, 8), { singleOutput: false, skipSharedWeights: false })).toEqual(base);
    expect(names(whole(), { mainMainNonMain: true, scalarThenVector: true })).toEqual([
      'tileable', 'shared-weights', ...base.slice(1), 'small-map-pipeline', 'single-output', 'main-main-non-main', 'scalar-then-vector',
    ]);
  });
});
