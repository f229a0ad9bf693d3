import { describe, expect, it } from 'vitest';
import { analyse, npuCpu, unitDoc, withAttributes } from '../testing/compute-units';
import { testTarget, tinyGraph } from '../testing/tiny-graph';

const fnsOf = (graph: ReturnType<ReturnType<typeof tinyGraph>['graph']>, r: ReturnType<typeof analyse>) =>
  r.partition.functions.map((f) => [f.unit, f.nodes.map((n) => graph.nodes[n]!.name)]);

describe('partition into functions (M3)', () => {
  it('gives each node to the first unit that lists it and the rest to the fallback, in maximal runs', () => {
    const g = tinyGraph()
      .input('x', [1, 8])
      .node('Conv', ['x'], { a: [1, 8] }, { name: 'c1' })
      .node('Relu', ['a'], { b: [1, 8] }, { name: 'r1' })
      .node('Softmax', ['b'], { c: [1, 8] }, { name: 's' })
      .node('TopK', ['c'], { d: [1, 8] }, { name: 't' })
      .node('Conv', ['d'], { y: [1, 8] }, { name: 'c2' })
      .output('y')
      .graph();
    const r = analyse(g, npuCpu(['Conv', 'Relu']));
    expect(fnsOf(g, r)).toEqual([
      ['npu', ['c1', 'r1']],
      ['cpu', ['s', 't']],
      ['npu', ['c2']],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('follows the listed priority when two units support an op', () => {
    const g = tinyGraph().input('x', [4]).node('Relu', ['x'], { y: [4] }, { name: 'r' }).output('y').graph();
    const dspFirst = testTarget({ computeUnits: [unitDoc('dsp', ['Relu']), unitDoc('npu', ['Relu']), unitDoc('cpu', ['*'])] });
    expect(fnsOf(g, analyse(g, dspFirst))).toEqual([['dsp', ['r']]]);
    const npuFirst = testTarget({ computeUnits: [unitDoc('npu', ['Relu']), unitDoc('dsp', ['Relu']), unitDoc('cpu', ['*'])] });
    expect(fnsOf(g, analyse(g, npuFirst))).toEqual([['npu', ['r']]]);
  });

  it('applies the Conv kernel constraint from the weight shape', () => {
    const g = tinyGraph()
      .input('x', [1, 1, 16, 16])
      .weight('w3', [1, 1, 3, 3])
      .weight('w9', [1, 1, 9, 9])
      .node('Conv', ['x', 'w3'], { a: [1, 1, 16, 16] }, { name: 'small' })
      .node('Conv', ['a', 'w9'], { y: [1, 1, 16, 16] }, { name: 'large' })
      .output('y')
      .graph();
    const target = testTarget({
      computeUnits: [{ ...unitDoc('npu', ['Conv']), constraints: { maxConvKernel: 7 } }, unitDoc('cpu', ['*'])],
    });
    expect(fnsOf(g, analyse(g, target))).toEqual([
      ['npu', ['small']],
      ['cpu', ['large']],
    ]);
  });

  it('checks the kernel on every spatial axis, prefers kernel_shape, and refuses a Conv whose kernel is unknown', () => {
    const g = withAttributes(
      tinyGraph()
        .input('x', [1, 1, 16, 16])
        .input('wx', [1, 1, 3, 3]) // a run-time weight: its shape is known, kernel_shape overrides it
        .weight('wide', [1, 1, 3, 9])
        .node('Conv', ['x', 'wx'], { a: [1, 1, 16, 16] }, { name: 'attr' })
        .node('Conv', ['a', 'wide'], { b: [1, 1, 16, 16] }, { name: 'wide' })
        .node('ConvTranspose', ['b', 'unknown'], { c: [1, 1, 16, 16] }, { name: 'unknown' })
        .node('ConvTranspose', ['c', 'wx'], { y: [1, 1, 16, 16] }, { name: 't3' })
        .output('y')
        .graph(),
      'attr',
      { kernel_shape: [7, 11] },
    );
    const target = testTarget({
      computeUnits: [{ ...unitDoc('npu', ['Conv', 'ConvTranspose']), constraints: { maxConvKernel: 7 } }, unitDoc('cpu', ['*'])],
    });
    expect(fnsOf(g, analyse(g, target))).toEqual([
      ['cpu', ['attr', 'wide', 'unknown']],
      ['npu', ['t3']],
    ]);
    const loose = testTarget({
      computeUnits: [{ ...unitDoc('npu', ['Conv', 'ConvTranspose']), constraints: { maxConvKernel: 11 } }, unitDoc('cpu', ['*'])],
    });
    expect(fnsOf(g, analyse(g, loose))).toEqual([
      ['npu', ['attr', 'wide']],
      ['cpu', ['unknown']],
      ['npu', ['t3']],
    ]);
  });

  it('splits a run into its connected parts', () => {
    const g = tinyGraph()
      .input('x', [4])
      .input('z', [4])
      .node('Relu', ['x'], { a: [4] }, { name: 'p' })
      .node('Relu', ['z'], { b: [4] }, { name: 'q' })
      .node('Relu', ['a'], { c: [4] }, { name: 'p2' })
      .node('Add', ['c', 'b'], { y: [4] }, { name: 'join' })
      .output('y')
      .graph();
    const r = analyse(g, npuCpu(['Relu']));
    expect(fnsOf(g, r)).toEqual([
      ['npu', ['p', 'p2']],
      ['npu', ['q']],
      ['cpu', ['join']],
    ]);
    expect(r.partition.functions.map((f) => [f.firstStep, f.lastStep])).toEqual([
      [0, 2],
      [1, 1],
      [3, 3],
    ]);
  });

  it('reports ops no unit lists and gives them to the last unit without a wildcard', () => {
    const g = tinyGraph().input('x', [4]).node('Erf', ['x'], { y: [4] }, { name: 'e' }).output('y').graph();
    const r = analyse(g, testTarget({ computeUnits: [unitDoc('npu', ['Relu']), unitDoc('dsp', ['Tanh'])] }));
    expect(fnsOf(g, r)).toEqual([['dsp', ['e']]]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'unsupported-op', message: expect.stringContaining('Erf') })]);
  });
});
