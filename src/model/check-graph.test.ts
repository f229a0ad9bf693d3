// checkGraph and topologicalOrder on IR graphs built by hand: defined names, outer
// scopes of subgraphs, cycles, and execution orders of shuffled DAGs (property test).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../shared/errors';
import { checkGraph, nodeReads, outerNames, topologicalOrder } from './check-graph';
import type { IrGraph, IrModel, IrNode, IrValueInfo } from './ir';

const value = (name: string): IrValueInfo => ({ name, dtype: 1, shape: [1], kind: 'tensor' });

const node = (name: string, inputs: string[], outputs: string[], subgraphs: Record<string, IrGraph> = {}): IrNode => ({
  name,
  opType: Object.keys(subgraphs).length > 0 ? 'If' : 'Op',
  domain: '',
  inputs,
  outputs,
  attributes: Object.fromEntries(Object.entries(subgraphs).map(([k, g]) => [k, { kind: 'graph', value: g }])),
});

const graph = (nodes: IrNode[], inputs: string[] = ['x'], outputs: string[] = [], initializers: string[] = []): IrGraph => ({
  name: 'g',
  nodes,
  inputs: inputs.map(value),
  outputs: outputs.map(value),
  valueInfo: [],
  initializers: initializers.map((name) => ({
    name, dtype: 1, dims: [1], raw: undefined, values: [0], strings: undefined, external: undefined,
  })),
});

const model = (g: IrGraph): IrModel => ({
  irVersion: 8, producerName: '', producerVersion: '', domain: '', modelVersion: 0,
  opsets: [{ domain: '', version: 17 }], graph: g, fileBytes: 0, diagnostics: [],
});

function badGraph(g: IrGraph): string {
  try {
    checkGraph(model(g));
  } catch (error) {
    if (error instanceof InputError && error.code === 'bad-graph') return error.message;
    throw error;
  }
  throw new Error('checkGraph accepted the graph');
}

describe('topologicalOrder', () => {
  it('keeps the file order when it is already an execution order', () => {
    const g = graph([node('a', ['x'], ['p']), node('b', ['p', 'x'], ['q']), node('c', ['q', 'p'], ['r'])]);
    expect(topologicalOrder(g)).toEqual([0, 1, 2]);
  });

  it('reorders a graph listed out of order, taking the earliest ready node first', () => {
    const g = graph([
      node('late', ['q'], ['r']),
      node('first', ['x'], ['p']),
      node('other', ['x'], ['s']),
      node('second', ['p'], ['q']),
    ]);
    expect(topologicalOrder(g)).toEqual([1, 2, 3, 0]);
  });

  it('runs the producer of a tensor a subgraph reads before the node that holds the subgraph', () => {
    const branch = graph([node('use', ['late'], ['y'])], [], ['y']);
    const g = graph([node('if', ['x'], ['out'], { then_branch: branch }), node('make', ['x'], ['late'])]);
    expect(nodeReads(g.nodes[0]!)).toEqual(['x', 'late']);
    expect(topologicalOrder(g)).toEqual([1, 0]);
  });

  it('throws bad-graph for a cycle', () => {
    const g = graph([node('a', ['x', 'q'], ['p']), node('b', ['p'], ['q'])]);
    expect(() => topologicalOrder(g)).toThrow(/cycle: 'a' -> 'b' -> 'a'/);
  });

  it('orders a long chain written backwards', () => {
    const n = 5000;
    const nodes = Array.from({ length: n }, (_, i) => node(`n${i}`, [i === n - 1 ? 'x' : `t${i + 1}`], [`t${i}`]));
    expect(topologicalOrder(graph(nodes))).toEqual(Array.from({ length: n }, (_, i) => n - 1 - i));
  });

  it('gives a valid order of any shuffled DAG, a permutation of its nodes', () => {
    const dag = fc.integer({ min: 1, max: 40 }).chain((n) =>
      fc.tuple(
        fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }),
        fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }),
      ),
    );
    fc.assert(
      fc.property(dag, ([reads, placement]) => {
        // Node k reads outputs of nodes j < k only, so the graph is a DAG; then the nodes are shuffled.
        const nodes = reads.map((rs, k) => node(`n${k}`, ['x', ...rs.filter((j) => j < k).map((j) => `t${j}`)], [`t${k}`]));
        const shuffled = placement.map((k) => nodes[k]!);
        const order = topologicalOrder(graph(shuffled));
        expect([...order].sort((a, b) => a - b)).toEqual(shuffled.map((_, i) => i));
        const done = new Set<string>(['x']);
        for (const i of order) {
          for (const input of shuffled[i]!.inputs) expect(done.has(input)).toBe(true);
          shuffled[i]!.outputs.forEach((o) => done.add(o));
        }
        checkGraph(model(graph(shuffled)));
      }),
      { seed: 1234, numRuns: 200 },
    );
  });
});

