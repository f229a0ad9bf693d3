import { describe, expect, it } from 'vitest';
import { DT } from '../../../model/dtype';
import { inferShapes } from '../../../model/infer/shapes';
import { irGraph } from '../../../model/testing/ir-builder';
import type { GraphCluster } from '../groups/clusters';
import type { GraphLayoutInput } from '../layout/layout-input';
import { planModel } from '../../../planner/plan';
import { presetTarget } from '../../../planner/targets/presets';
import { plannedConstants } from '../../../store/planned-constants';
import { dequantizeModel } from '../../../store/testing/dequantize-model';
import { bodiesToShow, groupsToOpen, matchBox, revealBox, searchGraph, stepMatch, type SearchMatch } from './search';

const model = inferShapes(
  irGraph()
    .input('image', DT.FLOAT, [1, 4])
    .node('Relu', ['image'], ['stem_out'], {}, { name: 'stem/relu' })
    .node('Sigmoid', ['stem_out'], ['gate'], {}, { name: 'block1/gate' })
    .node('Mul', ['stem_out', 'gate'], ['y'], {}, { name: 'block1/mul' })
    .output('y')
    .model(),
);

const scope = (id: string, nodes: number[], parent?: string): GraphCluster => ({ id, kind: 'scope', label: id.slice(3), detail: 'scope', nodes, parent });
const block = scope('sc:block1', [1, 2]);
const unit: GraphCluster = { id: 'fu:tfu3', kind: 'tfu', label: 'tfu3', detail: 'fusion (tfu)', nodes: [1, 2], parent: 'sc:block1' };
const clusters = [block, unit];

/** A match in words, for readable expectations. */
const words = (m: SearchMatch): string =>
  m.kind === 'group' ? `group ${m.cluster.id}` : m.kind === 'node' ? `node ${m.node}` : m.kind === 'body-node' ? `body ${m.box} in ${m.bodies.join('>')}` : `tensor ${m.name}`;

describe('searchGraph', () => {
  it('counts every node, tensor and group matching, not the boxes showing them', () => {
    expect(searchGraph(model, clusters, 'block1').map(words)).toEqual(['group sc:block1', 'node 1', 'node 2']);
    expect(searchGraph(model, clusters, 'SIGMOID').map(words)).toEqual(['node 1']);
    // A tensor once, after the node that writes it; its readers are not matches of its name.
    expect(searchGraph(model, clusters, 'stem_out').map(words)).toEqual(['tensor stem_out']);
    expect(searchGraph(model, clusters, 'image').map(words)).toEqual(['tensor image']);
    expect(searchGraph(model, clusters, 'tfu3').map(words)).toEqual(['group fu:tfu3']);
    expect(searchGraph(model, clusters, 'block1 mul').map(words)).toEqual(['node 2']);
    expect(searchGraph(model, clusters, '  ')).toEqual([]);
    expect(searchGraph(model, clusters, 'conv')).toEqual([]);
  });

  it('places a tensor at its producer, a graph input at its first reader', () => {
    const [y] = searchGraph(model, [], 'y');
    expect(y).toEqual({ kind: 'tensor', name: 'y', node: 2 });
    expect(searchGraph(model, [], 'image')[0]).toEqual({ kind: 'tensor', name: 'image', node: 0 });
  });
});

describe('groupsToOpen', () => {
  it('opens every collapsed group holding a node or tensor, and the groups around a group, not the group itself', () => {
    const collapsed = new Set(['sc:block1', 'fu:tfu3']);
    expect(groupsToOpen({ kind: 'node', node: 2 }, clusters, collapsed)).toEqual(['sc:block1', 'fu:tfu3']);
    expect(groupsToOpen({ kind: 'tensor', name: 'gate', node: 1 }, clusters, new Set(['sc:block1']))).toEqual(['sc:block1']);
    expect(groupsToOpen({ kind: 'node', node: 0 }, clusters, collapsed)).toEqual([]);
    expect(groupsToOpen({ kind: 'group', cluster: unit }, clusters, collapsed)).toEqual(['sc:block1']);
    expect(groupsToOpen({ kind: 'group', cluster: block }, clusters, collapsed)).toEqual([]);
  });

  it('opens nested scopes outermost first', () => {
    const outer = scope('sc:layers', [0, 1, 2]);
    const inner = scope('sc:layers/mlp', [1, 2], 'sc:layers');
    const all = [outer, inner];
    expect(groupsToOpen({ kind: 'node', node: 1 }, all, new Set(['sc:layers/mlp', 'sc:layers']))).toEqual(['sc:layers', 'sc:layers/mlp']);
    expect(groupsToOpen({ kind: 'group', cluster: inner }, all, new Set(['sc:layers']))).toEqual(['sc:layers']);
  });
});

