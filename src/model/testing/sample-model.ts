// The sample model the app opens on (public/sample.onnx): a small MobileNet-v2-shaped
// network written with the ONNX writer, deterministic to the byte. Test utility.
//
// Layout: image [batch, 3, 160, 160] -> stem Conv 3x3/2 + BatchNormalization + Relu6
// -> seven inverted residual blocks (1x1 expand + Relu6, 3x3 depthwise conv with
// group = channels + Relu6, 1x1 linear projection, residual Add when the shape is
// kept) -> a two-branch block joined by Concat -> 1x1 conv + Relu6 ->
// GlobalAveragePool -> Flatten -> Gemm -> Softmax. Relu6 is Clip(0, 6).
// Weights are float32 with real dims and seeded pseudo-random values.

import { GraphBuilder } from './onnx-writer';
import { seededRandom } from '../../shared/random';

/** Width of the image the sample takes (height is the same). */
export const SAMPLE_IMAGE_SIZE = 160;
/** Number of classes of the sample's classifier. */
export const SAMPLE_CLASSES = 100;

/** Blocks: expansion factor, output channels, stride. */
const BLOCKS: readonly (readonly [expand: number, channels: number, stride: number])[] = [
  [1, 16, 1],
  [6, 24, 2],
  [4, 24, 1],
  [3, 32, 2],
  [3, 32, 1],
  [2, 48, 2],
  [2, 48, 1],
];

/** Builds the sample model's bytes. The same bytes every time. */
export function buildSampleModel(): Uint8Array {
  const net = new SampleNet(new GraphBuilder('mobilenet_v2_sample'));
  return net.build().toBytes({ opset: 17, irVersion: 8, producerName: 'heapscope make-sample', producerVersion: '1' });
}

class SampleNet {
  private readonly random = seededRandom(0x5eed);

  constructor(private readonly g: GraphBuilder) {
    g.initializer('relu6_min', 'float32', [], [0]);
    g.initializer('relu6_max', 'float32', [], [6]);
  }

  build(): GraphBuilder {
    const g = this.g;
    let x = g.input('image', 'float32', ['batch', 3, SAMPLE_IMAGE_SIZE, SAMPLE_IMAGE_SIZE]);
    x = this.conv('stem/conv', x, 3, 16, { kernel: 3, stride: 2, bias: false });
    x = this.batchNorm('stem/bn', x, 16);
    x = this.relu6('stem/relu6', x);
    let channels = 16;
    BLOCKS.forEach(([expand, out, stride], i) => {
      x = this.invertedResidual(`block${i + 1}`, x, channels, out, expand, stride);
      channels = out;
    });
    x = this.concatBranches('mix', x, channels);
    x = this.relu6('head/relu6', this.conv('head/conv', x, 64, 96, { kernel: 1 }));
    x = g.node('GlobalAveragePool', [x], {}, { name: 'head/pool' });
    x = g.node('Flatten', [x], { axis: 1 }, { name: 'head/flatten' });
    const w = this.weights('classifier/weight', [SAMPLE_CLASSES, 96], 96);
    const b = this.weights('classifier/bias', [SAMPLE_CLASSES], 0);
    x = g.node('Gemm', [x, w, b], { transB: 1 }, { name: 'classifier/gemm' });
    g.nodeOutputs('Softmax', [x], ['probabilities'], { axis: 1 }, { name: 'classifier/softmax' });
    g.output('probabilities', 'float32', ['batch', SAMPLE_CLASSES]);
    return g;
  }

  /** 1x1 expand + Relu6, depthwise 3x3 + Relu6, 1x1 linear projection, Add when the shape is kept. */
  private invertedResidual(name: string, x: string, cin: number, cout: number, expand: number, stride: number): string {
    const hidden = cin * expand;
    let y = x;
    if (expand !== 1) y = this.relu6(`${name}/expand/relu6`, this.conv(`${name}/expand`, y, cin, hidden, { kernel: 1 }));
    y = this.conv(`${name}/depthwise`, y, hidden, hidden, { kernel: 3, stride, group: hidden });
    y = this.relu6(`${name}/depthwise/relu6`, y);
    y = this.conv(`${name}/project`, y, hidden, cout, { kernel: 1 });
    if (stride === 1 && cin === cout) y = this.g.node('Add', [x, y], {}, { name: `${name}/add` });
    return y;
  }

  /** Two branches over the same input (1x1 conv; depthwise + pointwise), joined by Concat. */
  private concatBranches(name: string, x: string, channels: number): string {
    const a = this.relu6(`${name}/a/relu6`, this.conv(`${name}/a/conv`, x, channels, 32, { kernel: 1 }));
    let b = this.conv(`${name}/b/depthwise`, x, channels, channels, { kernel: 3, group: channels });
    b = this.relu6(`${name}/b/depthwise/relu6`, b);
    b = this.conv(`${name}/b/pointwise`, b, channels, 32, { kernel: 1 });
    return this.g.node('Concat', [a, b], { axis: 1 }, { name: `${name}/concat` });
  }

  private conv(
    name: string,
    x: string,
    cin: number,
    cout: number,
    o: { kernel: number; stride?: number; group?: number; bias?: boolean },
  ): string {
    const group = o.group ?? 1;
    const fanIn = (cin / group) * o.kernel * o.kernel;
    const inputs = [x, this.weights(`${name}/weight`, [cout, cin / group, o.kernel, o.kernel], fanIn)];
    if (o.bias ?? true) inputs.push(this.weights(`${name}/bias`, [cout], 0));
    const pad = (o.kernel - 1) / 2;
    const attributes = {
      kernel_shape: [o.kernel, o.kernel],
      strides: [o.stride ?? 1, o.stride ?? 1],
      pads: [pad, pad, pad, pad],
      group,
    };
    return this.g.node('Conv', inputs, attributes, { name });
  }

  private batchNorm(name: string, x: string, channels: number): string {
    const g = this.g;
    const ones = new Array<number>(channels).fill(1);
    const zeros = new Array<number>(channels).fill(0);
    const scale = g.initializer(`${name}/scale`, 'float32', [channels], ones);
    const bias = g.initializer(`${name}/bias`, 'float32', [channels], zeros);
    const mean = g.initializer(`${name}/mean`, 'float32', [channels], zeros);
    const variance = g.initializer(`${name}/var`, 'float32', [channels], ones);
    return g.node('BatchNormalization', [x, scale, bias, mean, variance], { epsilon: 1e-5 }, { name });
  }

  private relu6(name: string, x: string): string {
    return this.g.node('Clip', [x, 'relu6_min', 'relu6_max'], {}, { name });
  }

  /** Uniform weights scaled for `fanIn` inputs (He-style); zeros for fanIn 0 (biases). */
  private weights(name: string, dims: readonly number[], fanIn: number): string {
    const count = dims.reduce((a, b) => a * b, 1);
    const bound = fanIn > 0 ? Math.sqrt(6 / fanIn) : 0;
    const values = Array.from({ length: count }, () => (this.random() * 2 - 1) * bound);
    return this.g.initializer(name, 'float32', dims, values);
  }
}
