import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { IrGraph } from '../ir';
import type { SubgraphInferrer } from '../infer/context';
import type { BranchChoice, TensorFact } from './types';
import { controlRules } from './control';
import { attr, f32, fact, factsOf, i64, runRule } from '../testing/shape-rule-context';
import { decodeModel } from '../decode-model';
import { inferShapes } from '../infer/shapes';
import { scanCountModel } from '../testing/hostile-graphs';

/** An empty graph standing for a body; the test's inferrer decides what it computes. */
function body(name: string): IrGraph {
  return { name, nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: [] };
}

/** An inferrer that answers per body with a function of the body's input facts. */
function inferrer(bodies: Map<IrGraph, (inputs: readonly (TensorFact | undefined)[]) => (TensorFact | undefined)[]>): {
  infer: SubgraphInferrer;
  calls: IrGraph[];
} {
  const calls: IrGraph[] = [];
  const infer: SubgraphInferrer = (graph, inputs) => {
    calls.push(graph);
    const fn = bodies.get(graph);
    if (fn === undefined) throw new Error(`unexpected graph ${graph.name}`);
    return fn(inputs);
  };
  return { infer, calls };
}

const bool = (value?: number) => fact(DT.BOOL, [], value === undefined ? undefined : [value]);

describe('If', () => {
  const thenBranch = body('then');
  const elseBranch = body('else');
  const branches = new Map([
    [thenBranch, () => [f32([2, 8]), i64([1, 2])]],
    [elseBranch, () => [f32([2, 4]), i64([1, 2])]],
  ]);
  const attrs = { then_branch: attr.graph(thenBranch), else_branch: attr.graph(elseBranch) };

  it('takes the branch of a constant condition and infers only that one', () => {
    const { infer, calls } = inferrer(branches);
    const outs = factsOf(runRule(controlRules, 'If', { inputs: [bool(0)], attrs, outputs: 2, inferSubgraph: infer }));
    expect(outs[0]?.shape).toEqual([2, 4]);
    expect(calls).toEqual([elseBranch]);
  });

  it('takes the branch with the larger outputs when the condition is unknown, and says so', () => {
    const { infer, calls } = inferrer(branches);
    const choices: BranchChoice[] = [];
    const outs = factsOf(runRule(controlRules, 'If', { inputs: [bool()], attrs, outputs: 2, inferSubgraph: infer, assume: (c) => choices.push(c) }));
    expect(calls).toEqual([thenBranch, elseBranch]);
    expect(outs[0]?.shape).toEqual([2, 8]);
    expect(outs[1]).toEqual(i64([1, 2]));
    expect(choices).toEqual([{ taken: 'then', graph: thenBranch, reason: expect.stringMatching(/not known before the run.*then branch gives the larger outputs \(80 vs 48 bytes\)/) }]);
  });

  it('merges branches whose outputs agree and covers both bodies', () => {
    const same = new Map([
      [thenBranch, () => [f32([2, 8])]],
      [elseBranch, () => [f32([2, 8])]],
    ]);
    const { infer } = inferrer(same);
    const choices: BranchChoice[] = [];
    const outs = factsOf(runRule(controlRules, 'If', { inputs: [bool()], attrs, outputs: 1, inferSubgraph: infer, assume: (c) => choices.push(c) }));
    expect(outs[0]?.shape).toEqual([2, 8]);
    expect(choices).toEqual([{ taken: 'both', reason: expect.stringMatching(/same output shapes/) }]);
  });

  it('records the branch a known condition picks without calling it an assumption', () => {
    const { infer } = inferrer(branches);
    const choices: BranchChoice[] = [];
    runRule(controlRules, 'If', { inputs: [bool(1)], attrs, outputs: 2, inferSubgraph: infer, assume: (c) => choices.push(c) });
    expect(choices).toEqual([{ taken: 'then', graph: thenBranch }]);
  });
});