describe('matchBox and revealBox', () => {
  const input = (items: string[], boxOfNode: (string | undefined)[], overlays: GraphCluster[] = [], folded: [string, string][] = []) => {
    const ioBoxes = new Map([...items.filter((id) => /^(in|out):/.test(id)).map((id): [string, string] => [id, id]), ...folded]);
    return { items: new Map(items.map((id) => [id, {}])), boxOfNode, ioBoxes, overlays, clusters } as unknown as GraphLayoutInput;
  };
  it("marks a collapsed group's box, an open fusion unit's frame, a graph input's box, else the node's box", () => {
    const closed = input(['n0', 'sc:block1', 'in:image'], ['n0', 'sc:block1', 'sc:block1']);
    expect(matchBox({ kind: 'node', node: 2 }, closed)).toBe('sc:block1');
    expect(matchBox({ kind: 'group', cluster: block }, closed)).toBe('sc:block1');
    expect(matchBox({ kind: 'tensor', name: 'image', node: 0 }, closed)).toBe('in:image');
    const open = input(['n0', 'n1', 'n2'], ['n0', 'n1', 'n2'], [unit]);
    expect(matchBox({ kind: 'group', cluster: unit }, open)).toBe('fu:tfu3');
    // A frame is drawn around its members, not laid out: the view pans to its first member.
    expect(revealBox({ kind: 'group', cluster: unit }, open)).toBe('n1');
    expect(revealBox({ kind: 'tensor', name: 'gate', node: 1 }, open)).toBe('n1');
    // A KV-cache input folded with others into one box: that box.
    const folded = input(['n0', 'n1', 'n2', 'kv-in:'], ['n0', 'n1', 'n2'], [], [['in:past.0.key', 'kv-in:']]);
    expect(matchBox({ kind: 'tensor', name: 'past.0.key', node: 0 }, folded)).toBe('kv-in:');
  });
});

describe('stepMatch', () => {
  it('steps forwards and backwards through the matches, wrapping around', () => {
    expect(stepMatch(undefined, 1, 3)).toBe(0);
    expect(stepMatch(undefined, -1, 3)).toBe(2);
    expect(stepMatch(2, 1, 3)).toBe(0);
    expect(stepMatch(0, -1, 3)).toBe(2);
    expect(stepMatch(1, 1, 3)).toBe(2);
    expect(stepMatch(0, 1, 0)).toBeUndefined();
  });
});

describe('searchGraph on weights', () => {
  it('finds the nodes reading a weight by its name, one match per reader', () => {
    const weighted = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [4])
        .initializer('scale', DT.FLOAT, [4])
        .node('Mul', ['x', 'scale'], ['a'], {}, { name: 'first' })
        .node('Mul', ['a', 'scale'], ['b'], {}, { name: 'second' })
        .output('b')
        .model(),
    );
    expect(searchGraph(weighted, [], 'scale').map(words)).toEqual(['node 0', 'node 1']);
  });

  it("finds a DEQUANTIZE of a weight that the plan runs (tflm) as a tensor, elsewhere by its reader", () => {
    const dequantized = dequantizeModel();
    const run = plannedConstants(dequantized, planModel(dequantized, presetTarget('tflm'))).values;
    expect(searchGraph(dequantized, [], 'w', run).filter((m) => m.kind === 'tensor').map(words)).toEqual(['tensor w']);
    expect(searchGraph(dequantized, [], 'w').filter((m) => m.kind === 'tensor')).toEqual([]);
  });
});

describe('search inside If and Loop bodies', () => {
  const branch = (name: string, inner?: ReturnType<ReturnType<typeof irGraph>['graph']>) => {
    const g = irGraph(name).node('Relu', ['x'], [`${name}_h`], {}, { name: `${name}/relu` });
    if (inner !== undefined) g.node('If', ['c'], [`${name}_out`], { then_branch: inner, else_branch: inner }, { name: `${name}/inner_if` });
    else g.node('Identity', [`${name}_h`], [`${name}_out`], {}, { name: `${name}/id` });
    return g.output(`${name}_out`).graph();
  };
  const withBodies = inferShapes(
    irGraph()
      .input('x', DT.FLOAT, [1, 4])
      .input('c', DT.BOOL, [])
      .node('If', ['c'], ['y'], { then_branch: branch('then', branch('deep')), else_branch: branch('else') }, { name: 'vad/If_0' })
      .output('y')
      .model(),
  );

  it("finds a body's nodes by name and op type, each once, with the bodies to show on its way", () => {
    expect(searchGraph(withBodies, [], 'relu').map(words)).toEqual(['body n0/g0/0 in n0', 'body n0/g0/1/g0/0 in n0>n0/g0/1', 'body n0/g0/1/g1/0 in n0>n0/g0/1', 'body n0/g1/0 in n0']);
    expect(searchGraph(withBodies, [], 'else').map(words)).toEqual(['body n0/g1/0 in n0', 'body n0/g1/1 in n0']);
  });

  it('stands at the op holding the body, and has a box of its own once its bodies are shown', () => {
    const [deep] = searchGraph(withBodies, [], 'deep/relu');
    expect(bodiesToShow(deep!, new Set())).toEqual(['n0', 'n0/g0/1']);
    expect(bodiesToShow(deep!, new Set(['n0']))).toEqual(['n0/g0/1']);
    const closed = { items: new Map([['n0', {}]]), overlays: [], ioBoxes: new Map(), boxOfNode: ['n0'] } as unknown as GraphLayoutInput;
    expect(matchBox(deep!, closed)).toBe('n0');
    const open = { ...closed, items: new Map([['n0', {}], [deep!.kind === 'body-node' ? deep!.box : '', {}]]) } as unknown as GraphLayoutInput;
    expect(revealBox(deep!, open)).toBe('n0/g0/1/g0/0');
  });
});

