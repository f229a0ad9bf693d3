import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { InferredModel, InferredValue } from '../inferred';
import { inferShapes } from './shapes';
import { irGraph } from '../testing/ir-builder';

const valueOf = (model: InferredModel, name: string): InferredValue => {
  const value = model.values.find((v) => v.name === name);
  if (value === undefined) throw new Error(`no value ${name}`);
  return value;
};

const dimsOf = (model: InferredModel): Record<string, [number, string]> =>
  Object.fromEntries(model.dims.map((d) => [d.name, [d.value, d.source]]));

/** A decoder-style graph: ids [batch, sequence], a KV cache [batch, 2, past, 4] and a mask [batch, total]. */
function decoderGraph() {
  return irGraph()
    .input('ids', DT.INT64, ['batch_size', 'sequence_length'])
    .input('past', DT.FLOAT, ['batch_size', 2, 'past_sequence_length', 4])
    .input('mask', DT.INT64, ['batch_size', 'total_sequence_length'])
    .input('pixels', DT.FLOAT, [undefined, 3, 'height', 'crop'])
    .node('Identity', ['ids'], ['ids_out'])
    .output('ids_out');
}

describe('symbolic dims', () => {
  it('binds documented defaults: batch 1, sequence 128, past 0, total = sequence + past, image axes 224', () => {
    const model = inferShapes(decoderGraph().model());
    expect(dimsOf(model)).toEqual({
      batch_size: [1, 'default'],
      sequence_length: [128, 'default'],
      past_sequence_length: [0, 'default'],
      total_sequence_length: [128, 'default'],
      'pixels:0': [1, 'default'],
      height: [224, 'default'],
      crop: [224, 'default'],
    });
    const crop = model.dims.find((d) => d.name === 'crop');
    expect(crop?.axes).toEqual(['pixels:3']);
    expect(crop?.rule).toMatch(/image axis/);
    expect(model.dims.find((d) => d.name === 'batch_size')?.axes).toEqual(['ids:0', 'past:0', 'mask:0']);
    expect(valueOf(model, 'past').shape).toEqual([1, 2, 0, 4]);
    expect(valueOf(model, 'past').bytes).toBe(0);
  });

  it('uses the user values, derives the total from them, and reports unknown names', () => {
    const model = inferShapes(decoderGraph().model(), { dims: { sequence_length: 16, past_sequence_length: 32, 'pixels:0': 4, typo: 3 } });
    expect(dimsOf(model)).toMatchObject({
      sequence_length: [16, 'user'],
      past_sequence_length: [32, 'user'],
      total_sequence_length: [48, 'derived'],
      'pixels:0': [4, 'user'],
    });
    expect(valueOf(model, 'mask').shape).toEqual([1, 48]);
    expect(valueOf(model, 'pixels').shape).toEqual([4, 3, 224, 224]);
    expect(model.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-dim', message: expect.stringContaining("'typo'") }));
  });

  it('resolves arithmetic in declared dims when a node has no rule', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, ['batch', 'past_len', 8])
        .node('CustomCache', ['x'], ['y'], {}, { domain: 'example.ops' })
        .output('y', DT.FLOAT, ['batch', 'past_len + 1', 8])
        .model(18, { 'example.ops': 1 }),
      { dims: { past_len: 9 } },
    );
    expect(valueOf(model, 'y').shape).toEqual([1, 10, 8]);
  });
});

describe('inference walk', () => {
  it('sizes every value, with producers, consumers and kinds in first-appearance order', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT16, [1, 3, 8, 8])
        .initializer('w', DT.FLOAT16, [4, 3, 3, 3])
        .node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] })
        .node('Relu', ['c'], ['r'])
        .node('Add', ['r', 'c'], ['y'])
        .output('y')
        .model(),
    );
    expect(model.values.map((v) => [v.name, v.kind, v.producer, v.consumers, v.bytes])).toEqual([
      ['x', 'input', undefined, [0], 1 * 3 * 8 * 8 * 2],
      ['w', 'initializer', undefined, [0], 4 * 3 * 3 * 3 * 2],
      ['c', 'activation', 0, [1, 2], 4 * 8 * 8 * 2],
      ['r', 'activation', 1, [2], 4 * 8 * 8 * 2],
      ['y', 'output', 2, [], 4 * 8 * 8 * 2],
    ]);
    expect(model.values.every((v) => v.dtypeName === 'float16')).toBe(true);
  });

  it('orders nodes listed out of order before inferring', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [2, 3])
        .node('Relu', ['a'], ['b'])
        .node('Neg', ['x'], ['a'])
        .output('b')
        .model(),
    );
    expect(model.nodes.map((n) => n.opType)).toEqual(['Neg', 'Relu']);
    expect(valueOf(model, 'b').shape).toEqual([2, 3]);
  });

  it('reports an op without a rule and keeps what value_info declares for its outputs', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [2, 3])
        .node('Mystery', ['x'], ['m'], {}, { name: 'mystery_node', domain: 'example.ops' })
        .node('Mystery', ['m'], ['n'], {}, { name: 'second', domain: 'example.ops' })
        .node('Relu', ['m'], ['y'])
        .info('m', DT.FLOAT, [6])
        .output('y')
        .output('n')
        .model(18, { 'example.ops': 1 }),
    );
    expect(model.diagnostics).toContainEqual(expect.objectContaining({ code: 'no-shape-rule', node: 'mystery_node' }));
    expect(valueOf(model, 'm').shape).toEqual([6]);
    expect(valueOf(model, 'y').shape).toEqual([6]);
    const unknown = valueOf(model, 'n');
    expect([unknown.shape, unknown.bytes]).toEqual([undefined, undefined]);
    expect(unknown.unknownReason).toContain('example.ops::Mystery');
  });

  it('reports a declared shape that disagrees with inference, keeping the inferred one', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [2, 3])
        .node('Transpose', ['x'], ['t'], { perm: [1, 0] })
        .info('t', DT.FLOAT, [2, 3])
        .output('t')
        .model(),
    );
    expect(valueOf(model, 't').shape).toEqual([3, 2]);
    expect(model.diagnostics).toContainEqual(expect.objectContaining({ code: 'shape-mismatch', node: 'Transpose_0' }));
  });

  it('fills dims a rule leaves unknown from value_info', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [4, 6])
        .input('shape', DT.INT64, [2])
        .node('Reshape', ['x', 'shape'], ['y'])
        .info('y', DT.FLOAT, [3, 8])
        .output('y')
        .model(),
    );
    expect(valueOf(model, 'y').shape).toEqual([3, 8]);
    expect(model.diagnostics.filter((d) => d.code === 'shape-mismatch')).toEqual([]);
  });

  it('rounds sub-byte tensors up per tensor and leaves strings unsized', () => {
    const model = inferShapes(
      irGraph()
        .input('q', DT.INT4, [3])
        .input('s', DT.STRING, [2])
        .node('Identity', ['q'], ['q2'])
        .node('Identity', ['s'], ['s2'])
        .output('q2')
        .output('s2')
        .model(),
    );
    expect(valueOf(model, 'q2').bytes).toBe(2);
    expect(valueOf(model, 's2').shape).toEqual([2]);
    expect(valueOf(model, 's2').bytes).toBeUndefined();
    expect(valueOf(model, 's2').unknownReason).toContain('string');
  });
});

