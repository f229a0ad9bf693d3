// A .tflite planned for TensorFlow Lite Micro keeps its file's shapes: a dim
// given must not reach a shape or size shown, and a refused shape names the
// shape the file states. Skips with a notice when ../shared is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../decode-model';
import { inferShapes } from './shapes';

const HELLO = join(__dirname, '../../../../shared/models/tflite/tflm_hello_world_int8.tflite');
const have = existsSync(HELLO);
if (!have) console.log(`tflite shapes: ${HELLO} is absent; skipping`);
const INPUT = 'serving_default_dense_input:0';

describe.skipIf(!have)('the shapes of a .tflite file', () => {
  const ir = () => decodeModel(new Uint8Array(readFileSync(HELLO)), { name: 'hello.tflite' });

  it('a shape given is refused naming the shape the file states, not the one a dim given made of it', () => {
    // batch=4 with a shape 2x1 read "(the file states 4×1)" where the file states 1×1
    const model = inferShapes(ir(), { dims: { batch: 4 }, shapes: { [INPUT]: [2, 1] } });
    const refused = model.diagnostics.find((d) => d.code === 'tflite-fixed-shapes');
    expect(refused?.message).toMatch(/^the shape given serving_default_dense_input:0=2x1 \(the file states 1×1\) is not applied/);
  });

  it('with fileShapes every tensor has the shape and size its file states, the dim given kept to say it is not applied', () => {
    // on target tflm the graph read "4×1 · 4 B → 1 B planned" and "Without reuse 136 B" for a plan of the file's 1×1
    const plain = inferShapes(ir(), {});
    const model = inferShapes(ir(), { dims: { batch: 4 }, fileShapes: true });
    const sizes = (m: typeof model) => m.values.filter((v) => v.kind !== 'initializer').map((v) => [v.name, v.shape, v.bytes]);
    expect(sizes(model)).toEqual(sizes(plain));
    expect(model.values.find((v) => v.name === INPUT)).toMatchObject({ shape: [1, 1], bytes: 1 });
    expect(model.dims.find((d) => d.name === 'batch')).toMatchObject({ value: 4, source: 'user' });
    // without it, on a target that applies the dim, the graph is at batch 4
    expect(inferShapes(ir(), { dims: { batch: 4 } }).values.find((v) => v.name === INPUT)).toMatchObject({ shape: [4, 1], bytes: 4 });
  });
});
