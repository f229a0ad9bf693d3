// The subgraphs each TFLite operator runs (IF, WHILE, CALL_ONCE, CALL, and the
// StableHLO ops that hold a body), the builtin options the planner reads, and
// the check that no subgraph calls itself, directly or through others. No DOM.

import { InputError } from '../../shared/errors';
import type { FlatReader } from './flat-reader';
import type { WireModel, WireOperator } from './read-model';

/** Option fields the planner reads, by operator: [field index, name, width in bytes, default]. */
const OPTION_FIELDS: Readonly<Record<string, readonly (readonly [number, string, 1 | 4, number])[]>> = {
  CONV_2D: [[0, 'padding', 1, 0], [1, 'stride_w', 4, 0], [2, 'stride_h', 4, 0], [3, 'fused_activation_function', 1, 0], [4, 'dilation_w_factor', 4, 1], [5, 'dilation_h_factor', 4, 1]],
  DEPTHWISE_CONV_2D: [[0, 'padding', 1, 0], [1, 'stride_w', 4, 0], [2, 'stride_h', 4, 0], [3, 'depth_multiplier', 4, 0], [4, 'fused_activation_function', 1, 0], [5, 'dilation_w_factor', 4, 1], [6, 'dilation_h_factor', 4, 1]],
  AVERAGE_POOL_2D: [[0, 'padding', 1, 0], [1, 'stride_w', 4, 0], [2, 'stride_h', 4, 0], [3, 'filter_width', 4, 0], [4, 'filter_height', 4, 0]],
  MAX_POOL_2D: [[0, 'padding', 1, 0], [1, 'stride_w', 4, 0], [2, 'stride_h', 4, 0], [3, 'filter_width', 4, 0], [4, 'filter_height', 4, 0]],
  SVDF: [[0, 'rank', 4, 0]],
  FULLY_CONNECTED: [[2, 'keep_num_dims', 1, 0]],
  CONCATENATION: [[0, 'axis', 4, 0]],
  TRANSPOSE_CONV: [[0, 'padding', 1, 0], [1, 'stride_w', 4, 0], [2, 'stride_h', 4, 0]],
  MEAN: [[0, 'keep_dims', 1, 0]],
  SUM: [[0, 'keep_dims', 1, 0]],
  UNIDIRECTIONAL_SEQUENCE_LSTM: [[3, 'time_major', 1, 0]],
  BATCH_MATMUL: [[0, 'adj_x', 1, 0], [1, 'adj_y', 1, 0]],
  // The schema's default index is 0, which writers leave out: a missing field calls subgraph 0.
  IF: [[0, 'then_subgraph_index', 4, 0], [1, 'else_subgraph_index', 4, 0]],
  WHILE: [[0, 'cond_subgraph_index', 4, 0], [1, 'body_subgraph_index', 4, 0]],
  CALL_ONCE: [[0, 'init_subgraph_index', 4, 0]],
  CALL: [[0, 'subgraph', 4, 0]],
};

/** Option fields that name a subgraph. */
const CALL_FIELDS = new Set(['then_subgraph_index', 'else_subgraph_index', 'cond_subgraph_index', 'body_subgraph_index', 'init_subgraph_index', 'subgraph']);

/** The builtin options of an operator that the planner reads. */
export function operatorOptions(reader: FlatReader, op: WireOperator, what: string): Record<string, number> {
  const fields = Object.hasOwn(OPTION_FIELDS, op.op) ? OPTION_FIELDS[op.op] : undefined; // a custom code may be any string
  const options: Record<string, number> = {};
  if (fields === undefined || op.options === undefined) return options;
  for (const [index, name, width, fallback] of fields) {
    options[name] = width === 1 ? reader.byte(op.options, index, `${name} of ${what}`, fallback) : reader.int(op.options, index, `${name} of ${what}`, fallback);
  }
  return options;
}

/** The subgraphs an operator runs, in the order of its options. */
export function calledSubgraphs(options: Readonly<Record<string, number>>, count: number, what: string): number[] {
  const calls: number[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (!CALL_FIELDS.has(name)) continue;
    if (!Number.isInteger(value) || value < 0 || value >= count) {
      throw new InputError('bad-graph', `${what} runs subgraph ${value} (${name}), but the model has ${count} subgraph${count === 1 ? '' : 's'}`);
    }
    calls.push(value);
  }
  return calls;
}

/**
 * Throws InputError('bad-graph') when a subgraph runs itself, directly or
 * through others (TFLite Micro would recurse until its stack overflows).
 * Iterative: a chain of thousands of subgraphs does not deepen the JS stack.
 */
export function rejectCyclicCalls(model: WireModel, calls: readonly (readonly (readonly number[])[])[]): void {
  const state = new Uint8Array(model.subgraphs.length); // 0 unseen, 1 on the path, 2 done
  for (let root = 0; root < model.subgraphs.length; root++) {
    if (state[root] !== 0) continue;
    const stack: { sg: number; next: number }[] = [{ sg: root, next: 0 }];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const targets = (calls[top.sg] ?? []).flat();
      if (top.next >= targets.length) {
        state[top.sg] = 2;
        stack.pop();
        continue;
      }
      const target = targets[top.next++]!;
      if (state[target] === 1) {
        const path = [...stack.slice(stack.findIndex((f) => f.sg === target)).map((f) => f.sg), target];
        throw new InputError('bad-graph', `the subgraphs call each other in a cycle (${path.map((s) => `subgraph ${s}`).join(' → ')}): the model would never finish`);
      }
      if (state[target] === 0) {
        state[target] = 1;
        stack.push({ sg: target, next: 0 });
      }
    }
  }
}
