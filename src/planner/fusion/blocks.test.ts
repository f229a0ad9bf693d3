// findBlocks against the plain scan (testing/blocks-reference.ts): the same
// blocks on hand-made graphs, on random graphs with skips, fans and several
// outputs, and on the real models of ../shared/models in every execution order.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { ORDER_POLICIES } from '../explain/target-change';
import { scheduleGraph } from '../problem/schedule';
import { tinyGraph } from '../testing/tiny-graph';
import { findBlocks, indexBlocks } from './blocks';
import { referenceBlocks } from './testing/blocks-reference';

const order = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('findBlocks', () => {
  it('finds the residual block x -> a -> b, Add(b, x)', () => {
    const g = tinyGraph()
      .input('x', [4])
      .node('Relu', ['x'], { a: [4] })
      .node('Relu', ['a'], { b: [4] })
      .node('Add', ['b', 'a'], { c: [4] })
      .node('Relu', ['c'], { d: [4] })
      .output('d')
      .graph();
    // from step 0: entry x, a read twice, exit c at step 2; from step 1: entry a, read twice
    expect(findBlocks(g, order(4))).toEqual([
      { first: 0, last: 2, entry: 'x', exit: 'c' },
      { first: 1, last: 2, entry: 'a', exit: 'c' },
    ]);
    expect(referenceBlocks(g, order(4))).toEqual(findBlocks(g, order(4)));
  });

  it('finds none in a chain', () => {
    const g = tinyGraph().input('x', [4]);
    for (let i = 0; i < 300; i++) g.node('Relu', [i === 0 ? 'x' : `t${i - 1}`], { [`t${i}`]: [4] });
    const graph = g.output('t299').graph();
    expect(findBlocks(graph, order(300))).toEqual([]);
  });

  it('gives the plain scan\'s blocks on random graphs', () => {
    const node = fc.record({
      reads: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), // picks among the tensors made so far
      outputs: fc.integer({ min: 1, max: 2 }),
      output: fc.boolean(), // its first output is a graph output
      far: fc.boolean(), // reads from the far past (a long skip)
    });
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 140 }), (specs) => {
        const g = tinyGraph().input('x', [4]).weight('w', [4]);
        const made = ['x'];
        const outs: string[] = [];
        specs.forEach((spec, i) => {
          const pick = (r: number) => (spec.far ? made[r % made.length]! : made[Math.max(0, made.length - 1 - (r % 4))]!);
          const inputs = [...spec.reads.map(pick), ...(i % 3 === 0 ? ['w'] : [])];
          const outputs = Object.fromEntries(Array.from({ length: spec.outputs }, (_, k) => [`n${i}_${k}`, [4]]));
          g.node('Op', inputs, outputs);
          made.push(...Object.keys(outputs));
          if (spec.output) outs.push(`n${i}_0`);
        });
        const graph = g.output(...outs, made[made.length - 1]!).graph();
        const blocks = findBlocks(graph, order(specs.length));
        expect(blocks).toEqual(referenceBlocks(graph, order(specs.length)));
        const index = indexBlocks(blocks, specs.length);
        for (let first = 0; first < specs.length; first++) {
          expect(index.startingAt(first)).toEqual(blocks.find((b) => b.first === first));
          for (let last = first; last < specs.length; last += 7) {
            expect(index.holdsWhole(first, last)).toBe(blocks.some((b) => b.first >= first && b.last <= last));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

const MODELS = fileURLToPath(new URL('../../../../shared/models', import.meta.url));
const present = existsSync(MODELS);
if (!present) console.log(`block model tests skipped: ${MODELS} is absent`);

describe.skipIf(!present)('findBlocks on the real models', () => {
  const files = present ? readdirSync(MODELS).filter((f) => f.endsWith('.onnx') && !f.includes('missing-external')) : [];
  it.each(files)('%s: the plain scan\'s blocks in every order', (file) => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(MODELS, file)))), {});
    for (const policy of ORDER_POLICIES) {
      const { order: steps } = scheduleGraph(model, policy, 'whole-run');
      expect(findBlocks(model, steps)).toEqual(referenceBlocks(model, steps));
    }
  }, 60_000);
});