describe('Loop', () => {
  const loopBody = body('loop');
  // Body: (iter, cond, state[4]) -> (cond, state[4], scan[3]); cond passes through.
  const bodies = new Map([[loopBody, (inputs: readonly (TensorFact | undefined)[]) => [inputs[1], f32([4]), f32([3])]]]);
  const attrs = { body: attr.graph(loopBody) };

  it('stacks scan outputs by a constant trip count when the condition stays true', () => {
    const { infer } = inferrer(bodies);
    const outs = factsOf(runRule(controlRules, 'Loop', { inputs: [i64([5], []), bool(1), f32([4])], attrs, outputs: 2, inferSubgraph: infer }));
    expect(outs[0]?.shape).toEqual([4]);
    expect(outs[1]).toEqual({ dtype: DT.FLOAT, shape: [5, 3] });
  });

  it('treats the trip count as an upper bound when the loop may stop early', () => {
    const early = new Map([[loopBody, () => [bool(), f32([4]), f32([3])]]]);
    const { infer } = inferrer(early);
    const outs = factsOf(runRule(controlRules, 'Loop', { inputs: [i64([5], []), bool(1), f32([4])], attrs, outputs: 2, inferSubgraph: infer }));
    expect(outs[1]).toMatchObject({ shape: [5, 3], upperBound: true });
  });

  it('leaves the scan length unknown without a constant trip count', () => {
    const { infer } = inferrer(bodies);
    const outs = factsOf(runRule(controlRules, 'Loop', { inputs: [undefined, bool(), f32([4])], attrs, outputs: 2, inferSubgraph: infer }));
    expect(outs[1]?.shape).toEqual([undefined, 3]);
    expect(outs[1]?.note).toMatch(/trip count/);
  });

  it('records an unknown trip count that a loop-carried value of unknown size rests on, with no scan outputs (a sequence it grows)', () => {
    // ONNX's test_loop13_seq: (trip_count, cond, seq) -> seq, the body inserting into the sequence
    const sequence = new Map([[loopBody, (inputs: readonly (TensorFact | undefined)[]) => [inputs[1], fact(DT.FLOAT, undefined)]]]);
    const { infer } = inferrer(sequence);
    const choices: BranchChoice[] = [];
    runRule(controlRules, 'Loop', { inputs: [undefined, bool(), fact(DT.FLOAT, undefined)], attrs, outputs: 1, inferSubgraph: infer, assume: (c) => choices.push(c) });
    expect(choices).toEqual([{ taken: 'trip count unknown', reason: expect.stringMatching(/trip count is not a constant, so the size of loop-carried '.*' \(it may change with each iteration\) is not inferred/) }]);
  });

  it('records nothing for an unknown trip count when every size is known without it', () => {
    const steady = new Map([[loopBody, (inputs: readonly (TensorFact | undefined)[]) => [inputs[1], f32([4])]]]);
    const { infer } = inferrer(steady);
    const choices: BranchChoice[] = [];
    runRule(controlRules, 'Loop', { inputs: [undefined, bool(), f32([4])], attrs, outputs: 1, inferSubgraph: infer, assume: (c) => choices.push(c) });
    expect(choices).toEqual([]);
  });

  it('loses the dims of a loop-carried value that grows each iteration', () => {
    const growing = new Map([
      [loopBody, (inputs: readonly (TensorFact | undefined)[]) => {
        const n = inputs[2]?.shape?.[0];
        return [inputs[1], f32([n === undefined ? undefined : n + 1])];
      }],
    ]);
    const { infer } = inferrer(growing);
    const outs = factsOf(runRule(controlRules, 'Loop', { inputs: [i64([3], []), bool(1), f32([1])], attrs, outputs: 1, inferSubgraph: infer }));
    expect(outs[0]?.shape).toEqual([undefined]);
  });
});

describe('Scan', () => {
  const scanBody = body('scan');
  it('feeds slices without the scan axis and stacks outputs along scan_output_axes', () => {
    let seen: readonly (TensorFact | undefined)[] = [];
    const { infer } = inferrer(
      new Map([[scanBody, (inputs: readonly (TensorFact | undefined)[]) => ((seen = inputs), [f32([8]), f32([8, 2])])]]),
    );
    const outs = factsOf(
      runRule(controlRules, 'Scan', {
        inputs: [f32([8]), f32([10, 7, 4])],
        attrs: { body: attr.graph(scanBody), num_scan_inputs: attr.int(1), scan_input_axes: attr.ints([1]), scan_output_axes: attr.ints([-1]) },
        outputs: 2,
        inferSubgraph: infer,
      }),
    );
    expect(seen.map((f) => f?.shape)).toEqual([[8], [10, 4]]);
    expect(outs[0]?.shape).toEqual([8]);
    expect(outs[1]?.shape).toEqual([8, 2, 7]);
  });

  it('handles the opset-8 form with a batch axis', () => {
    const { infer } = inferrer(new Map([[scanBody, () => [f32([8]), f32([3])]]]));
    const outs = factsOf(
      runRule(controlRules, 'Scan', {
        inputs: [undefined, f32([2, 8]), f32([2, 6, 5])],
        attrs: { body: attr.graph(scanBody), num_scan_inputs: attr.int(1) },
        outputs: 2,
        opset: 8,
        inferSubgraph: infer,
      }),
    );
    expect(outs.map((f) => f?.shape)).toEqual([[2, 8], [2, 6, 3]]);
  });

  it('refuses a num_scan_inputs past the inputs the node has before sizing anything by it', () => {
    const run = (count: number, opset: number) =>
      runRule(controlRules, 'Scan', {
        inputs: opset < 9 ? [undefined, f32([2, 8]), f32([2, 6, 5])] : [f32([8]), f32([10, 7, 4])],
        attrs: { body: attr.graph(scanBody), num_scan_inputs: attr.int(count) },
        outputs: 2,
        opset,
        inferSubgraph: () => [f32([8]), f32([3])],
      });
    expect(run(2 ** 31, 17)).toEqual({ unknown: 'num_scan_inputs is 2147483648, but the node has 2 inputs it could scan' });
    expect(run(3, 17)).toHaveProperty('unknown');
    expect(run(-1, 17)).toHaveProperty('unknown');
    expect(run(2 ** 31, 8)).toEqual({ unknown: 'num_scan_inputs is 2147483648, but the node has 2 inputs it could scan' });
    expect(run(1, 8)).not.toHaveProperty('unknown');
  });

  it('ends a 270-byte model with num_scan_inputs 2^31 in a diagnostic, and infers the right count exactly', () => {
    const bad = inferShapes(decodeModel(scanCountModel(2 ** 31)));
    expect(bad.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-shape', node: 'scan', message: expect.stringMatching(/num_scan_inputs is 2147483648/) }));
    const good = inferShapes(decodeModel(scanCountModel(1)));
    expect(good.values.filter((v) => v.producer !== undefined).map((v) => [v.name, v.shape])).toEqual([['state', [2]], ['scanned', [5, 2]]]);
  });
});
