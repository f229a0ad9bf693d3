import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxLiveBytes, scheduleGraph, stepsOf, valueLifetime } from './schedule';
import { tinyGraph, twoBranches, type TinyGraph } from '../testing/tiny-graph';

const names = (graph: ReturnType<TinyGraph['graph']>, order: readonly number[]) => order.map((i) => graph.nodes[i]!.name);

describe('execution orders', () => {
  it('keeps the file order by default', () => {
    const graph = twoBranches().graph();
    const s = scheduleGraph(graph, 'file', 'whole-run');
    expect(names(graph, s.order)).toEqual(['A', 'B', 'A2', 'B2', 'C']);
    // step 1: x (10) + a (100) + b (100)
    expect(s.maxLiveBytes).toBe(210);
    expect(s.fileMaxLiveBytes).toBe(210);
    expect([...s.stepOf]).toEqual([0, 1, 2, 3, 4]);
  });

  it('depth-first runs each branch to its end before the next', () => {
    const graph = twoBranches().graph();
    const s = scheduleGraph(graph, 'depth-first', 'whole-run');
    expect(names(graph, s.order)).toEqual(['A', 'A2', 'B', 'B2', 'C']);
    expect(s.maxLiveBytes).toBe(111);
  });

  it('memory-aware takes the ready node that frees the most, and reports the effect', () => {
    const graph = twoBranches().graph();
    const s = scheduleGraph(graph, 'memory-aware', 'whole-run');
    // A and B tie at +100; then A2 (+1 - 100) beats B (+100 - 10 for x's last use)
    expect(names(graph, s.order)).toEqual(['A', 'A2', 'B', 'B2', 'C']);
    expect(s.fileMaxLiveBytes).toBe(210);
    expect(s.maxLiveBytes).toBe(111);
    expect(s.keptFileOrder).toBe(false);
  });

  it('keeps the file order when the memory-aware order is no better', () => {
    const graph = tinyGraph('uint8')
      .input('x', [8])
      .node('Relu', ['x'], { y: [8] })
      .node('Relu', ['y'], { z: [8] })
      .output('z')
      .graph();
    const s = scheduleGraph(graph, 'memory-aware', 'whole-run');
    expect(s.keptFileOrder).toBe(true);
    expect(s.order).toEqual([0, 1]);
    expect(s.maxLiveBytes).toBe(s.fileMaxLiveBytes);
  });

  it('leaves nodes computed from constants out of the schedule', () => {
    const graph = tinyGraph('uint8')
      .input('x', [4])
      .weight('w', [4])
      .node('Relu', ['w'], { c: [4] }, { constant: true })
      .node('Add', ['x', 'c'], { y: [4] })
      .output('y')
      .graph();
    const s = scheduleGraph(graph, 'file', 'whole-run');
    expect(s.order).toEqual([1]);
    expect(s.stepOf[0]).toBe(-1);
  });
});

describe('lifetimes', () => {
  const graph = tinyGraph('uint8')
    .input('x', [4])
    .node('Relu', ['x'], { a: [4] })
    .node('Relu', ['a'], { b: [4] })
    .node('Relu', ['x'], { c: [4] })
    .node('Add', ['b', 'c'], { y: [4] })
    .node('Relu', ['a'], { z: [4] })
    .output('y')
    .graph();
  const stepOf = stepsOf(graph, [0, 1, 2, 3, 4]);
  const life = (name: string, io: 'whole-run' | 'as-used') =>
    valueLifetime(graph.values.find((v) => v.name === name)!, stepOf, 5, io, graph.outputs.includes(name));

  it('run from the producer step to the last consumer step + 1', () => {
    expect(life('a', 'whole-run')).toEqual({ start: 0, end: 5 });
    expect(life('c', 'whole-run')).toEqual({ start: 2, end: 4 });
    expect(life('z', 'whole-run')).toEqual({ start: 4, end: 5 }); // read by nobody: its own step
  });

  it('pin graph inputs to step 0 and outputs to the end under whole-run, not under as-used', () => {
    expect(life('x', 'whole-run')).toEqual({ start: 0, end: 3 });
    expect(life('y', 'whole-run')).toEqual({ start: 3, end: 5 });
    expect(life('x', 'as-used')).toEqual({ start: 0, end: 3 });
    expect(life('y', 'as-used')).toEqual({ start: 3, end: 4 });
  });

  it('starts an input used late at its first use under as-used', () => {
    const late = tinyGraph('uint8').input('x', [4]).input('k', [4]).node('Relu', ['x'], { a: [4] }).node('Add', ['a', 'k'], { y: [4] }).output('y').graph();
    const steps = stepsOf(late, [0, 1]);
    const k = late.values.find((v) => v.name === 'k')!;
    expect(valueLifetime(k, steps, 2, 'as-used', false)).toEqual({ start: 1, end: 2 });
    expect(valueLifetime(k, steps, 2, 'whole-run', false)).toEqual({ start: 0, end: 2 });
  });
});

describe('memory-aware order on random graphs', () => {
  const randomGraph = fc
    .array(fc.record({ inputs: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), size: fc.integer({ min: 1, max: 200 }) }), { minLength: 1, maxLength: 30 })
    .map((nodes) => {
      const g = tinyGraph('uint8').input('v0', [16]);
      nodes.forEach((node, i) => {
        const inputs = [...new Set(node.inputs.map((k) => `v${k % (i + 1)}`))];
        g.node('Add', inputs, { [`v${i + 1}`]: [node.size] });
      });
      return g.output(`v${nodes.length}`).graph();
    });

  it('never raises the most bytes live, and every order is topological', () => {
    fc.assert(
      fc.property(randomGraph, (graph) => {
        for (const policy of ['file', 'depth-first', 'memory-aware'] as const) {
          const s = scheduleGraph(graph, policy, 'whole-run');
          expect([...s.order].sort((a, b) => a - b)).toEqual(graph.nodes.map((_, i) => i));
          for (const v of graph.values) {
            if (v.producer === undefined) continue;
            for (const c of v.consumers) expect(s.stepOf[v.producer]!).toBeLessThan(s.stepOf[c]!);
          }
          expect(s.maxLiveBytes).toBe(maxLiveBytes(graph, s.order, 'whole-run'));
          if (policy === 'memory-aware') expect(s.maxLiveBytes).toBeLessThanOrEqual(s.fileMaxLiveBytes);
        }
      }),
      { numRuns: 200 },
    );
  });
});
