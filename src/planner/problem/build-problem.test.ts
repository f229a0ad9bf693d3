import { describe, expect, it } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { buildProblem, type BuiltProblem } from './build-problem';
import { lowerBound } from './lower-bound';
import { testTarget, tinyGraph, type TinyGraph } from '../testing/tiny-graph';
import type { TargetProfile } from '../targets/target';
import { validatePlan } from '../assembly/validate-plan';
import { placerOf } from '../testing/placer';

/** Builds, plans with m1 and checks the plan; returns the build and the offsets. */
function build(g: TinyGraph, target: TargetProfile = testTarget()) {
  const built = buildProblem(g.model(), target, { place: placerOf(target) });
  const result = assignOffsets(built.problem, 'm1');
  expect(validatePlan(built.problem, result).violations).toEqual([]);
  expect(result.peak).toBeGreaterThanOrEqual(lowerBound(built.problem).lowerBound);
  return { built, result };
}

/** Aliases as [child, parent, offset, rule] by name. */
function aliases(built: BuiltProblem) {
  const name = (id: number) => built.problem.buffers[id]!.name;
  return built.info.flatMap((info, id) => (info.alias ? [[name(id), name(info.alias.parent), info.alias.offset, info.alias.rule]] : []));
}

function buffer(built: BuiltProblem, name: string) {
  const id = built.problem.buffers.findIndex((b) => b.name === name);
  expect(id).toBeGreaterThanOrEqual(0);
  return { ...built.problem.buffers[id]!, ...built.info[id]! };
}

const codes = (built: BuiltProblem) => built.diagnostics.map((d) => d.code);

