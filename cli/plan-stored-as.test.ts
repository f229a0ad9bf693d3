// A buffer a compute unit stores in its own type (M3: the NPU's int8 where the
// model says float32) says so in `plan --json` (`storedAs`) and in the text,
// graph inputs too: a size a quarter of shape × dtype never stands unexplained.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';

/** image[1,3,16,16] float32 -> Conv -> Relu: every op runs on phone's int8 NPU. */
function convModel(): string {
  const g = new GraphBuilder('g');
  const x = g.input('image', 'float32', [1, 3, 16, 16]);
  const c = g.node('Conv', [x, g.initializer('w', 'float32', [8, 3, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  g.output(g.node('Relu', [c]), 'float32', [1, 8, 16, 16]);
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-stored-as-')), 'conv.onnx');
  writeFileSync(path, g.toBytes({ opset: 13 }));
  return path;
}

interface BufferJson {
  readonly name: string;
  readonly kind: string;
  readonly bytes: number;
  readonly storedAs?: { dtype: string; unit: string; modelDtype: string; modelBytes: number };
}

describe('plan --target phone: buffers stored in a compute unit’s type', () => {
  const model = convModel();

  it('--json gives the graph input and the activations their stored type, unit and model size', () => {
    const buffers = planJson([model, '--target', 'phone']).buffers as BufferJson[];
    const input = buffers.find((b) => b.kind === 'input')!;
    expect(input.bytes).toBe(3 * 16 * 16);
    expect(input.storedAs).toEqual({ dtype: 'int8', unit: 'npu', modelDtype: 'float32', modelBytes: 3 * 16 * 16 * 4 });
    for (const b of buffers) expect(b.storedAs?.modelBytes).toBe(b.bytes * 4);
  });

  it('the text says it beside each buffer live at the peak, as the page does', () => {
    const out = run(['plan', model, '--target', 'phone']).out;
    expect(out).toMatch(/graph input -> Conv .*; 768 B as int8 on npu \(3\.00 KiB as float32\)/);
  });

  it('on a target without compute units, no buffer has one', () => {
    const buffers = planJson([model]).buffers as BufferJson[];
    expect(buffers.every((b) => b.storedAs === undefined)).toBe(true);
  });
});
