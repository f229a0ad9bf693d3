import { describe, expect, it } from 'vitest';
import { graphLayers, isDepthwise, isPointwise, layerClass } from './layer-geometry';
import { convNet, fusionSettings } from './testing/conv-net';
import { buildTfus } from './tfu/builder';
import { checkUnits } from './tfu/check';

describe('layer windows', () => {
  it('reads kernel, stride, pads and dilation from the attributes', () => {
    const [c] = graphLayers(convNet([1, 4, 16, 16]).conv('c', 'x', { out: 4, k: 5, s: 2, p: 2, d: 1 }).output('c').graph());
    expect(c!.h).toEqual({ kernel: 5, stride: 2, padBegin: 2, dilation: 1 });
  });

  it('derives the leading pad of auto_pad windows: the odd pixel goes last (SAME_UPPER) or first (SAME_LOWER)', () => {
    // 8 rows, 3×3 stride 2: 4 output rows need 3·2 + 3 = 9 input rows, one pad in all
    const pad = (autoPad: 'SAME_UPPER' | 'SAME_LOWER' | 'VALID') =>
      graphLayers(convNet([1, 1, 8, 8]).conv('c', 'x', { out: 1, k: 3, s: 2, autoPad }).output('c').graph())[0]!.h.padBegin;
    expect([pad('SAME_UPPER'), pad('SAME_LOWER'), pad('VALID')]).toEqual([0, 1, 0]);
  });

  it('tiles auto_pad convolutions, and the checker derives the same halos from the output size', () => {
    const g = convNet([1, 4, 32, 32])
      .conv('c1', 'x', { out: 4, k: 3, s: 2, autoPad: 'SAME_LOWER' })
      .conv('c2', 'c1', { out: 4, k: 5, autoPad: 'SAME_UPPER' })
      .output('c2')
      .graph();
    const s = fusionSettings({ sramBytes: 12000 }, { redundancyPercent: 1000, strideRedundancy: 10 });
    const [unit] = buildTfus(g, [0, 1], s).units;
    expect(unit!.tile!.mode).toBe('large-map');
    expect(checkUnits(g, [unit!], s)).toEqual([]);
  });
});

describe('layer classes', () => {
  it('classes main, scalar and vector layers as M2 does', () => {
    expect(['Conv', 'MaxPool', 'Gemm', 'Add', 'Mul', 'Relu', 'BatchNormalization', 'Reshape'].map(layerClass)).toEqual([
      'main', 'main', 'main', 'scalar', 'scalar', 'vector', 'vector', 'other',
    ]);
  });

  it('tells depthwise and pointwise Convs', () => {
    const layers = graphLayers(convNet([1, 8, 8, 8]).dw('dw', 'x').conv('pw', 'dw', { out: 8, group: 2 }).conv('c', 'pw', { out: 8, k: 3, p: 1 }).output('c').graph());
    expect(layers.map((l) => [isDepthwise(l), isPointwise(l)])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
  });
});
