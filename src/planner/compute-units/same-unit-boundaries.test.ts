import { describe, expect, it } from 'vitest';
import { inferShapes } from '../../model/infer/shapes';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import type { TargetProfile } from '../targets/target';

const X = 1_048_576; // float32 elements of the graph input: 4 MiB

/**
 * Three Tiles (repeats 1×1) read the graph input x, then three ReduceSums
 * read their outputs in reverse order; `middle` replaces the second Tile by
 * that op. Depth first, one unit runs it as three connected parts.
 */
function tiles(middle = 'Tile') {
  const g = new GraphBuilder('tiles');
  const x = g.input('x', 'float32', [1, X]);
  const second = (): string => {
    if (middle === 'Tile') return g.node('Tile', [x, g.initializer('rep1', 'int64', [2], [1, 1])], {}, { name: 't1' });
    // an Add that broadcasts x to twice its size: its output cannot take x's bytes
    if (middle === 'Add-wider') return g.node('Add', [x, g.initializer('two', 'float32', [2, 1])], {}, { name: 't1' });
    return g.node(middle, [x], {}, { name: 't1' });
  };
  const tiled = [0, 1, 2].map((i) => (i === 1 ? second() : g.node('Tile', [x, g.initializer(`rep${i}`, 'int64', [2], [1, 1])], {}, { name: `t${i}` })));
  [2, 1, 0].forEach((i, k) => g.output(g.node('ReduceSum', [tiled[i]!], { keepdims: 0 }, { name: `rs${k}` }), 'float32', []));
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

function depthFirst(name: string, computeUnits?: []): TargetProfile {
  const target = presetTarget(name);
  return { ...target, ...(computeUnits !== undefined && { computeUnits }), planning: { ...target.planning, order: 'depth-first' } };
}

const figures = (plan: ReturnType<typeof planModel>) => ({
  peak: plan.peak,
  lowerBound: plan.lowerBound,
  fits: plan.fits,
  regions: plan.regions.map((r) => [r.name, r.peak, r.lowerBound]),
});

describe('boundaries between parts of one compute unit', () => {
  it.each(['cpu', 'mcu'])('share a graph input no op writes over, so the plan on %s is the plan with compute units off', (name) => {
    const model = tiles();
    const plan = planModel(model, depthFirst(name));
    expect(plan.valid).toBe(true);
    expect(plan.functions.length).toBe(3);
    expect(plan.boundaries.map((b) => [b.tensor, b.shared])).toEqual([
      ['x', true],
      ['x', true],
    ]);
    expect(plan.buffers.filter((b) => b.kind === 'copy')).toEqual([]);
    expect(figures(plan)).toEqual(figures(planModel(model, depthFirst(name, []))));
  });

  it('still copy a tensor read later when an in-place op of the reading part may write over it', () => {
    const plan = planModel(tiles('Relu'), depthFirst('cpu'));
    expect(plan.valid).toBe(true);
    const relu = plan.boundaries.find((b) => b.to === plan.functions.find((f) => f.nodes.includes('t1'))!.name)!;
    expect(relu).toMatchObject({ tensor: 'x', shared: false, reason: 'read-later', copy: expect.any(String) });
    expect(relu.detail).toContain("Relu 't1' there may write over it");
    // an in-place op whose output is larger than the tensor cannot write over it
    expect(planModel(tiles('Add-wider'), depthFirst('cpu')).boundaries.every((b) => b.shared)).toBe(true);
  });
});
