import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';

/** A conv chain with a layer whose only output is omitted (named ""), as a fuzzed SqueezeNet had: no unit can end on it. */
function chainWithOutputlessLayer(at: 'middle' | 'end') {
  const g = new GraphBuilder('outputless');
  const x = g.input('x', 'float32', [1, 8, 28, 28]);
  const conv = (from: string, k: number) => g.node('Conv', [from, g.initializer(`w${k}`, 'float32', [8, 8, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  const c1 = conv(x, 1);
  const r1 = g.node('Relu', [c1]);
  if (at === 'middle') g.nodeOutputs('Relu', [r1], [''], {}, { name: 'dropped' });
  const c2 = conv(r1, 2);
  const r2 = g.node('Relu', [c2]);
  if (at === 'end') g.nodeOutputs('Relu', [r2], [''], {}, { name: 'dropped' });
  g.output(r2, 'float32', [1, 8, 28, 28]);
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

describe('fusion over a layer with no output', () => {
  it.each(['middle', 'end'] as const)('plans on the accelerator with the layer in the %s, and no unit holds it', (at) => {
    const model = chainWithOutputlessLayer(at);
    const plan = planModel(model, presetTarget('accelerator'));
    expect(plan.valid).toBe(true);
    for (const unit of plan.fusionUnits) expect(unit.nodes).not.toContain('dropped');
    // Before it, the chain still fuses.
    if (at === 'end') expect(plan.fusionUnits.length).toBeGreaterThan(0);
  });
});
