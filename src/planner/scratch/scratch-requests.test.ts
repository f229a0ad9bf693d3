import { describe, expect, it } from 'vitest';
import { buildProblem } from '../problem/build-problem';
import { IM2COL_FORMULA, presetTarget } from '../targets/presets';
import { nchwTwin } from '../fusion/testing/nchw-twin';
import { tfliteNet } from '../fusion/testing/tflite-net';
import { type TargetProfile } from '../targets/target';
import { parseTarget } from '../targets/parse';
import { tinyGraph } from '../testing/tiny-graph';
import { placerOf } from '../testing/placer';

const target = (rules: unknown[]): TargetProfile =>
  parseTarget({
    regions: [
      { name: 'sram', alignment: 16, fast: true },
      { name: 'dram', alignment: 64 },
    ],
    scratch: { rules },
  });

/** A 3x3 Conv, 4 -> 8 channels, 6x6 -> 4x4, float32; then a Relu and a custom-domain op. */
const model = () =>
  tinyGraph('float32')
    .input('x', [1, 4, 6, 6])
    .weight('w', [8, 4, 3, 3])
    .node('Conv', ['x', 'w'], { c: [1, 8, 4, 4] }, { name: 'conv' })
    .node('Relu', ['c'], { r: [1, 8, 4, 4] }, { name: 'relu' })
    .node('Gelu', ['r'], { y: [1, 8, 4, 4] }, { name: 'gelu', domain: 'com.example' })
    .output('y')
    .model();

/** Builds the problem with planModel's body placer for that target. */
function buildWith(graph: Parameters<typeof buildProblem>[0], t: TargetProfile) {
  return buildProblem(graph, t, { place: placerOf(t) });
}

describe('scratch requests from the target rules', () => {
  it('sizes a formula from the node shapes (im2col) and fixed bytes, per matching op, in the right region', () => {
    const built = buildWith(
      model(),
      target([
        { opType: 'Conv', name: 'im2col', formula: IM2COL_FORMULA, latencyCritical: true },
        { opType: 'Conv', name: 'bias', bytes: 10 },
        { opType: 'Relu', name: 'lut', bytes: 100, variable: true, overlay: true },
        { opType: 'com.example::Gelu', name: 'table', bytes: 1 },
        { opType: 'Gelu', name: 'never', bytes: 1 },
      ]),
    );
    const view = built.scratch.map((q) => [q.node, q.label, q.step, q.bytes, q.size, q.region, q.variable, q.overlay, q.rule]);
    expect(view).toEqual([
      // C_in/group 4 x kH 3 x kW 3 x H_out 4 x W_out 4 x 4 bytes
      ['conv', 'im2col', 0, 4 * 3 * 3 * 4 * 4 * 4, 2304, 'sram', false, false, 0],
      ['conv', 'bias', 0, 10, 64, 'dram', false, false, 1],
      ['relu', 'lut', 1, 100, 128, 'dram', true, true, 0],
      ['gelu', 'table', 2, 1, 64, 'dram', false, false, 0],
    ]);
    expect(built.diagnostics).toEqual([]);
  });

  it('counts a scratch buffer whose formula has no size as unknown, and says why', () => {
    const built = buildWith(model(), target([{ opType: 'Relu', name: 'odd', formula: 'in0[1] * in2[0]' }]));
    expect(built.scratch).toEqual([]);
    expect(built.unknownScratch).toEqual([
      { tensor: 'relu:odd', op: 'Relu', reason: 'scratch "odd" (scratch.rules[0]) of Relu: its formula "in0[1] * in2[0]" gives no size here: the op has no input 2', scratch: true },
    ]);
    expect(built.diagnostics).toEqual([
      { code: 'scratch-size', message: 'scratch "odd" (scratch.rules[0]) of Relu \'relu\' is of unknown size, planned as 0 bytes: the op has no input 2', node: 'relu' },
    ]);
  });
});

describe('scratch sizes past what the planner computes exactly', () => {
  it('a buffer whose size with the scratch before it passes 2^53 − 1 is unknown, named by its rule', () => {
    const built = buildWith(
      model(),
      target([
        { opType: 'Conv', name: 'half', bytes: 2 ** 52 },
        { opType: 'Relu', name: 'other-half', bytes: 2 ** 52 },
      ]),
    );
    expect(built.scratch.map((q) => q.label)).toEqual(['half']);
    expect(built.unknownScratch.map((u) => [u.tensor, u.reason])).toEqual([
      ['relu:other-half', expect.stringMatching(/^scratch "other-half" \(scratch\.rules\[1\]\) of Relu: .*4,503,599,627,370,496 bytes, with the 4,503,599,627,370,560 bytes of scratch before it, pass 2\^53 − 1/)],
    ]);
  });
});

describe('scratch requests of TensorFlow Lite ops', () => {
  /** Convolutions (3x3, depthwise, 1x1 with a stride), a pool, a fully connected layer and a softmax, int8 NHWC. */
  const net = () =>
    tfliteNet([1, 12, 10, 3], 'int8')
      .conv('c', 'x', { out: 8, k: 3 })
      .dw('dw', 'c')
      .conv('pw', 'dw', { out: 16, k: 1, s: 2 })
      .pool('p', 'pw', { k: 2, op: 'AVERAGE_POOL_2D' })
      .fc('fc', 'p', 10)
      .op('SOFTMAX', 'sm', 'fc')
      .output('sm')
      .graph();

  it("take the mcu preset's ONNX rules, sized as for the ONNX twin of the graph", () => {
    const mcu = presetTarget('mcu');
    const requests = (graph: Parameters<typeof buildProblem>[0]) => buildWith(graph, mcu).scratch.map((q) => [q.node, q.label, q.step, q.bytes, q.region]);
    const tflite = requests(net());
    expect(tflite).toEqual(requests(nchwTwin(net())));
    // im2col of the 3x3 CONV_2D: 3 input channels x 3 x 3 x 12 x 10 output pixels x 1 byte; FULLY_CONNECTED is a Gemm only (not also a MatMul)
    expect(tflite).toContainEqual(['c', 'im2col', 0, 3 * 3 * 3 * 12 * 10, 'sram']);
    expect(tflite.filter(([node]) => node === 'fc').map(([, label]) => label)).toEqual(['accumulators']);
    expect(new Set(tflite.map(([node]) => node))).toEqual(new Set(['c', 'dw', 'pw', 'p', 'fc', 'sm']));
  });

  it('take a rule naming the TFLite op itself with their shapes as decoded (NHWC)', () => {
    const built = buildWith(net(), target([{ opType: 'tflite::CONV_2D', name: 'channels', formula: 'out0[3]' }]));
    expect(built.scratch.map((q) => [q.node, q.bytes])).toEqual([
      ['c', 8],
      ['pw', 16],
    ]);
  });
});
