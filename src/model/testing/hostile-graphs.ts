// Small models whose structure, not their names, is hostile, built with the
// project's ONNX writer: control flow nested so that per-element inference
// multiplies, and attribute counts far past what the node holds.
// Test utility for unit and end-to-end tests; no DOM.

import { GraphBuilder } from './onnx-writer';

/**
 * x[L, 2] -> SplitToSequence (pieces of 1 to `distinct` rows, L = their sum)
 * -> SequenceMap whose body holds a SequenceMap over the same outer sequence,
 * `depth` levels deep; the innermost body is a Relu, every other level joins
 * its inner results to its element with ConcatFromSequence and Concat. Per
 * element, the innermost body runs length^depth times; about 1.5 KB at depth 3.
 */
export function nestedSequenceMapModel(depth: number, length: number, distinct = 1): Uint8Array {
  const g = new GraphBuilder('nested-sequence-map');
  const sizes = Array.from({ length }, (_, i) => 1 + (i % distinct));
  const x = g.input('x', 'float32', [sizes.reduce((a, b) => a + b, 0), 2]);
  const split = g.initializer('sizes', 'int64', [length], sizes);
  const seq = g.node('SplitToSequence', [x, split], { axis: 0 }, { name: 'split' });
  const body = (level: number): GraphBuilder => {
    const b = new GraphBuilder(`body${level}`);
    const e = b.input(`e${level}`, 'float32', [undefined, 2]);
    if (level === depth) {
      b.output(b.node('Relu', [e], {}, { name: `relu${level}` }), 'float32');
      return b;
    }
    const mapped = b.node('SequenceMap', [seq], { body: body(level + 1) }, { name: `map${level + 1}` });
    const joined = b.node('ConcatFromSequence', [mapped], { axis: 0 }, { name: `join${level}` });
    b.output(b.node('Concat', [joined, e], { axis: 0 }, { name: `cat${level}` }));
    return b;
  };
  const mapped = g.node('SequenceMap', [seq], { body: body(1) }, { name: 'map1' });
  g.output(g.nodeOutputs('ConcatFromSequence', [mapped], ['y'], { axis: 0 }, { name: 'join0' })[0]!, 'float32');
  return g.toBytes({ opset: 17 });
}

/**
 * Scan (opset 17) over s[2] and x[5, 2] whose num_scan_inputs is `count`
 * (1 is right); about 270 bytes whatever the count.
 */
export function scanCountModel(count: number): Uint8Array {
  const g = new GraphBuilder('scan-count');
  const s = g.input('s', 'float32', [2]);
  const x = g.input('x', 'float32', [5, 2]);
  const b = new GraphBuilder('body');
  const bs = b.input('bs', 'float32', [2]);
  const bx = b.input('bx', 'float32', [2]);
  b.output(b.node('Add', [bs, bx], {}, { name: 'add' }), 'float32', [2]);
  b.output(b.node('Identity', [bx], {}, { name: 'id' }), 'float32', [2]);
  const [state, scanned] = g.nodeOutputs('Scan', [s, x], ['state', 'scanned'], { body: b, num_scan_inputs: count }, { name: 'scan' });
  g.output(state!, 'float32');
  g.output(scanned!, 'float32');
  return g.toBytes({ opset: 17 });
}