describe('checkGraph', () => {
  it('accepts inputs, initializers, node outputs and skipped optional inputs', () => {
    const g = graph([node('a', ['x', 'w', ''], ['p']), node('b', ['p'], ['y', ''])], ['x'], ['y'], ['w']);
    expect(() => checkGraph(model(g))).not.toThrow();
  });

  it('names the node and the tensor it reads that nothing defines', () => {
    const g = graph([node('a', ['x'], ['p']), node('conv', ['p', 'missing_w'], ['q'])]);
    expect(badGraph(g)).toMatch(/node 'conv' \(Op\) reads tensor 'missing_w'/);
  });

  it('lets subgraphs read names of every enclosing graph, and no others', () => {
    const inner = graph([node('deep', ['p', 'local', 'x'], ['z'])], [], ['z']);
    const branch = graph([node('mid', ['p'], ['local']), node('nested', ['x'], ['w'], { body: inner })], [], ['w']);
    const ok = graph([node('a', ['x'], ['p']), node('if', ['x'], ['out'], { then_branch: branch })]);
    expect(() => checkGraph(model(ok))).not.toThrow();
    expect(outerNames(branch)).toEqual(['p', 'x']);

    const leaky = graph([node('deep', ['elsewhere'], ['z'])], [], ['z']);
    const bad = graph([node('if', ['x'], ['out'], { then_branch: graph([node('n', ['x'], ['w'], { body: leaky })], [], ['w']) })]);
    expect(badGraph(bad)).toMatch(/node 'deep' \(Op\) in subgraph 'g' of node 'n' in subgraph 'g' of node 'if' reads tensor 'elsewhere'/);
  });

  it('does not let a graph read names defined only inside its subgraphs', () => {
    const branch = graph([node('inner', ['x'], ['hidden'])], [], ['hidden']);
    const g = graph([node('if', ['x'], ['out'], { then_branch: branch }), node('peek', ['hidden'], ['y'])]);
    expect(badGraph(g)).toMatch(/node 'peek' \(Op\) reads tensor 'hidden'/);
  });

  it('names the nodes of a cycle, and only those', () => {
    const g = graph([
      node('before', ['x'], ['a']),
      node('c1', ['a', 'c3out'], ['c1out']),
      node('c2', ['c1out'], ['c2out']),
      node('c3', ['c2out'], ['c3out']),
      node('after', ['c3out'], ['z']),
    ]);
    expect(badGraph(g)).toMatch(/has a cycle: 'c1' -> 'c2' -> 'c3' -> 'c1'$/);
    expect(badGraph(graph([node('self', ['x', 'own'], ['own'])]))).toMatch(/cycle: 'self' -> 'self'/);
  });

  it('rejects a tensor written by two nodes and a graph output nothing computes', () => {
    expect(badGraph(graph([node('a', ['x'], ['p']), node('b', ['x'], ['p'])]))).toMatch(/'p' is written by two nodes, 'a' and 'b'/);
    expect(badGraph(graph([node('a', ['x'], ['p', 'p'])]))).toMatch(/node 'a' \(Op\) writes tensor 'p' twice/);
    expect(badGraph(graph([node('a', ['x'], ['p'])], ['x'], ['nowhere']))).toMatch(/graph output 'nowhere'/);
  });

  it('rejects a node that writes an initializer or a graph input, naming both, in the main graph and in subgraphs', () => {
    const weights = graph([node('a', ['x', 'w'], ['w'])], ['x'], [], ['w']);
    expect(badGraph(weights)).toBe("node 'a' (Op) writes 'w', which is an initializer: an ONNX graph gives each name one value");
    const input = graph([node('a', ['x'], ['p']), node('b', ['p'], ['x'])], ['x']);
    expect(badGraph(input)).toBe("node 'b' (Op) writes 'x', which is a graph input: an ONNX graph gives each name one value");
    const body = graph([node('inner', ['v'], ['v'])], ['v']);
    expect(badGraph(graph([node('if', ['x'], ['y'], { then_branch: body })]))).toMatch(/node 'inner' \(Op\) in subgraph 'g' of node 'if' writes 'v', which is a graph input/);
  });

  it('lets a TensorFlow Lite operator write a subgraph input, which is one tensor there', () => {
    const g = graph([node('a', ['w'], ['x'])], ['x'], [], ['w']);
    expect(() => checkGraph({ ...model(g), format: 'tflite' })).not.toThrow();
    expect(badGraph(g)).toMatch(/writes 'x', which is a graph input/);
  });

  it('cuts long names in its messages to 120 characters', () => {
    const long = 'n'.repeat(100_000);
    const message = badGraph(graph([node(long, ['x'], ['p']), node('b', ['x'], ['p'])]));
    expect(message.length).toBeLessThan(300);
    expect(message).toContain(`'${'n'.repeat(120)}…'`);
  });

  it('names the innermost and the outermost of 65 nested subgraphs on one short line', () => {
    let inner = graph([node('deepest', ['nothing'], ['z'])], []);
    for (let level = 64; level >= 1; level--) inner = { ...graph([node(`if${level}`, [], ['y'], { then_branch: inner })], []), name: `g${level}` };
    const message = badGraph(graph([node('if0', ['x'], ['y'], { then_branch: inner })]));
    expect(message).toBe("node 'deepest' (Op) in subgraph 'g' of node 'if64', 65 subgraphs deep in subgraph 'g1' of node 'if0' reads tensor 'nothing', which is not a graph input, an initializer or any node’s output");
  });
});
