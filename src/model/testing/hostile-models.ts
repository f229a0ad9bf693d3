// Models with hostile names, built with the project's ONNX writer: op types and
// dims named after Object.prototype members, control characters, huge names.
// Test utility for unit and end-to-end tests; no DOM.

import { GraphBuilder } from './onnx-writer';

/** Names that reach Object.prototype when used as keys of a plain object. */
export const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', '__proto__'] as const;

/** Dims named after Object.prototype members. */
export const PROTOTYPE_DIMS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'] as const;

/**
 * x[constructor, toString, valueOf, hasOwnProperty, __proto__] -> one node per
 * op type of PROTOTYPE_NAMES (no shape rule, named and with outputs named as
 * they are, attributes `__proto__` and `constructor`) -> Relu -> y.
 */
export function prototypeNamesModel(): Uint8Array {
  const g = new GraphBuilder('prototype-names');
  let x = g.input('x', 'float32', [...PROTOTYPE_DIMS]);
  for (const op of PROTOTYPE_NAMES) {
    x = g.nodeOutputs(op, [x], [op], { ['__proto__']: 1, constructor: 2 }, { name: op })[0]!;
  }
  x = g.nodeOutputs('Relu', [x], ['valueOf_out'], { constructor: 3 }, { name: 'hasOwnProperty_relu' })[0]!;
  g.output(g.nodeOutputs('Relu', [x], ['y'], {}, { name: 'toString_relu' })[0]!, 'float32');
  return g.toBytes({ opset: 17 });
}

/** Every C0 control character but NUL, DEL and C1 controls, and lone surrogates: not allowed in XML 1.0 text. */
export const CONTROL_TEXT = `a${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('')}\u007f\u0085\ud800\ufffe<&>"'z`;

/** x[1, 64] -> Relu -> Sigmoid -> y, with node and tensor names holding CONTROL_TEXT. */
export function controlNamesModel(): Uint8Array {
  const g = new GraphBuilder('control-names');
  const x = g.input('x', 'float32', [1, 64]);
  const a = g.nodeOutputs('Relu', [x], [`t${CONTROL_TEXT}`], {}, { name: `n${CONTROL_TEXT}` })[0]!;
  const b = g.nodeOutputs('Sigmoid', [a], [`u${CONTROL_TEXT}`], {}, { name: `m${CONTROL_TEXT}` })[0]!;
  g.output(g.nodeOutputs('Relu', [b], ['y'])[0]!, 'float32', [1, 64]);
  return g.toBytes({ opset: 17 });
}

/** x[1, 64] -> Relu -> Relu -> y, where the first node and its output have names of `length` characters. */
export function longNamesModel(length = 1 << 20): Uint8Array {
  const g = new GraphBuilder('long-names');
  const long = (tag: string) => `${tag}-${'abcdefghij'.repeat(Math.ceil(length / 10))}`.slice(0, length);
  const x = g.input('x', 'float32', [1, 64]);
  const a = g.nodeOutputs('Relu', [x], [long('tensor')], {}, { name: long('node') })[0]!;
  g.output(g.nodeOutputs('Relu', [a], ['y'], {}, { name: 'tail' })[0]!, 'float32', [1, 64]);
  return g.toBytes({ opset: 17 });
}

/** x[D, 64] -> Relu -> y, where the symbolic dim D has a name of `length` characters. */
export function longDimModel(length = 1 << 20): Uint8Array {
  const g = new GraphBuilder('long-dim');
  const dim = `dim-${'abcdefghij'.repeat(Math.ceil(length / 10))}`.slice(0, length);
  const x = g.input('x', 'float32', [dim, 64]);
  g.output(g.nodeOutputs('Relu', [x], ['y'])[0]!, 'float32', [dim, 64]);
  return g.toBytes({ opset: 17 });
}
