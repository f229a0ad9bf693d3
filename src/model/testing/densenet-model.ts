// Writes a DenseNet-121 the way ONNX's own test models are: every weight is a
// ConstantOfShape node (with its shape in a small int64 initializer), all of
// them at the top of the file, each feeding one consumer somewhere in the
// network. Such files are what made the graph layout explode (dense fans of
// long edges); benchmarks and tests use this writer. Test utility; Node or browser.

import { GraphBuilder, tensor } from './onnx-writer';

/** A DenseNet variant: layers per dense block, growth rate, input size. */
export interface DenseNetShape {
  readonly blocks: readonly number[];
  readonly growth: number;
  readonly image: number;
  readonly constantWeights: boolean; // weights as ConstantOfShape nodes (ONNX test models) rather than initializers
}

/** DenseNet-121: blocks 6/12/24/16, growth 32, 224×224, weights as ConstantOfShape nodes. */
export const DENSENET_121: DenseNetShape = { blocks: [6, 12, 24, 16], growth: 32, image: 224, constantWeights: true };

type Weight = (name: string, dims: readonly number[]) => string;

/** Writes a DenseNet-shaped model; see the module header. */
export function densenetModel(shape: DenseNetShape = DENSENET_121): Uint8Array {
  const g = new GraphBuilder('densenet');
  if (!shape.constantWeights) {
    network(g, shape, (name, dims) => g.initializer(name, 'float32', dims));
    return g.toBytes({ opset: 17 });
  }
  // First pass: collect every weight's shape, so that all ConstantOfShape nodes come first, as in ONNX's files.
  const shapes: { name: string; dims: readonly number[] }[] = [];
  network(new GraphBuilder('dry-run'), shape, (name, dims) => {
    shapes.push({ name, dims });
    return name;
  });
  const made = new Map<string, string>();
  shapes.forEach(({ name, dims }, i) => {
    const dimsName = g.initializer(`${name}_shape`, 'int64', [dims.length], [...dims]);
    made.set(name, g.node('ConstantOfShape', [dimsName], { value: tensor('float32', [1], [0]) }, { name: `ConstantOfShape_${i}` }));
  });
  network(g, shape, (name) => made.get(name)!);
  return g.toBytes({ opset: 17 });
}

function network(g: GraphBuilder, shape: DenseNetShape, weight: Weight): void {
  let n = 0;
  const bn = (x: string, c: number): string => {
    const p = `bn${(n += 1)}`;
    const ins = ['scale', 'bias', 'mean', 'var'].map((k) => weight(`${p}_${k}`, [c]));
    return g.node('BatchNormalization', [x, ...ins], { epsilon: 1e-5 }, { name: `n${n}` });
  };
  const relu = (x: string): string => g.node('Relu', [x], {}, { name: `n${(n += 1)}` });
  const conv = (x: string, cin: number, cout: number, k: number, stride = 1): string => {
    const w = weight(`conv${(n += 1)}_w`, [cout, cin, k, k]);
    const pad = (k - 1) / 2;
    return g.node('Conv', [x, w], { kernel_shape: [k, k], strides: [stride, stride], pads: [pad, pad, pad, pad] }, { name: `n${n}` });
  };
  let x = g.input('data_0', 'float32', [1, 3, shape.image, shape.image]);
  let c = 2 * shape.growth;
  x = relu(bn(conv(x, 3, c, 7, 2), c));
  x = g.node('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, { name: `n${(n += 1)}` });
  shape.blocks.forEach((layers, b) => {
    for (let l = 0; l < layers; l += 1) {
      const y = conv(relu(bn(conv(relu(bn(x, c)), c, 4 * shape.growth, 1), 4 * shape.growth)), 4 * shape.growth, shape.growth, 3);
      x = g.node('Concat', [x, y], { axis: 1 }, { name: `n${(n += 1)}` });
      c += shape.growth;
    }
    if (b === shape.blocks.length - 1) return;
    x = conv(relu(bn(x, c)), c, Math.floor(c / 2), 1);
    c = Math.floor(c / 2);
    x = g.node('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] }, { name: `n${(n += 1)}` });
  });
  x = g.node('GlobalAveragePool', [relu(bn(x, c))], {}, { name: `n${(n += 1)}` });
  x = g.node('Flatten', [x], { axis: 1 }, { name: `n${(n += 1)}` });
  x = g.node('Gemm', [x, weight('fc_w', [1000, c]), weight('fc_b', [1000])], { transB: 1 }, { name: `n${(n += 1)}` });
  g.output(x, 'float32', [1, 1000]);
}
