// What a TFLite Micro plan says it rests on, on models the test writes: an
// offline plan over several subgraphs read in the concatenated layout current
// TFLM reads (tflite-micro PR #1195), the written plan meaning the same under
// the older per-subgraph reading, and the reference kernels every figure assumes.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { ifOptions, writeTflite, type TfliteModelSpec } from '../../model/testing/tflite-writer';
import { withOfflinePlan } from '../../model/tflite/write-offline-plan';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { OFFLINE_LAYOUT_ASSUMPTION } from './allocation-info';
import { REFERENCE_KERNELS_ASSUMPTION } from './scratch-requests';

const f = (n: number) => ({ shape: [1, n], type: 'FLOAT32' });
const words = (w: readonly number[]): Uint8Array => new Uint8Array(new Int32Array(w).buffer);
const branch = (name: string) => ({ name, tensors: [f(256), f(256)], inputs: [0], outputs: [1], operators: [{ op: 'RELU', inputs: [0], outputs: [1] }] });

/** An IF over two one-RELU branches (1 KiB tensors), with an offline plan of `plan` when given. */
function ifModel(plan?: readonly number[]): Uint8Array {
  const spec: TfliteModelSpec = {
    subgraphs: [
      { name: 'main', tensors: [{ shape: [1], type: 'BOOL' }, f(256), f(256)], inputs: [0, 1], outputs: [2], operators: [{ op: 'IF', inputs: [0, 1], outputs: [2], options: ifOptions(1, 2) }] },
      branch('then'),
      branch('else'),
    ],
    ...(plan !== undefined && { metadata: [{ name: 'OfflineMemoryAllocation', data: words([0, 3, plan.length, ...plan]) }] }),
  };
  return writeTflite(spec);
}

const runtimeOf = (bytes: Uint8Array) => planModel(inferShapes(decodeModel(bytes)), presetTarget('tflm')).runtimePlan!;

describe('an offline plan over several subgraphs', () => {
  it("is read concatenated: the branches' tensors at 8,192 and 9,216 give a 10,240 B head, as current TFLM plans it", () => {
    // subgraph 0's three tensors left to the runtime; each branch's input and output placed by the file
    const runtime = runtimeOf(ifModel([-1, -1, -1, 8192, 9216, 8192, 9216]));
    expect(runtime.head).toBe(10_240);
    expect(runtime.filePlan?.head).toBe(10_240);
    expect(runtime.greedyHead).toBe(4112);
  });

  it('says which reading the figures follow, and only where the readings can differ', () => {
    expect(runtimeOf(ifModel([-1, -1, -1, 8192, 9216, 8192, 9216])).assumes).toContain(OFFLINE_LAYOUT_ASSUMPTION);
    expect(runtimeOf(ifModel()).assumes).not.toContain(OFFLINE_LAYOUT_ASSUMPTION);
  });

  it('heapscope writes one the older per-subgraph reading takes the same way: every slot another subgraph would read there is -1', () => {
    const bytes = ifModel();
    const runtime = runtimeOf(bytes);
    const offsets = runtime.planned.offsets;
    const reread = runtimeOf(withOfflinePlan(bytes, offsets));
    expect(reread.head).toBe(runtime.planned.head);
    // the branches have 2 tensors each: under the older reading they read slots 0 and 1, under the current one 3 to 6
    expect([offsets[0], offsets[1], ...offsets.slice(3)]).toEqual([-1, -1, -1, -1, -1, -1]);
  });
});

describe("the kernels TFLite Micro's figures assume", () => {
  it("are its reference kernels, said on every plan (an optimized build's CONV_2D requests scratch of its own)", () => {
    const assumes = runtimeOf(ifModel()).assumes ?? [];
    expect(assumes).toContain(REFERENCE_KERNELS_ASSUMPTION);
    expect(REFERENCE_KERNELS_ASSUMPTION).toMatch(/reference kernels.*CMSIS-NN.*CONV_2D/);
  });
});
