import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { axisExtent, MAX_AXIS_TILES } from './unit-ranges';

/** A conv net on a map of 2^30 rows (a fuzzed file had one): tiling it row by row would cost work per row. */
function hugeMapNet() {
  const g = new GraphBuilder('huge');
  const x = g.input('x', 'float32', [1, 8, 2 ** 30, 14]);
  const c1 = g.node('Conv', [x, g.initializer('w1', 'float32', [8, 8, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  const r1 = g.node('Relu', [c1]);
  const c2 = g.node('Conv', [r1, g.initializer('w2', 'float32', [8, 8, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  g.output(g.node('Relu', [c2]), 'float32', undefined);
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

describe('fusion on a huge feature map', () => {
  it('plans on the accelerator without examining billions of tiles, and keeps no unit whose tiles it could not size', () => {
    const plan = planModel(hugeMapNet(), presetTarget('accelerator'));
    expect(plan.valid).toBe(true);
    for (const unit of plan.fusionUnits) expect(Number.isFinite(unit.onChipBytes)).toBe(true);
  });

  it('treats a tiling with more tiles than it examines as never fitting', () => {
    const unit = {
      layers: [],
      inputs: [],
      internal: [],
      output: { name: 'y', kind: 'activation', dtype: 1, dtypeName: 'float32', shape: [1, 1, MAX_AXIS_TILES * 2, 4], bytes: 0, producer: 0, consumers: [] },
    } as const;
    expect(axisExtent(unit, 2, 1).maxLength.get('y')).toBe(Infinity);
    expect(axisExtent(unit, 2, 2).tiles).toBe(MAX_AXIS_TILES);
  });
});

describe('searchSize on dims no tile can be searched over one by one', () => {
  it('gives no size for an unknown or non-integral dim', async () => {
    const { searchSize } = await import('./feature-map');
    for (const full of [NaN, 0, -3, 2.5, Infinity]) expect(searchSize(full, 'large-to-small', () => false)).toBeUndefined();
    expect(searchSize(NaN, 'small-to-large', () => true)).toBeUndefined();
  });

  it('finds the largest fitting size of a huge dim small-to-large without stepping through it', async () => {
    const { searchSize } = await import('./feature-map');
    let calls = 0;
    const upTo = (limit: number) => (size: number) => (calls++, size <= limit);
    expect(searchSize(2 ** 30, 'small-to-large', upTo(123_456_789))).toBe(123_456_789);
    expect(calls).toBeLessThan(4200);
    expect(searchSize(2 ** 30, 'small-to-large', upTo(2 ** 31))).toBe(2 ** 30);
    expect(searchSize(100, 'small-to-large', upTo(45))).toBe(45);
  });
});
