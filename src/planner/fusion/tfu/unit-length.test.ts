// A tiled fusion unit holds at most MAX_UNIT_STEPS layers. A residual chain of
// tiny maps grows one unit for thousands of layers when nothing stops it, and
// assessing a unit costs its length at every growth step: the accelerator
// preset then took minutes where the other presets took seconds.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import { inferShapes } from '../../../model/infer/shapes';
import { GraphBuilder } from '../../../model/testing/onnx-writer';
import { planModel } from '../../plan';
import { presetTarget } from '../../targets/presets';
import { MAX_UNIT_STEPS } from './builder';

/** Residual blocks Conv -> Relu -> Conv -> Add(skip) -> Relu on a 4×16×16 map, `blocks` of them. */
function residualChain(blocks: number): Uint8Array {
  const g = new GraphBuilder('res');
  let x = g.input('x', 'float32', [1, 4, 16, 16]);
  let weights = 0;
  const conv = (from: string) => g.node('Conv', [from, g.initializer(`w${weights++}`, 'float32', [4, 4, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  for (let b = 0; b < blocks; b++) x = g.node('Relu', [g.node('Add', [conv(g.node('Relu', [conv(x)])), x])]);
  g.output(x, 'float32', [1, 4, 16, 16]);
  return g.toBytes();
}

describe('fusion unit length', () => {
  it(`keeps every unit of a 2,000-node residual chain of tiny maps to ${MAX_UNIT_STEPS} layers on the accelerator preset`, () => {
    const model = inferShapes(decodeOnnx(residualChain(400)), {});
    const plan = planModel(model, presetTarget('accelerator'));
    const units = plan.fusionUnits.filter((u) => u.kind === 'tfu');
    expect(units.length).toBeGreaterThan(1);
    for (const unit of units) expect(unit.lastStep - unit.firstStep + 1).toBeLessThanOrEqual(MAX_UNIT_STEPS);
    // the chain is fused nearly whole, in units cut at the cap rather than left unfused
    const fused = units.reduce((sum, u) => sum + u.nodes.length, 0);
    expect(fused).toBeGreaterThan(model.nodes.length / 2);
  });
});