describe('sequences', () => {
  it('gives a sequence no tensor shape, even though its element type is declared', () => {
    const model = inferShapes(
      irGraph()
        .sequenceInput('seq', DT.FLOAT, [2, 3])
        .node('SequenceLength', ['seq'], ['n'])
        .output('n')
        .model(),
    );
    const seq = valueOf(model, 'seq');
    expect([seq.shape, seq.bytes]).toEqual([undefined, undefined]);
    expect(seq.unknownReason).toContain('sequence');
    expect(valueOf(model, 'n').shape).toEqual([]);
  });
});

describe('constant classification', () => {
  /** Reshape x to [dim0 of x, -1] through Shape/Gather/Concat: shape arithmetic. */
  function flattenGraph(first: number | string) {
    return irGraph()
      .input('x', DT.FLOAT, [first, 3, 4])
      .initializer('zero', DT.INT64, [1], [0])
      .initializer('minus_one', DT.INT64, [1], [-1])
      .node('Shape', ['x'], ['s'])
      .node('Gather', ['s', 'zero'], ['d0'], { axis: 0 })
      .node('Concat', ['d0', 'minus_one'], ['target'], { axis: 0 })
      .node('Reshape', ['x', 'target'], ['y'])
      .output('y');
  }

  it('treats shape arithmetic on a static shape as constants', () => {
    const model = inferShapes(flattenGraph(2).model());
    expect(['s', 'd0', 'target'].map((n) => valueOf(model, n).kind)).toEqual(['constant', 'constant', 'constant']);
    expect(model.nodes.map((n) => n.constant)).toEqual([true, true, true, false]);
    expect(valueOf(model, 'y').shape).toEqual([2, 12]);
  });

  it('keeps shape arithmetic on a symbolic shape as activations, still resolving the shape', () => {
    const model = inferShapes(flattenGraph('batch').model(), { dims: { batch: 5 } });
    expect(['s', 'd0', 'target'].map((n) => valueOf(model, n).kind)).toEqual(['activation', 'activation', 'activation']);
    expect(valueOf(model, 'y').shape).toEqual([5, 12]);
  });

  it('classifies ConstantOfShape of an initializer as constant and random generators as activations', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [2, 3])
        .initializer('dims', DT.INT64, [2], [2, 3])
        .node('ConstantOfShape', ['dims'], ['w'])
        .node('RandomNormal', [], ['noise'], { shape: [2, 3] })
        .node('Add', ['x', 'w'], ['a'])
        .node('Add', ['a', 'noise'], ['y'])
        .output('y')
        .model(),
    );
    expect(valueOf(model, 'w').kind).toBe('constant');
    expect(valueOf(model, 'noise').kind).toBe('activation');
    expect(valueOf(model, 'a').kind).toBe('activation');
  });
});

describe('subgraphs', () => {
  it('infers If branches with outer-scope values and records them on the node', () => {
    const branch = (op: string, name: string) =>
      irGraph(name).node(op, ['outer'], [`${name}_out`]).output(`${name}_out`).graph();
    const model = inferShapes(
      irGraph()
        .input('cond', DT.BOOL, [])
        .input('x', DT.FLOAT, [2, 5])
        .node('Relu', ['x'], ['outer'])
        .node('If', ['cond'], ['y'], { then_branch: branch('Neg', 'then'), else_branch: branch('Abs', 'else') })
        .output('y')
        .model(),
    );
    const ifNode = model.nodes[1];
    expect(ifNode?.subgraphs.map((g) => g.name)).toEqual(['then', 'else']);
    expect(ifNode?.subgraphs[0]?.values.map((v) => [v.name, v.shape])).toEqual([['then_out', [2, 5]]]);
    expect(valueOf(model, 'y').shape).toEqual([2, 5]);
    // The branch reads 'outer', so it stays live until the If runs.
    expect(valueOf(model, 'outer').consumers).toEqual([1]);
  });
});
