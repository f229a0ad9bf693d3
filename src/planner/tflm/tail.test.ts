// TensorFlow Lite Micro's persistent tail on hand-built models: the kernel data
// of convolutions, which allocate their per-channel multiplier and shift arrays
// in Prepare whatever their type (conv_common.cc, depthwise_conv_common.cc,
// transpose_conv.cc), and of operators that allocate nothing beyond their OpData.

import { describe, expect, it } from 'vitest';
import type { IrTflite, IrTfliteOperator, IrTfliteTensor } from '../../model/ir-tflite';
import { tflmAllocation } from './allocation-info';
import { smallestArena, tflmArena } from './tail';

const tensor = (value: string, shape: number[], extra: Partial<IrTfliteTensor> = {}): IrTfliteTensor => ({
  value, type: 'FLOAT32', shape, signature: undefined, bytes: 4 * shape.reduce((a, d) => a * d, 1), constant: false, variable: false, quantization: undefined, ...extra,
});
const weight = (value: string, shape: number[]): IrTfliteTensor => tensor(value, shape, { constant: true });

/** A one-operator model: x -> op(x, filter, bias) -> y. */
function oneOp(op: string, filter: number[], outChannels: number): IrTflite {
  const tensors = [tensor('x', [1, 8, 8, 8]), weight('filter', filter), weight('bias', [outChannels]), tensor('y', [1, 8, 8, outChannels])];
  const operator: IrTfliteOperator = { node: `${op}_0`, op, custom: false, inputs: [0, 1, 2], outputs: [3], intermediates: [], calls: [], options: {} };
  return { schemaVersion: 3, subgraphs: [{ name: '', tensors, inputs: [0], outputs: [3], operators: [operator] }], metadata: [], offlinePlan: undefined };
}

const kernelData = (m: IrTflite): number => tflmArena(m, tflmAllocation(m), 0).parts.find((p) => p.what === 'kernel data')!.bytes;

describe('the kernel data of the tail', () => {
  it('a float CONV_2D: its OpData and two per-channel arrays of 4 B per output channel (filter dimension 0), each 16-aligned', () => {
    expect(kernelData(oneOp('CONV_2D', [24, 3, 3, 8], 24))).toBe(64 + 2 * 96);
    expect(kernelData(oneOp('CONV_2D', [5, 1, 1, 8], 5))).toBe(64 + 2 * 32); // 20 B each, aligned to 32
  });

  it('a float DEPTHWISE_CONV_2D counts its channels on the filter dimension 3', () => {
    expect(kernelData(oneOp('DEPTHWISE_CONV_2D', [1, 3, 3, 40], 40))).toBe(64 + 2 * 160);
  });

  it('a float TRANSPOSE_CONV too (filter dimension 0)', () => {
    expect(kernelData(oneOp('TRANSPOSE_CONV', [12, 3, 3, 8], 12))).toBe(16 + 2 * 48);
  });

  it('an operator that allocates no per-channel arrays keeps its OpData alone', () => {
    expect(kernelData(oneOp('ADD', [8], 8))).toBe(64);
  });

  it('a BATCH_MATMUL keeps a transposed copy of its right input unless adj_y, of its left one when adj_x: eval tensor, dims and data, each 16-aligned', () => {
    const matmul = (adjX: number, adjY: number): IrTflite => {
      const tensors = [tensor('a', [1, 4, 8]), tensor('b', [1, 8, 6]), tensor('y', [1, 4, 6])];
      const operator: IrTfliteOperator = { node: 'BATCH_MATMUL_0', op: 'BATCH_MATMUL', custom: false, inputs: [0, 1], outputs: [2], intermediates: [], calls: [], options: { adj_x: adjX, adj_y: adjY } };
      return { schemaVersion: 3, subgraphs: [{ name: '', tensors, inputs: [0, 1], outputs: [2], operators: [operator] }], metadata: [], offlinePlan: undefined };
    };
    expect(kernelData(matmul(0, 0))).toBe(16 + (16 + 16 + 192)); // the right input, 48 floats
    expect(kernelData(matmul(1, 1))).toBe(16 + (16 + 16 + 128)); // the left input, 32 floats
    expect(kernelData(matmul(1, 0))).toBe(16 + (16 + 16 + 128) + (16 + 16 + 192));
    expect(kernelData(matmul(0, 1))).toBe(16);
  });
});

describe("the tail's alignment padding (SingleArenaBufferAllocator aligns each allocation down)", () => {
  // x + x -> y, float32: records 124 (allocators) + 8 + 32 + 36 + 8 (ADD's params), then ADD's 64 B OpData 16-aligned,
  // then after planning each graph I/O pointer array 16-aligned (4 B) and a 40 B TfLiteTensor
  const add = (): IrTflite => ({
    schemaVersion: 3,
    subgraphs: [{
      name: '', tensors: [tensor('x', [1, 4]), tensor('y', [1, 4]), tensor('z', [1, 4])], inputs: [0], outputs: [2],
      operators: [{ node: 'ADD_0', op: 'ADD', custom: false, inputs: [0, 0], outputs: [2], intermediates: [], calls: [], options: {} }],
    }],
    metadata: [], offlinePlan: undefined,
  });

  it('counts the bytes aligning leaves: the most it can be (12 B) where estimated parts come before, exactly where not', () => {
    const arena = tflmArena(add(), tflmAllocation(add()), 0);
    // 12 B before the OpData (after the estimated allocators and parameters), 12 B before the input's pointer array
    // (at 272 + 4, down to 288), 4 B before the output's (at 328 + 4, down to 336)
    expect(arena.parts.find((p) => p.what === 'alignment padding')).toMatchObject({ bytes: 28, estimated: true });
    expect(arena.parts.filter((p) => p.what.startsWith('graph ')).map((p) => p.bytes)).toEqual([44, 44]);
    expect(arena.tail).toBe(360 + 28);
    expect(arena.tail).toBe(arena.parts.reduce((sum, p) => sum + p.bytes, 0));
    expect(arena.io).toBe(104); // allocated after planning: 44 + 44 and their 16 B of padding
  });

  it('the arena: GetAvailableMemory aligns the tail down to 16 again, so a head of 8 B under an 8 B tail needs 32 B', () => {
    expect(smallestArena({ head: 8, tail: 8, io: 0, planningBytes: 0 })).toBe(32);
    expect(smallestArena({ head: 16, tail: 20, io: 4, planningBytes: 48 })).toBe(64); // the plan: 16 B + the tail's 20 B, down to 32
  });
});