describe('buffers, sizes and lifetimes', () => {
  it('makes one buffer per run-time tensor; weights go to their own total', () => {
    const g = tinyGraph('uint8').input('x', [10]).weight('w', [7]).node('Conv', ['x', 'w'], { y: [12] }).output('y');
    const { built } = build(g, testTarget({ alignment: 16 }));
    expect(built.problem.buffers.map((b) => [b.name, b.size, b.start, b.end])).toEqual([
      ['x', 16, 0, 1],
      ['y', 16, 0, 1],
    ]);
    expect(buffer(built, 'x').padding).toBe(6);
    expect(buffer(built, 'y').padding).toBe(4);
    expect(built.weights).toEqual({ region: 'weights', bytes: 7, tensors: 1, unknownSizes: 0 });
  });

  it('plans unknown sizes as 0 bytes and says so', () => {
    const g = tinyGraph('uint8').input('x', [4]).node('NonZero', ['x'], { y: undefined }).node('Relu', ['y'], { z: [2] }).output('z');
    const { built } = build(g);
    expect(buffer(built, 'y').size).toBe(0);
    expect(built.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-size', message: expect.stringContaining('y') }));
  });

  it('counts a subgraph body as one buffer at its node step, and keeps outer values it reads alive', () => {
    const body = tinyGraph('uint8', 'then').input('i', [4]).node('Relu', ['i'], { j: [40] }).node('Relu', ['j'], { k: [4] }).output('k').graph();
    const g = tinyGraph('uint8')
      .input('x', [8])
      .input('cond', [1])
      .node('Relu', ['x'], { held: [30] })
      .node('If', ['cond'], { r: [4] }, { name: 'if', subgraphs: [body], reads: ['held'] })
      .node('Relu', ['r'], { out: [4] })
      .output('out');
    const { built } = build(g);
    // the body's own plan: i (4) + j (40) live at step 0, j + k at step 1 -> 44
    expect(built.bodies).toEqual([{ node: 'if', step: 1, peak: 44, lowerBound: 44 }]);
    const b = buffer(built, 'if:body');
    expect([b.kind, b.size, b.start, b.end]).toEqual(['subgraph', 44, 1, 2]);
    expect(buffer(built, 'held').end).toBe(2);
  });
});

describe('memory sharing (M1 operator kinds)', () => {
  it('removable ops alias their input at offset 0 and share its size', () => {
    const g = tinyGraph('uint8')
      .input('x', [2, 6])
      .node('Conv', ['x'], { c: [2, 6] })
      .node('Reshape', ['c'], { r: [12] })
      .node('Flatten', ['r'], { f: [1, 12] })
      .node('Identity', ['f'], { i: [1, 12] })
      .node('Dropout', ['i'], { d: [1, 12] })
      .node('Conv', ['d'], { y: [3] })
      .output('y');
    const { built, result } = build(g, testTarget({ alignment: 16 }));
    expect(aliases(built)).toEqual([
      ['r', 'c', 0, 'removable'],
      ['f', 'r', 0, 'removable'],
      ['i', 'f', 0, 'removable'],
      ['d', 'i', 0, 'removable'],
    ]);
    for (const name of ['r', 'f', 'i', 'd']) expect(buffer(built, name).size).toBe(16);
    const at = (name: string) => result.offsets[built.problem.buffers.findIndex((b) => b.name === name)];
    expect(new Set(['c', 'r', 'f', 'i', 'd'].map(at)).size).toBe(1);
  });

  it('keeps a Dropout with a run-time training_mode as a copy', () => {
    const g = tinyGraph('uint8').input('x', [4]).input('train', [1]).node('Dropout', ['x', '', 'train'], { d: [4] }).node('Relu', ['d'], { y: [4] }).output('y');
    const { built } = build(g);
    expect(buffer(built, 'd').kind).toBe('copy');
    expect(built.diagnostics).toContainEqual(expect.objectContaining({ code: 'copy', message: expect.stringMatching(/training_mode/) }));
  });

  it('makes Split outputs windows of the input at their byte offsets', () => {
    const g = tinyGraph('float32')
      .input('x', [1, 8])
      .node('Conv', ['x'], { c: [1, 6, 2] })
      .node('Split', ['c'], { s0: [1, 2, 2], s1: [1, 4, 2] })
      .node('Relu', ['s1'], { a: [1, 4, 2] })
      .node('Add', ['s0', 's0'], { b: [1, 2, 2] })
      .output('a', 'b');
    const { built } = build(g, testTarget({ alignment: 16 }));
    expect(aliases(built).filter((a) => a[3] === 'window')).toEqual([
      ['s0', 'c', 0, 'window'],
      ['s1', 'c', 16, 'window'],
    ]);
    expect(buffer(built, 's1').size).toBe(32);
  });

  it.each([
    ['the split axis has dims other than 1 before it', [1, 2, 4], { s0: [1, 2, 2], s1: [1, 2, 2] }, 1, /not contiguous/],
    ['a window would start misaligned', [1, 6], { s0: [1, 1], s1: [1, 5] }, 16, /byte 4, not a multiple of the alignment 16/],
  ])('copies a Split when %s', (_why, shape, outputs, alignment, message) => {
    const g = tinyGraph('float32').input('x', [1]).node('Conv', ['x'], { c: shape }).node('Split', ['c'], outputs).output(...Object.keys(outputs));
    const { built } = build(g, testTarget({ alignment }));
    expect(aliases(built)).toEqual([]);
    expect(buffer(built, 's0').kind).toBe('copy');
    expect(built.diagnostics).toContainEqual(expect.objectContaining({ code: 'split-copy', message: expect.stringMatching(message) }));
  });

  it('lets an element-wise op reuse an input nobody reads later', () => {
    const g = tinyGraph('uint8')
      .input('x', [8])
      .node('Conv', ['x'], { a: [8] })
      .node('Conv', ['x'], { b: [8] })
      .node('Relu', ['a'], { r: [8] }) // a is read later by Mul: no reuse
      .node('Add', ['a', 'b'], { s: [8] }) // a read later (Mul), b not: s takes b's bytes
      .node('Mul', ['s', 'a'], { m: [8] }) // s is free now: m takes s's bytes (and so b's)
      .node('Add', ['m', 'r'], { y: [8] }) // a graph output may take an input's bytes
      .output('y');
    const { built } = build(g);
    expect(aliases(built)).toEqual([
      ['s', 'b', 0, 'in-place'],
      ['m', 's', 0, 'in-place'],
      ['y', 'm', 0, 'in-place'],
    ]);
  });

  it('never writes in place over a graph input or output', () => {
    const g = tinyGraph('uint8')
      .input('x', [8])
      .node('Relu', ['x'], { a: [8] }) // x is a graph input
      .node('Relu', ['a'], { o: [8] })
      .node('Relu', ['o'], { p: [8] }) // o is a graph output
      .output('o', 'p');
    const { built } = build(g);
    expect(aliases(built)).toEqual([['o', 'a', 0, 'in-place']]);
  });

  it('refuses in-place reuse of bytes a view still needs', () => {
    const g = tinyGraph('uint8')
      .input('x', [8])
      .node('Conv', ['x'], { a: [8] })
      .node('Reshape', ['a'], { v: [2, 4] })
      .node('Relu', ['a'], { r: [8] }) // a's last direct use, but its view v is read by the next node
      .node('Add', ['v', 'r'], { y: [2, 4] }) // now nobody reads a's bytes after this step
      .output('y');
    const { built } = build(g);
    expect(aliases(built)).toEqual([
      ['v', 'a', 0, 'removable'],
      ['y', 'v', 0, 'in-place'],
    ]);
  });

  it('refuses in-place reuse of an input the op also reads through a window of it', () => {
    const g = tinyGraph('uint8')
      .input('x', [1])
      .node('Conv', ['x'], { c: [2, 4] })
      .node('Split', ['c'], { s0: [1, 4], s1: [1, 4] })
      .node('Relu', ['s1'], { r: [1, 4] })
      .node('Add', ['c', 's0'], { y: [2, 4] }) // row 1 of y reads s0 = row 0 of c after row 0 is written
      .output('r', 'y');
    const { built } = build(g);
    expect(aliases(built)).toEqual([
      ['s0', 'c', 0, 'window'],
      ['s1', 'c', 4, 'window'],
    ]);
  });

  it('writes Concat inputs straight into their windows of the output, in input order', () => {
    const g = tinyGraph('float32')
      .input('x', [1, 1, 4])
      .node('Conv', ['x'], { a: [1, 2, 4] })
      .node('Conv', ['x'], { b: [1, 1, 4] })
      .node('Conv', ['x'], { c: [1, 3, 4] })
      .node('Concat', ['b', 'a', 'c'], { cat: [1, 6, 4] })
      .node('Conv', ['cat'], { y: [1] })
      .output('y');
    const { built } = build(g, testTarget({ alignment: 16 }));
    expect(aliases(built)).toEqual([
      ['a', 'cat', 16, 'concat'],
      ['b', 'cat', 0, 'concat'],
      ['c', 'cat', 48, 'concat'],
    ]);
    expect(built.diagnostics).toEqual([]);
  });

  it.each([
    ['a graph input', (g: TinyGraph) => g.node('Concat', ['x', 'a'], { cat: [1, 3, 4] }), /"x" is a graph input/],
    ['an input produced by a removable op', (g: TinyGraph) => g.node('Reshape', ['a'], { r: [1, 2, 4] }).node('Concat', ['r', 'a2'], { cat: [1, 4, 4] }), /produced by Reshape .* a removable op/],
    ['an input already sharing memory', (g: TinyGraph) => g.node('Relu', ['a'], { ra: [1, 2, 4] }).node('Concat', ['ra', 'a2'], { cat: [1, 4, 4] }), /"ra" already shares memory/],
    ['the same input twice', (g: TinyGraph) => g.node('Concat', ['a', 'a'], { cat: [1, 4, 4] }), /"a" appears more than once/],
    ['a weight', (g: TinyGraph) => g.weight('w', [1, 2, 4]).node('Concat', ['a', 'w'], { cat: [1, 4, 4] }), /"w" is a weight or constant/],
    ['inputs that are not contiguous in the output', (g: TinyGraph) => g.node('Concat', ['a', 'a2'], { cat: [1, 2, 8] }), /not contiguous/],
  ])('copies a Concat with %s, and says why', (_what, add, message) => {
    const g = tinyGraph('float32').input('x', [1, 1, 4]).node('Conv', ['x'], { a: [1, 2, 4] }).node('Conv', ['x'], { a2: [1, 2, 4] });
    add(g);
    g.node('Conv', ['cat'], { y: [1] }).output('y');
    const { built } = build(g);
    expect(aliases(built).filter((a) => a[3] === 'concat')).toEqual([]);
    expect(buffer(built, 'cat').kind).toBe('copy');
    expect(built.diagnostics).toContainEqual(expect.objectContaining({ code: 'concat-copy', node: 'Concat_' + (g.graph().nodes.length - 2) }));
    expect(built.diagnostics.find((d) => d.code === 'concat-copy')!.message).toMatch(message);
  });

  it('lets the target override the op-kind table', () => {
    const g = tinyGraph('uint8').input('x', [4]).node('Conv', ['x'], { a: [4] }).node('Relu', ['a'], { r: [4] }).node('MyView', ['r'], { v: [4] }).node('Conv', ['v'], { y: [4] }).output('y');
    const plain = build(g).built;
    expect(aliases(plain)).toEqual([['r', 'a', 0, 'in-place']]);
    const custom = build(g, testTarget({ planning: { opKinds: { Relu: 'computing', MyView: 'removable' } } })).built;
    expect(aliases(custom)).toEqual([['v', 'r', 0, 'removable']]);
    expect(codes(custom)).toEqual([]);
  });
});
