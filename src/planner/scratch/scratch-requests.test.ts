import { describe, expect, it } from 'vitest';
import { buildProblem } from '../problem/build-problem';
import { IM2COL_FORMULA } from '../targets/presets';
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

  it('leaves out a scratch buffer whose formula has no size, and says why', () => {
    const built = buildWith(model(), target([{ opType: 'Relu', name: 'odd', formula: 'in0[1] * in2[0]' }]));
    expect(built.scratch).toEqual([]);
    expect(built.diagnostics).toEqual([
      { code: 'scratch-size', message: 'scratch "odd" of Relu \'relu\' is left out: the op has no input 2', node: 'relu' },
    ]);
  });
});
