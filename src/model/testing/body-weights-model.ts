// A decoder-like model whose largest weights sit inside a Loop body, with an If
// nested in that body whose branches hold weights of their own (one under the
// same name as the body's), and a body reading an outer weight: what a weights
// total must count once each. Test utility; no DOM.

import { GraphBuilder } from './onnx-writer';

/** Bytes and count of the weights of bodyWeightsModel(), scope by scope. */
export const BODY_WEIGHTS = {
  outer: { bytes: 8 + 1 + 256, tensors: 3 }, // trip count (int64), condition (bool), 'scale' [1, 64] float32, read in the body too
  body: { bytes: 64 * 1000 * 4, tensors: 1 }, // the Loop body's 'w' [64, 1000] float32: the lm_head
  branches: { bytes: 256 + 256, tensors: 2 }, // the nested If's then branch 'w' [64] and else branch 'b' [1, 64], float32
  total: { bytes: 265 + 256_000 + 512, tensors: 6 },
} as const;

/** One branch of the If in the Loop body: `op` of the body's 'm' and the branch's own weight `weight` of `shape`. */
function branch(name: string, op: string, weight: string, shape: readonly number[]): GraphBuilder {
  const b = new GraphBuilder(name);
  b.output(b.node(op, ['m', b.initializer(weight, 'float32', shape)], {}, { name: `${name}/${op}` }), 'float32', [1, 64]);
  return b;
}

/**
 * x [1, 64] → Loop (3 times) whose body scales the state by the outer 'scale',
 * passes it through an If on the loop condition, and multiplies it by its own
 * 'w' [64, 1000]: outputs the last state and the three logits [3, 1, 1000].
 */
export function bodyWeightsModel(): Uint8Array {
  const body = new GraphBuilder('body');
  body.input('i', 'int64', []);
  body.input('c', 'bool', []);
  body.input('h', 'float32', [1, 64]);
  body.nodeOutputs('Mul', ['h', 'scale'], ['m'], {}, { name: 'body/Mul' });
  const [state] = body.nodeOutputs('If', ['c'], ['state'], { then_branch: branch('then', 'Add', 'w', [64]), else_branch: branch('else', 'Mul', 'b', [1, 64]) }, { name: 'body/If' });
  const logits = body.node('MatMul', [state!, body.initializer('w', 'float32', [64, 1000])], {}, { name: 'body/lm_head' });
  body.output(body.node('Identity', ['c'], {}, { name: 'body/cond' }), 'bool', []);
  body.output(state!, 'float32', [1, 64]);
  body.output(logits, 'float32', [1, 1000]);
  const g = new GraphBuilder('decoder');
  g.input('x', 'float32', [1, 64]);
  g.initializer('scale', 'float32', [1, 64]);
  const [last, all] = g.nodeOutputs('Loop', [g.initializer('n', 'int64', [], [3]), g.initializer('cond', 'bool', [], [1]), 'x'], ['last', 'logits'], { body }, { name: 'decode' });
  g.output(last!, 'float32', [1, 64]);
  g.output(all!, 'float32', [3, 1, 1000]);
  return g.toBytes({ opset: 17 });
}
