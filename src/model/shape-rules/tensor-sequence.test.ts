import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { IrGraph } from '../ir';
import type { RuleResult, TensorFact } from './types';
import { tensorRules } from './tensor';
import { MAX_MAPPED_BODIES } from './tensor-sequence';
import { attr, f32, factsOf, firstFact, i64, runRule } from '../testing/shape-rule-context';

const emptyBody: IrGraph = { name: 'body', nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: [] };

const run = (op: string, inputs: (TensorFact | undefined)[], attrs = {}): RuleResult => runRule(tensorRules, op, { inputs, attrs });

describe('sequences', () => {
  it('have no shape of their own, only a note', () => {
    const seq = firstFact(run('SequenceConstruct', [f32([2, 3]), f32([4, 3])]));
    expect(seq.shape).toBeUndefined();
    expect(seq.note).toMatch(/sequence of 2 tensors/);
  });

  it('give back exact elements, length and concatenation when built from known tensors', () => {
    const seq = firstFact(run('SequenceConstruct', [f32([2, 3]), f32([4, 3])]));
    expect(firstFact(run('SequenceAt', [seq, i64([-1], [])])).shape).toEqual([4, 3]);
    expect(firstFact(run('SequenceLength', [seq])).value).toEqual([2]);
    expect(firstFact(run('ConcatFromSequence', [seq], { axis: attr.int(0) })).shape).toEqual([6, 3]);
  });

  it('track inserts and erases', () => {
    const empty = firstFact(run('SequenceEmpty', [], { dtype: attr.int(DT.FLOAT) }));
    const one = firstFact(run('SequenceInsert', [empty, f32([5])]));
    const two = firstFact(run('SequenceInsert', [one, f32([7]), i64([0], [])]));
    expect(firstFact(run('SequenceAt', [two, i64([0], [])])).shape).toEqual([7]);
    const erased = firstFact(run('SequenceErase', [two]));
    expect(firstFact(run('SequenceLength', [erased])).value).toEqual([1]);
    expect(firstFact(run('SequenceAt', [erased, i64([0], [])])).shape).toEqual([7]);
  });

  it('split a tensor into pieces, stacking them back with new_axis', () => {
    const pieces = firstFact(run('SplitToSequence', [f32([6, 4])], { axis: attr.int(0), keepdims: attr.int(0) }));
    expect(firstFact(run('SequenceLength', [pieces])).value).toEqual([6]);
    expect(firstFact(run('SequenceAt', [pieces, i64([2], [])])).shape).toEqual([4]);
    const stacked = run('ConcatFromSequence', [pieces], { axis: attr.int(0), new_axis: attr.int(1) });
    expect(firstFact(stacked).shape).toEqual([6, 4]);
    const chunks = firstFact(run('SplitToSequence', [f32([7, 4]), i64([3], [])]));
    expect(firstFact(run('SequenceAt', [chunks, i64([2], [])])).shape).toEqual([1, 4]);
  });

  it('fall back to the merged element when the position is not constant', () => {
    const seq = firstFact(run('SequenceConstruct', [f32([2, 3]), f32([4, 3])]));
    expect(firstFact(run('SequenceAt', [seq, { dtype: DT.INT64, shape: [] }])).shape).toEqual([undefined, 3]);
  });

  it('read a declared sequence (a graph input) by its element type', () => {
    const declared = f32([undefined, 8]);
    expect(firstFact(run('SequenceAt', [declared, i64([0], [])])).shape).toEqual([undefined, 8]);
    const stacked = firstFact(run('ConcatFromSequence', [declared], { axis: attr.int(1) }));
    expect(stacked.shape).toEqual([undefined, undefined]);
  });

  it('map a body over every element with SequenceMap', () => {
    const seq = firstFact(run('SequenceConstruct', [f32([2]), f32([5])]));
    const body: IrGraph = { name: 'body', nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: [] };
    const seen: (readonly (TensorFact | undefined)[])[] = [];
    const mapped = runRule(tensorRules, 'SequenceMap', {
      inputs: [seq, f32([3])],
      attrs: { body: attr.graph(body) },
      inferSubgraph: (_graph, inputs) => {
        seen.push(inputs);
        const n = inputs[0]?.shape?.[0];
        return [f32([n, 3])];
      },
    });
    expect(seen.map((inputs) => inputs.map((f) => f?.shape))).toEqual([[[2], [3]], [[5], [3]]]);
    const out = firstFact(mapped);
    expect(firstFact(run('SequenceAt', [out, i64([1], [])])).shape).toEqual([5, 3]);
  });

  it('infer the SequenceMap body once per distinct element, and give each element its run', () => {
    const elements = Array.from({ length: 100 }, (_, i) => f32([i % 2 === 0 ? 2 : 5]));
    const seq = firstFact(run('SequenceConstruct', elements));
    const seen: (readonly (TensorFact | undefined)[])[] = [];
    const mapped = runRule(tensorRules, 'SequenceMap', {
      inputs: [seq, f32([3])],
      attrs: { body: attr.graph(emptyBody) },
      inferSubgraph: (_graph, inputs) => {
        seen.push(inputs);
        return [f32([inputs[0]?.shape?.[0], 3])];
      },
    });
    expect(seen.map((inputs) => inputs.map((f) => f?.shape))).toEqual([[[2], [3]], [[5], [3]]]);
    const out = firstFact(mapped);
    expect(firstFact(run('SequenceLength', [out])).value).toEqual([100]);
    expect(firstFact(run('SequenceAt', [out, i64([98], [])])).shape).toEqual([2, 3]);
    expect(firstFact(run('SequenceAt', [out, i64([99], [])])).shape).toEqual([5, 3]);
  });

  it('infer the SequenceMap body once on the merged elements past MAX_MAPPED_BODIES distinct ones', () => {
    const count = MAX_MAPPED_BODIES + 1;
    const seq = firstFact(run('SequenceConstruct', Array.from({ length: count }, (_, i) => f32([i + 1, 4]))));
    const seen: (readonly (TensorFact | undefined)[])[] = [];
    const mapped = runRule(tensorRules, 'SequenceMap', {
      inputs: [seq],
      attrs: { body: attr.graph(emptyBody) },
      inferSubgraph: (_graph, inputs) => {
        seen.push(inputs);
        return [inputs[0]];
      },
    });
    expect(seen.map((inputs) => inputs.map((f) => f?.shape))).toEqual([[[undefined, 4]]]);
    const out = firstFact(mapped);
    expect(firstFact(run('SequenceLength', [out])).value).toEqual([count]);
    expect(firstFact(run('SequenceAt', [out, i64([0], [])])).shape).toEqual([undefined, 4]);
  });

  it('say why when nothing is known about the elements', () => {
    expect(run('SequenceAt', [{ dtype: DT.FLOAT, shape: undefined }, i64([0], [])])).toHaveProperty('unknown');
  });
});

describe('optionals', () => {
  it('wrap and unwrap a tensor and know whether they hold one', () => {
    const some = firstFact(run('Optional', [f32([3])]));
    expect(firstFact(run('OptionalGetElement', [some])).shape).toEqual([3]);
    expect(firstFact(run('OptionalHasElement', [some])).value).toEqual([1]);
    const none = factsOf(runRule(tensorRules, 'Optional', { inputs: [], attrs: {} }))[0];
    expect(firstFact(run('OptionalHasElement', [none])).value).toEqual([0]);
    expect(firstFact(run('OptionalHasElement', [undefined])).value).toEqual([0]);
  });
});
