// Test graphs of the explanation tests: small models where each reason for
// being live at the peak and each suggestion kind arises. Imported by tests only.

import { npuCpu } from './compute-units';
import { testTarget, tinyGraph } from './tiny-graph';

/** x -> A (100 B) -> four Relus -> Add(a, ...): `a` is kept for the skip connection into E. */
export function skipGraph() {
  return tinyGraph('uint8')
    .input('x', [1])
    .node('Conv', ['x'], { a: [100] }, { name: 'A' })
    .node('Relu', ['a'], { b: [10] }, { name: 'B' })
    .node('Relu', ['b'], { c: [10] }, { name: 'C' })
    .node('Relu', ['c'], { d: [10] }, { name: 'D' })
    .node('Relu', ['d'], { d2: [10] }, { name: 'D2' })
    .node('Concat', ['a', 'd2'], { e: [110] }, { name: 'E' })
    .output('e');
}

/** x -> Resize (float32, 400 B) -> Cast to float16 (200 B): the Resize output could be stored narrow. */
export function castGraph() {
  return tinyGraph('float32')
    .input('x', [1])
    .node('Resize', ['x'], { r: [100] }, { name: 'R' })
    .node('Cast', ['r'], { h: [100] }, { name: 'C', dtype: 'float16' })
    .output('h');
}

/** Conv on the NPU, Resize on the CPU: its input is copied to the CPU. */
export function copyGraph() {
  return { graph: tinyGraph('float32').input('x', [4]).node('Conv', ['x'], { y: [256] }, { name: 'K' }).node('Resize', ['y'], { z: [16] }, { name: 'R' }).output('z'), target: npuCpu(['Conv']) };
}

/** A cheap Relu whose output waits through a chain of Convs for a far MatMul: recomputing it lowers the peak. */
export function recomputeGraph() {
  return tinyGraph('uint8')
    .input('x', [100])
    .node('Relu', ['x'], { r: [100] }, { name: 'R' })
    .node('Conv', ['r'], { c1: [80] }, { name: 'C1' })
    .node('Conv', ['c1'], { c2: [80] }, { name: 'C2' })
    .node('Conv', ['c2'], { c3: [80] }, { name: 'C3' })
    .node('Conv', ['c3'], { c4: [80] }, { name: 'C4' })
    .node('Sum', ['r', 'c4', 'x'], { e: [1] }, { name: 'E' })
    .output('e');
}

/** A Conv with a 1000-byte scratch rule. */
export function scratchTarget() {
  return testTarget({ scratch: { rules: [{ opType: 'Conv', name: 'im2col', bytes: 1000 }] } });
}
