// Random one- and two-op models over every op with a shape rule, written with
// the project's ONNX writer: random ranks and dims (zero, huge, negative,
// symbolic), constant inputs with extreme values, random and extreme
// attributes, random subgraph bodies. Depends on model/ testing utilities.

import { SHAPE_RULES } from '../src/model/shape-rules/index';
import { attr, GraphBuilder, type AttributeValue } from '../src/model/testing/onnx-writer';
import { ATTRIBUTES, randomDim, randomFloat, randomInt, randomInts, randomString } from './pools';
import type { Rng } from './random';

/** Every op with a shape rule, as [domain, opType]. */
export const RULE_OPS: readonly (readonly [string, string])[] = Object.keys(SHAPE_RULES).map((key) => {
  const at = key.indexOf('::');
  return [key.slice(0, at), key.slice(at + 2)] as const;
});

const DTYPES = ['float32', 'float32', 'float16', 'int64', 'int32', 'int8', 'uint8', 'bool', 'double', 'string'] as const;

/** One input of the op: a graph input of random shape, or a small constant with extreme values. */
function randomInput(rng: Rng, g: GraphBuilder, name: string): string {
  if (rng.chance(0.1)) return '';
  if (rng.chance(0.45)) {
    const rank = rng.chance(0.1) ? 0 : rng.int(1, rng.chance(0.9) ? 2 : 4);
    const dims = Array.from({ length: rank }, () => rng.int(0, 4));
    const count = dims.reduce((a, b) => a * b, 1);
    if (rng.chance(0.6)) return g.initializer(name, 'int64', dims, Array.from({ length: count }, () => BigInt(Math.trunc(clampInt(randomInt(rng))))));
    return g.initializer(name, 'float32', dims, Array.from({ length: count }, () => randomFloat(rng)));
  }
  const rank = rng.chance(0.05) ? rng.int(6, 9) : rng.int(0, 5);
  return g.input(name, rng.pick(DTYPES), Array.from({ length: rank }, () => randomDim(rng)));
}

/** int64 storage takes integers in [-2^63, 2^63). */
function clampInt(value: number): number {
  return Math.max(-(2 ** 62), Math.min(2 ** 62, value));
}

/** A random attribute value of the usual kind, sometimes of another kind. */
function randomAttribute(rng: Rng, kind: (typeof ATTRIBUTES)[number][1]): AttributeValue {
  const k = rng.chance(0.1) ? rng.pick(['int', 'ints', 'float', 'floats', 'string'] as const) : kind;
  if (k === 'int') return attr.int(BigInt(Math.trunc(clampInt(randomInt(rng)))));
  if (k === 'ints') return attr.ints(randomInts(rng).map((v) => BigInt(Math.trunc(clampInt(v)))));
  if (k === 'float') return attr.float(randomFloat(rng));
  if (k === 'floats') return attr.floats(Array.from({ length: rng.int(0, 5) }, () => randomFloat(rng)));
  return attr.string(randomString(rng));
}

/** A small random body graph for If, Loop, Scan and SequenceMap. */
function randomBody(rng: Rng, depth: number): GraphBuilder {
  const body = new GraphBuilder(`body${depth}`);
  const inputs = Array.from({ length: rng.int(0, 3) }, (_, i) => body.input(`b${depth}_in${i}`, rng.pick(DTYPES), rng.chance(0.5) ? undefined : [randomDim(rng), randomDim(rng)]));
  const outputs = rng.int(1, 3);
  for (let i = 0; i < outputs; i++) {
    const from = inputs.length > 0 && rng.chance(0.7) ? rng.pick(inputs) : body.initializer(`b${depth}_c${i}`, 'float32', [rng.int(0, 3)]);
    const op = rng.pick(['Identity', 'Relu', 'Unsqueeze', 'Shape']);
    const extra = op === 'Unsqueeze' ? [body.initializer(`b${depth}_ax${i}`, 'int64', [1], [0n])] : [];
    body.output(body.node(op, [from, ...extra]), rng.chance(0.5) ? 'float32' : undefined);
  }
  return body;
}

const GRAPH_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { If: ['then_branch', 'else_branch'], Loop: ['body'], Scan: ['body'], SequenceMap: ['body'] };

/** Adds a node of a random rule op reading `from` (or fresh inputs); returns its outputs. */
function addRandomNode(rng: Rng, g: GraphBuilder, tag: string, from: readonly string[], depth: number): string[] {
  const [domain, opType] = rng.pick(RULE_OPS);
  const arity = rng.int(0, 5);
  const inputs = Array.from({ length: arity }, (_, i) => (i < from.length && rng.chance(0.8) ? from[i]! : randomInput(rng, g, `${tag}_in${i}`)));
  const attributes: Record<string, AttributeValue> = {};
  for (let i = rng.int(0, 4); i > 0; i--) {
    const [name, kind] = rng.pick(ATTRIBUTES);
    attributes[name] = randomAttribute(rng, kind);
  }
  for (const name of Object.hasOwn(GRAPH_ATTRIBUTES, opType) ? GRAPH_ATTRIBUTES[opType]! : []) {
    if (rng.chance(0.9)) attributes[name] = attr.graph(randomBody(rng, depth));
  }
  return g.nodeOutputs(opType, inputs, rng.int(1, 3), attributes, { name: `${tag}_${opType}`, domain });
}

/** A random one- or two-op model: its bytes and a label naming the ops. */
export function randomModel(rng: Rng): { readonly bytes: Uint8Array; readonly label: string } {
  const g = new GraphBuilder('fuzz');
  const first = addRandomNode(rng, g, 'a', [], 0);
  const outputs = rng.chance(0.4) ? addRandomNode(rng, g, 'b', first, 1) : first;
  for (const name of outputs) g.output(name, rng.chance(0.3) ? 'float32' : undefined, rng.chance(0.2) ? [randomDim(rng)] : undefined);
  const opset = rng.int(7, 21);
  const bytes = g.toBytes({ opset, opsets: { 'com.microsoft': 1, 'ai.onnx.ml': rng.int(1, 3) } });
  return { bytes, label: `random opset ${opset}` };
}
