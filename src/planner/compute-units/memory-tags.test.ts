import { describe, expect, it } from 'vitest';
import { npuCpu, unitDoc, withDtype } from '../testing/compute-units';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { computeUnitPlan, type ComputeUnitPlan } from './compute-plan';
import { placerOf } from '../testing/placer';

/** The tags of a plan as rows: expressions, reuse count, tensor and allocated bytes, type, creating function. */
const rows = (plan: ComputeUnitPlan) => plan.tags.tensors.map((t) => [t.tensors.join('+'), t.reuseCount, t.tensorBytes, t.allocatedBytes, t.dtype, t.function]);
const tagOf = (plan: ComputeUnitPlan, tensor: string) => plan.tags.tensors.find((t) => t.tensors.includes(tensor))!;
const bufferId = (plan: ComputeUnitPlan, name: string) => plan.built.problem.buffers.find((b) => b.name === name)!.id;

describe('memory tags (M3)', () => {
  it('gives every expression a tag with its memory, level sizes and reuse count', () => {
    const g = tinyGraph()
      .input('x', [1, 10])
      .weight('w', [10])
      .node('Conv', ['x', 'w'], { a: [1, 10] }, { name: 'conv' })
      .node('Softmax', ['a'], { y: [1, 10] }, { name: 'soft' })
      .output('y')
      .graph();
    const plan = computeUnitPlan(g, npuCpu(['Conv']), { place: placerOf(npuCpu(['Conv'])) })!;
    expect(rows(plan)).toEqual([
      // inputs and weights: 1 when created, +1 for the Conv that reads them
      ['x', 2, 10, 64, 'int8', undefined],
      ['w', 2, 40, 40, 'float32', undefined],
      // read once, by the copy into the CPU's float32 buffer
      ['a', 1, 10, 64, 'int8', 'npu#0'],
      ['a@cpu#1', 1, 40, 48, 'float32', 'cpu#1'],
      // a graph output: +1 when the run ends
      ['y', 1, 40, 48, 'float32', 'cpu#1'],
    ]);
    for (const name of ['x', 'a', 'a@cpu#1', 'y']) expect(tagOf(plan, name).memory).toBe(bufferId(plan, name));
    expect(tagOf(plan, 'w').memory).toBeUndefined();
    expect(plan.tags.tuples).toEqual([]);
  });

  it('reuses the input tag for an in-place result and across a shared boundary, bumping its count each time', () => {
    const g = tinyGraph()
      .input('x', [100])
      .node('Conv', ['x'], { a: [100] }, { name: 'conv' })
      .node('Tanh', ['a'], { b: [100] }, { name: 'tanh' })
      .node('Softmax', ['b'], { y: [100] }, { name: 'soft' })
      .output('y')
      .graph();
    const target = testTarget({ computeUnits: [unitDoc('npu', ['Conv']), unitDoc('cpu', ['*'])] });
    const shared = computeUnitPlan(g, target, { place: placerOf(target) })!;
    expect(shared.boundaries.map((b) => [b.tensor, b.shared])).toEqual([['a', true]]);
    // a: +1 Tanh reads it, +1 b takes it over in place, +1 Softmax reads b, +1 the CPU shares it
    expect(rows(shared)).toEqual([
      ['x', 2, 400, 400, 'float32', undefined],
      ['a+b', 4, 400, 400, 'float32', 'npu#0'],
      ['y', 1, 400, 400, 'float32', 'cpu#1'],
    ]);
    expect(tagOf(shared, 'b').memory).toBe(bufferId(shared, 'a'));

    const copied = computeUnitPlan(g, target, { place: placerOf(target), copyAll: true })!;
    expect(rows(copied)).toEqual([
      ['x', 2, 400, 400, 'float32', undefined],
      ['a', 1, 400, 400, 'float32', 'npu#0'],
      ['a@cpu#1+b', 3, 400, 400, 'float32', 'cpu#1'],
      ['y', 1, 400, 400, 'float32', 'cpu#1'],
    ]);
    expect(tagOf(copied, 'b').memory).toBe(bufferId(copied, 'a@cpu#1'));
  });

  it('gives a tuple one tensor tag per element, and a reader of one element only that element', () => {
    const g = withDtype(
      tinyGraph()
        .input('x', [2, 8])
        .node('Conv', ['x'], { a: [2, 8] }, { name: 'conv' })
        .node('Split', ['a'], { s0: [1, 8], s1: [1, 8] }, { name: 'split' })
        .node('TopK', ['s1'], { v: [1, 4], i: [1, 4] }, { name: 'topk' })
        .node('Conv', ['s0'], { c: [1, 8] }, { name: 'conv2' })
        .node('Relu', ['v'], { y: [1, 4] }, { name: 'relu' })
        .output('y', 'i', 'c')
        .graph(),
      'i',
      'int64',
    );
    const plan = computeUnitPlan(g, npuCpu(['Conv', 'Split', 'TopK']), { place: placerOf(npuCpu(['Conv', 'Split', 'TopK'])) })!;
    const ids = (...names: string[]) => names.map((n) => tagOf(plan, n).id);
    expect(plan.tags.tuples).toEqual([
      { node: 'split', elements: ids('s0', 's1') },
      { node: 'topk', elements: ids('v', 'i') },
    ]);
    // Split's elements are windows of their parent: their own tags, in its memory
    expect([tagOf(plan, 's0').memory, tagOf(plan, 's1').memory]).toEqual([bufferId(plan, 'a'), bufferId(plan, 'a')]);
    // each element is sized by its own type on the NPU: values int8, indices keep int64
    expect([tagOf(plan, 'v').dtype, tagOf(plan, 'v').tensorBytes]).toEqual(['int8', 4]);
    expect([tagOf(plan, 'i').dtype, tagOf(plan, 'i').tensorBytes, tagOf(plan, 'i').allocatedBytes]).toEqual(['int64', 32, 64]);
    // conv2 reads s0 only, topk s1 only; the copy to the CPU reads v only; i is counted once, as a graph output
    expect(['s0', 's1', 'v', 'i'].map((n) => tagOf(plan, n).reuseCount)).toEqual([1, 1, 1, 1]);
    expect(plan.boundaries.map((b) => [b.tensor, b.to, b.reason])).toEqual([['v', 'cpu#1', 'type-mismatch']]);
  });
});
