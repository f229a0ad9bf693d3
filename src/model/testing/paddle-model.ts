// Writes a PaddlePaddle-style export (paddle2onnx of a MobileNetV3-shaped OCR
// backbone): nodes named `p2o.Conv.12`, and hundreds of `Constant` nodes
// (scalars of hard-swish, Reshape shapes, squeeze-excite scales) each feeding
// one op somewhere in the network. Test utility; Node or browser.

import { GraphBuilder } from './onnx-writer';

/** How many inverted-residual blocks per stage, and the input size. */
export interface PaddleShape {
  readonly stages: readonly number[];
  readonly width: number; // channels of the first stage
  readonly image: number;
}

/** About 1,000 nodes, a few hundred of them Constant. */
export const PADDLE_OCR: PaddleShape = { stages: [4, 6, 8, 10, 8], width: 16, image: 48 };

/** Writes the model; see the module header. */
export function paddleModel(shape: PaddleShape = PADDLE_OCR): Uint8Array {
  const g = new GraphBuilder('paddle');
  const counts = new Map<string, number>();
  const name = (op: string): string => {
    const k = counts.get(op) ?? 0;
    counts.set(op, k + 1);
    return `p2o.${op}.${k}`;
  };
  const op = (type: string, inputs: readonly string[], attributes = {}): string => g.node(type, inputs, attributes, { name: name(type) });
  const scalar = (v: number): string => g.constant('float32', [1], [v], { name: name('Constant') });
  const conv = (x: string, cin: number, cout: number, k: number, stride = 1, group = 1): string => {
    const w = g.initializer(`conv2d_${counts.get('Conv') ?? 0}.w_0`, 'float32', [cout, cin / group, k, k]);
    const b = g.initializer(`conv2d_${counts.get('Conv') ?? 0}.b_0`, 'float32', [cout]);
    const pad = (k - 1) / 2;
    return op('Conv', [x, w, b], { kernel_shape: [k, k], strides: [stride, stride], pads: [pad, pad, pad, pad], group });
  };
  // hard_swish as paddle2onnx writes it: x * clip(x + 3, 0, 6) / 6, every scalar a Constant node.
  const hardSwish = (x: string): string => {
    const shifted = op('Add', [x, scalar(3)]);
    const clipped = op('Clip', [shifted, scalar(0), scalar(6)]);
    return op('Div', [op('Mul', [x, clipped]), scalar(6)]);
  };
  const squeezeExcite = (x: string, c: number): string => {
    const pooled = op('GlobalAveragePool', [x]);
    const s = op('Relu', [conv(pooled, c, c / 4, 1)]);
    const gate = op('HardSigmoid', [conv(s, c / 4, c, 1)], { alpha: 0.2, beta: 0.5 });
    return op('Mul', [x, op('Mul', [gate, scalar(1)])]);
  };
  let x = hardSwish(conv(g.input('x', 'float32', [1, 3, shape.image, shape.image * 4]), 3, shape.width, 3, 2));
  let c = shape.width;
  shape.stages.forEach((blocks, s) => {
    for (let b = 0; b < blocks; b += 1) {
      const out = b === 0 && s > 0 ? Math.min(c * 2, 64) : c;
      const wide = c * 3;
      let y = hardSwish(conv(x, c, wide, 1));
      y = hardSwish(conv(y, wide, wide, 3, b === 0 && s > 0 ? 2 : 1, wide));
      if (b % 2 === 1) y = squeezeExcite(y, wide);
      y = conv(y, wide, out, 1);
      x = b > 0 ? op('Add', [x, y]) : y;
      c = out;
    }
  });
  const flat = op('Reshape', [op('GlobalAveragePool', [x]), g.constant('int64', [2], [1, c], { name: name('Constant') })]);
  const logits = op('MatMul', [flat, g.initializer('fc_0.w_0', 'float32', [c, 97])]);
  g.output(op('Softmax', [op('Add', [logits, g.initializer('fc_0.b_0', 'float32', [97])])], { axis: -1 }), 'float32', [1, 97]);
  return g.toBytes({ opset: 11 });
}
