// A model whose memory plan is a hard packing: activations of mixed sizes live
// over overlapping stretches of time, so best's greedy portfolio stays above the
// lower bound and its exact search has work to do. Built with the ONNX writer;
// used by worker tests and the end-to-end specs of the search budget.

import { GraphBuilder } from './onnx-writer';

/**
 * `count` MatMul outputs of 64 to 4,096 bytes, each read once by a ReduceSum a
 * few to 30 time units later (positions and sizes from `seed`); the sums add up
 * into the single output y. File order is the execution order, so the
 * lifetimes are exactly these. With alignment 1 and no compute-unit partition
 * (the exact search needs both) 40 buffers of seed 3 are a search proven within
 * a second, and 1,000 buffers of seed 5 one that stays unproven for seconds
 * (240 of seed 5 are proven in about 0.2 s).
 */
export function packingModel(count: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  const random = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const g = new GraphBuilder('packing');
  const x = g.input('x', 'float32', [1, 4]);
  const events = Array.from({ length: count }, (_, k) => {
    const at = random() * 100;
    return [
      { k, at, open: true },
      { k, at: at + 3 + random() * 30, open: false },
    ];
  }).flat();
  events.sort((a, b) => a.at - b.at);
  const made = new Map<number, string>();
  let sum: string | undefined;
  for (const e of events) {
    if (e.open) {
      const weights = g.initializer(`w${e.k}`, 'float32', [4, 16 * (1 + Math.floor(random() * 64))]);
      made.set(e.k, g.node('MatMul', [x, weights], {}, { name: `make${e.k}` }));
    } else {
      const read = g.node('ReduceSum', [made.get(e.k)!], { keepdims: 1 }, { name: `read${e.k}` });
      sum = sum === undefined ? read : g.node('Add', [sum, read], {}, { name: `sum${e.k}` });
    }
  }
  g.nodeOutputs('ReduceSum', [sum!], ['y'], { keepdims: 1 }, { name: 'total' });
  g.output('y', 'float32', [1, 1]);
  return g.toBytes();
}
