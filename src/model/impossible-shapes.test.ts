// Impossible and huge shapes: inference never reports a negative, fractional,
// NaN or inexact size, and never allocates per element of a huge dim.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './onnx/decode-onnx';
import { inferShapes } from './infer/shapes';
import type { InferredModel, InferredValue } from './inferred';
import { GraphBuilder, type ModelOptions } from './testing/onnx-writer';

function infer(build: (g: GraphBuilder) => void, options: ModelOptions = { opset: 18 }): InferredModel {
  const g = new GraphBuilder('g');
  build(g);
  return inferShapes(decodeOnnx(g.toBytes(options)));
}

const produced = (model: InferredModel): InferredValue[] => model.values.filter((v) => v.producer !== undefined);

/** Every dim is a non-negative integer and every size exact, or the value is listed as unknown. */
function expectPossible(model: InferredModel): void {
  for (const v of model.values) {
    for (const d of v.shape ?? []) expect(Number.isSafeInteger(d) && d >= 0, `${v.name}: ${v.shape?.join('×')}`).toBe(true);
    if (v.bytes !== undefined) expect(Number.isSafeInteger(v.bytes) && v.bytes >= 0, `${v.name}: ${v.bytes}`).toBe(true);
    else expect(v.unknownReason, v.name).toBeTruthy();
  }
}

function impossible(model: InferredModel): string[] {
  return model.diagnostics.filter((d) => d.code === 'impossible-shape').map((d) => d.message);
}

describe('impossible shapes become unknown with a diagnostic', () => {
  const cases: [string, (g: GraphBuilder) => void, ModelOptions?][] = [
    ['Tile with a negative repeat', (g) => g.output(g.node('Tile', [g.input('x', 'float32', [2, 3]), g.initializer('r', 'int64', [2], [-6, 2])], {}, { name: 'tile' }))],
    ['HannWindow of -3', (g) => g.output(g.node('HannWindow', [g.initializer('n', 'int64', [], [-3])], {}, { name: 'tile' }))],
    ['HammingWindow of -3', (g) => g.output(g.node('HammingWindow', [g.initializer('n', 'int64', [], [-3])], {}, { name: 'tile' }))],
    [
      'MaxUnpool with pads past its size',
      (g) => g.output(g.node('MaxUnpool', [g.input('x', 'float32', [1, 3, 1, 1]), g.input('i', 'int64', [1, 3, 1, 1])], { kernel_shape: [2, 2], pads: [0, 0, 3, 3] }, { name: 'tile' })),
    ],
    [
      'BiasSplitGelu on an odd last dim',
      (g) => g.output(g.node('BiasSplitGelu', [g.input('x', 'float32', [1, 4, 3]), g.input('b', 'float32', [3])], {}, { name: 'tile', domain: 'com.microsoft' })),
      { opset: 18, opsets: { 'com.microsoft': 1 } },
    ],
    ['Resize with a NaN scale', (g) => g.output(g.node('Resize', [g.input('x', 'float32', [1, 1, 4, 4]), '', g.initializer('s', 'float32', [4], [1, 1, NaN, 2])], {}, { name: 'tile' }))],
    ['CenterCropPad to a negative size', (g) => g.output(g.node('CenterCropPad', [g.input('x', 'float32', [4, 4]), g.initializer('s', 'int64', [2], [-2, 3])], {}, { name: 'tile' }))],
    ['AffineGrid of a negative size', (g) => g.output(g.node('AffineGrid', [g.input('t', 'float32', [1, 2, 3]), g.initializer('s', 'int64', [4], [1, 1, -5, 4])], {}, { name: 'tile' }))],
  ];
  it.each(cases)('%s', (_, build, options) => {
    const model = infer(build, options);
    expectPossible(model);
    const out = produced(model)[0];
    expect(out?.bytes).toBeUndefined();
    expect(out?.unknownReason).toBeTruthy();
    const diagnostics = [...impossible(model), ...model.diagnostics.filter((d) => d.code === 'unknown-shape').map((d) => d.message)];
    expect(diagnostics.join('\n')).toMatch(/tile/);
  });

  it('names the node and the values in the diagnostic', () => {
    const model = infer((g) => g.output(g.node('Tile', [g.input('x', 'float32', [2, 3]), g.initializer('r', 'int64', [2], [-6, 2])], {}, { name: 'tile' })));
    const diagnostic = model.diagnostics.find((d) => d.code === 'impossible-shape');
    expect(diagnostic?.node).toBe('tile');
    expect(diagnostic?.message).toContain('-12');
  });
});

describe('sizes past 2^53', () => {
  it('are unknown with a diagnostic naming the limit', () => {
    const model = infer((g) => g.output(g.node('Add', [g.input('a', 'float32', [2 ** 52]), g.input('b', 'float32', [2 ** 52])])));
    expectPossible(model);
    expect(produced(model)[0]?.bytes).toBeUndefined();
    const past = model.diagnostics.filter((d) => d.code === 'size-past-limit');
    expect(past.length).toBeGreaterThan(0);
    expect(past[0]?.message).toContain(String(Number.MAX_SAFE_INTEGER));
  });
});

describe('huge dims are never walked element by element', () => {
  it('SplitToSequence on [2^31, 4] keeps one merged element', () => {
    const model = infer((g) => {
      const seq = g.node('SplitToSequence', [g.input('x', 'float32', [2 ** 31, 4])]);
      g.output(g.node('SequenceAt', [seq, g.initializer('at', 'int64', [], [5])]));
    });
    expectPossible(model);
    expect(produced(model).at(-1)?.shape).toEqual([1, 4]);
  });

  it('SplitToSequence with a chunk size over a huge dim', () => {
    const model = infer((g) => {
      const seq = g.node('SplitToSequence', [g.input('x', 'float32', [2 ** 40, 4]), g.initializer('c', 'int64', [], [2])]);
      g.output(g.node('ConcatFromSequence', [seq], { axis: 0 }));
    });
    expectPossible(model);
  });

  it('Expand whose shape input has length 2^31 is an unknown with a reason', () => {
    const model = infer((g) => g.output(g.node('Expand', [g.input('x', 'float32', [2, 1]), g.input('s', 'int64', [2 ** 31])], {}, { name: 'expand' })));
    expectPossible(model);
    expect(produced(model)[0]?.shape).toBeUndefined();
    expect(model.diagnostics.map((d) => d.message).join('\n')).toMatch(/expand.*2147483648 is past 256/);
  });

  it.each(['ConstantOfShape', 'Reshape'])('%s with a shape input of length 2^31', (op) => {
    const model = infer((g) => {
      const inputs = op === 'Reshape' ? [g.input('x', 'float32', [2, 1]), g.input('s', 'int64', [2 ** 31])] : [g.input('s', 'int64', [2 ** 31])];
      g.output(g.node(op, inputs));
    });
    expectPossible(model);
    expect(produced(model)[0]?.shape).toBeUndefined();
  });

  it('Split with num_outputs far past its outputs', () => {
    const model = infer((g) => g.output(g.node('Split', [g.input('x', 'float32', [8, 4])], { num_outputs: 2 ** 40 })));
    expectPossible(model);
    expect(produced(model)[0]?.shape).toBeUndefined();
  });
});
