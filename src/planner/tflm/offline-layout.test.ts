// What a TFLite Micro plan says it rests on, on models the test writes: an
// offline plan over several subgraphs read as TFLM's code reads it (every
// subgraph's tensor i at entry i, micro_allocation_info.cc), the written plan
// meaning the same under the concatenated layout TFLM's documentation gives,
// the reference kernels every figure assumes, and the tensor types only
// current TFLM sizes.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { ifOptions, writeTflite, type TfliteModelSpec } from '../../model/testing/tflite-writer';
import { withOfflinePlan } from '../../model/tflite/write-offline-plan';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { OFFLINE_LAYOUT_ASSUMPTION, tensorBytes } from './allocation-info';
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
  it("is read as TFLM's code reads it: a plan laid out concatenated, as its documentation has it, places none of the branches' tensors", () => {
    // entries 3 to 6 are where the documentation puts the branches' tensors; the code reads them at 0 and 1, which are -1
    const runtime = runtimeOf(ifModel([-1, -1, -1, 8192, 9216, 8192, 9216]));
    expect(runtime.greedyHead).toBe(4112);
    expect(runtime.head).toBe(4112);
    expect(runtime.filePlan?.head).toBe(4112);
  });

  it("gives entry i to tensor i of every subgraph: the branches' input and output sit where the main graph's first two tensors do", () => {
    const runtime = runtimeOf(ifModel([8192, 9216, -1, -1, -1, -1, -1]));
    expect(runtime.filePlan?.head).toBe(10_240);
    expect(runtime.filePlan?.valid).toBe(false);
    expect(runtime.filePlan?.problem).toMatch(/share bytes from (8192|9216)/);
  });

  it('says which reading the figures follow, and only where the readings can differ', () => {
    expect(runtimeOf(ifModel([-1, -1, -1, 8192, 9216, 8192, 9216])).assumes).toContain(OFFLINE_LAYOUT_ASSUMPTION);
    expect(runtimeOf(ifModel()).assumes).not.toContain(OFFLINE_LAYOUT_ASSUMPTION);
    expect(OFFLINE_LAYOUT_ASSUMPTION).toMatch(/code reads it \(AllocationInfoBuilder::InitializeAllocationInfo.*tensor i takes entry i.*documentation.*concatenated/);
  });

  it('heapscope writes one the documented concatenated layout takes the same way: every slot another subgraph would read under either is -1', () => {
    const bytes = ifModel();
    const runtime = runtimeOf(bytes);
    const offsets = runtime.planned.offsets;
    const reread = runtimeOf(withOfflinePlan(bytes, offsets));
    expect(reread.head).toBe(runtime.planned.head);
    // the branches have 2 tensors each: TFLM's code reads them at slots 0 and 1, the documented layout at 3 to 6
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

describe('tensor sizes by type, as TfLiteTypeSizeOf (memory_helpers.cc) gives them', () => {
  /** x (float32) -> CAST -> y of `type`, 6 elements each. */
  const castModel = (type: string): Uint8Array =>
    writeTflite({ subgraphs: [{ tensors: [{ shape: [2, 3], type: 'FLOAT32', name: 'x' }, { shape: [2, 3], type, name: 'y' }], inputs: [0], outputs: [1], operators: [{ op: 'CAST', inputs: [0], outputs: [1] }] }] });

  it('says a UINT16 or BFLOAT16 tensor is sized as current TFLM sizes it, which older releases refuse', () => {
    for (const type of ['UINT16', 'BFLOAT16']) {
      const runtime = runtimeOf(castModel(type));
      expect(runtime.refused).toBeUndefined();
      expect(runtime.assumes).toContain(
        `its ${type} tensors are sized as current TensorFlow Lite Micro sizes them, 2 B per element (TfLiteTypeSizeOf); releases before late 2024 (UINT16 came with tflite-micro PR #2693) cannot size that type and refuse the model: AllocateTensors() fails whatever the arena`,
      );
    }
    expect((runtimeOf(castModel('INT16')).assumes ?? []).filter((a) => a.includes('TfLiteTypeSizeOf'))).toEqual([]);
  });

  it('says a FLOAT8_E4M3FN or FLOAT8_E5M2 tensor is sized 1 B as current TFLM sizes it, which older releases refuse', () => {
    for (const type of ['FLOAT8_E4M3FN', 'FLOAT8_E5M2']) {
      const runtime = runtimeOf(castModel(type));
      expect(runtime.refused).toBeUndefined();
      expect(runtime.assumes).toContain(
        `its ${type} tensors are sized as current TensorFlow Lite Micro sizes them, 1 B per element (TfLiteTypeSizeOf, through TfLiteTypeGetSize); older releases, whose TfLiteTypeSizeOf names each type it sizes, cannot size that type and refuse the model: AllocateTensors() fails whatever the arena`,
      );
    }
  });

  it('every other type TFLM sizes, at its byte size; int4 a byte per element (unpacked in the arena)', () => {
    const sizes: Record<string, number> = {
      FLOAT32: 4, FLOAT16: 2, FLOAT64: 8, INT16: 2, INT32: 4, UINT32: 4, UINT16: 2, UINT8: 1, INT8: 1, INT64: 8, UINT64: 8, BOOL: 1,
      RESOURCE: 4, COMPLEX64: 8, COMPLEX128: 16, INT4: 1, BFLOAT16: 2, FLOAT8_E4M3FN: 1, FLOAT8_E5M2: 1,
    };
    for (const [type, size] of Object.entries(sizes)) {
      const t = { value: 't', type, shape: [2, 3], signature: undefined, bytes: undefined, constant: false, variable: false, quantization: undefined };
      expect([type, tensorBytes(t, 0, 0)]).toEqual([type, 6 * size]);
    }
  });
});
