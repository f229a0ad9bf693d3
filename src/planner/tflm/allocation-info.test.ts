// TFLite Micro's lifetimes (micro_allocation_info.cc) on hand-built models: a
// chain, an IF whose branches are walked where the IF runs, variables, offline
// offsets read as TFLM's code reads them (every subgraph's tensor i at entry i), and the sizes TFLM allocates.

import { describe, expect, it } from 'vitest';
import type { IrTflite, IrTfliteOperator, IrTfliteSubgraph, IrTfliteTensor } from '../../model/ir-tflite';
import { InputError } from '../../shared/errors';
import { tensorBytes, tflmAllocation } from './allocation-info';

const tensor = (value: string, bytes: number, extra: Partial<IrTfliteTensor> = {}): IrTfliteTensor => ({
  value, type: 'INT8', shape: [bytes], signature: undefined, bytes, constant: false, variable: false, quantization: undefined, ...extra,
});
const op = (node: string, inputs: number[], outputs: number[], extra: Partial<IrTfliteOperator> = {}): IrTfliteOperator => ({
  node, op: 'ADD', custom: false, inputs, outputs, intermediates: [], calls: [], options: {}, ...extra,
});
const subgraph = (tensors: IrTfliteTensor[], inputs: number[], outputs: number[], operators: IrTfliteOperator[]): IrTfliteSubgraph => ({ name: '', tensors, inputs, outputs, operators });
const model = (subgraphs: IrTfliteSubgraph[], offsets?: number[]): IrTflite => ({
  schemaVersion: 3, subgraphs, metadata: [], offlinePlan: offsets === undefined ? undefined : { version: 0, subgraph: 0, offsets },
});
const spans = (m: IrTflite): Record<string, [number, number]> => Object.fromEntries(tflmAllocation(m).buffers.map((b) => [b.name, [b.first, b.last]]));

describe('TFLite Micro lifetimes', () => {
  it('a chain: inputs at time 0, operator i at time i + 1, outputs to the end', () => {
    const m = model([subgraph([tensor('x', 10), tensor('a', 20), tensor('y', 30)], [0], [2], [op('A', [0], [1]), op('B', [1], [2])])]);
    expect(spans(m)).toEqual({ x: [0, 1], a: [1, 2], y: [2, 2] });
    expect(tflmAllocation(m).buffers.map((b) => b.size)).toEqual([16, 32, 32]);
  });

  it('an IF walks each branch where it runs, one time more per branch, and keeps its operands to the end of the call', () => {
    const branch = (name: string): IrTfliteSubgraph => subgraph([tensor(`${name}_in`, 4), tensor(`${name}_out`, 4)], [0], [1], [op(`${name}/X`, [0], [1])]);
    const main = subgraph(
      [tensor('x', 8), tensor('cond', 1, { type: 'BOOL' }), tensor('r', 8), tensor('y', 8)],
      [0, 1],
      [3],
      [op('IF_0', [1, 0], [2], { op: 'IF', calls: [1, 2] }), op('B', [2], [3])],
    );
    const m = model([main, branch('then'), branch('else')]);
    expect(spans(m)).toEqual({
      x: [0, 5], cond: [0, 5], r: [1, 6], y: [6, 6],
      'subgraph1/then_in': [2, 3], 'subgraph1/then_out': [3, 3],
      'subgraph2/else_in': [4, 5], 'subgraph2/else_out': [5, 5],
    });
    expect(tflmAllocation(m).times.map((t) => t.node)).toEqual(['IF_0', 'IF_0', 'then/X', 'IF_0', 'else/X', 'B']);
  });

  it('variables go to the tail unless the offline plan places them; constants are never planned', () => {
    const tensors = [tensor('x', 8), tensor('state', 64, { variable: true }), tensor('w', 8, { constant: true }), tensor('y', 8)];
    const m = model([subgraph(tensors, [0], [3], [op('A', [0, 1, 2], [3])])]);
    expect(tflmAllocation(m).buffers.map((b) => b.name)).toEqual(['x', 'y']);
    expect(tflmAllocation(m).variables).toEqual([{ name: 'state', bytes: 64 }]);
    const placed = tflmAllocation(m, [0, 32, -1, 16]);
    expect(placed.buffers.map((b) => [b.name, b.offlineOffset])).toEqual([['x', 0], ['state', 32], ['y', 16]]);
    expect(placed.variables).toEqual([]);
  });

  it("reads tensor i of every subgraph at offline entry i, as InitializeAllocationInfo does, not at the concatenated index TFLM's documentation gives", () => {
    const inner = subgraph([tensor('i', 4), tensor('o', 4)], [0], [1], [op('X', [0], [1])]);
    const main = subgraph([tensor('x', 4), tensor('y', 4)], [0], [1], [op('W', [0], [1], { op: 'CALL_ONCE', calls: [1] })]);
    const offsets = [48, 96, 144, 192];
    const buffers = tflmAllocation(model([main, inner]), offsets).buffers;
    expect(buffers.map((b) => [b.name, b.offlineOffset])).toEqual([['x', 48], ['y', 96], ['subgraph1/i', 48], ['subgraph1/o', 96]]);
  });

  it('a tensor nothing references keeps (-1, -1) and is still planned', () => {
    const m = model([subgraph([tensor('x', 4), tensor('orphan', 4), tensor('y', 4)], [0], [2], [op('A', [0], [2])])]);
    expect(spans(m).orphan).toEqual([-1, -1]);
  });
});

describe('the bytes TFLite Micro allocates', () => {
  it('counts int4 as a byte per element and refuses strings', () => {
    expect(tensorBytes(tensor('q', 0, { type: 'INT4', shape: [3, 5] }), 0, 0)).toBe(15);
    expect(tensorBytes(tensor('f', 0, { type: 'FLOAT16', shape: [2, 3] }), 0, 0)).toBe(12);
    expect(() => tensorBytes(tensor('s', 0, { type: 'STRING', shape: [2] }), 0, 4)).toThrow(InputError);
  });

  it('gives INT2 and UINT4, which it cannot size, a byte per element and refuses the model for them', () => {
    const sub = model([subgraph([tensor('x', 0, { type: 'INT2', shape: [3, 5] }), tensor('y', 0, { type: 'UINT4', shape: [3, 5] })], [0], [1], [op('CAST', [0], [1])])]);
    expect(tflmAllocation(sub).buffers.map((b) => [b.name, b.bytes])).toEqual([['x', 15], ['y', 15]]);
    expect(tflmAllocation(sub).refusals).toEqual([
      expect.stringMatching(/^TensorFlow Lite Micro refuses this model: it cannot size the INT2 tensor 'x'/),
      expect.stringMatching(/^TensorFlow Lite Micro refuses this model: it cannot size the UINT4 tensor 'y'/),
    ]);
  });
});

describe('the scratch of a UNIDIRECTIONAL_SEQUENCE_LSTM (unidirectional_sequence_lstm.cc)', () => {
  /** An LSTM over `input` with the given output (hidden) state and cell state shapes; the weights left out. */
  const lstmModel = (inputShape: number[], outputState: number[], cellState: number[], timeMajor: boolean, cellType = 'FLOAT32'): IrTflite => {
    const inputs = new Array<number>(24).fill(-1);
    inputs[0] = 0;
    inputs[18] = 1;
    inputs[19] = 2;
    const tensors = [
      tensor('x', 0, { type: 'FLOAT32', shape: inputShape, bytes: 4 * inputShape.reduce((a, d) => a * d, 1) }),
      tensor('h', 0, { type: 'FLOAT32', shape: outputState, bytes: 4 * outputState.reduce((a, d) => a * d, 1), variable: true }),
      tensor('c', 0, { type: cellType, shape: cellState, bytes: (cellType === 'INT16' ? 2 : 4) * cellState.reduce((a, d) => a * d, 1), variable: true }),
      tensor('y', 0, { type: 'FLOAT32', shape: [1], bytes: 4 }),
    ];
    return model([subgraph(tensors, [0], [3], [op('LSTM_0', inputs, [3], { op: 'UNIDIRECTIONAL_SEQUENCE_LSTM', options: { time_major: timeMajor ? 1 : 0 } })])]);
  };
  const scratch = (m: IrTflite): number[] => tflmAllocation(m).buffers.filter((b) => b.kind === 'scratch').map((b) => b.bytes);

  it('four buffers of batch × state dimension, sized by the output state: a projecting LSTM (16 cells, 4 outputs) needs 16 B each, not the cell state 64 B', () => {
    expect(scratch(lstmModel([1, 5, 8], [1, 4], [1, 16], false))).toEqual([16, 16, 16, 16]);
  });

  it('the batch is dimension 1 of a time-major input, dimension 0 otherwise', () => {
    expect(scratch(lstmModel([5, 3, 8], [3, 16], [3, 16], true))).toEqual([192, 192, 192, 192]);
    expect(scratch(lstmModel([3, 5, 8], [3, 16], [3, 16], false))).toEqual([192, 192, 192, 192]);
  });

  it('an int16 cell state: 2 B per cell', () => {
    expect(scratch(lstmModel([1, 5, 8], [1, 20], [1, 20], false, 'INT16'))).toEqual([40, 40, 40, 40]);
  });
});

describe('what TFLite Micro refuses when it allocates (ValidateSubgraph)', () => {
  it('an operator with an intermediate tensor that holds bytes', () => {
    const m = model([subgraph([tensor('x', 8), tensor('gate', 32), tensor('y', 8)], [0], [2], [op('LSTM_0', [0], [2], { intermediates: [1] })])]);
    expect(tflmAllocation(m).refusals).toEqual([
      `TensorFlow Lite Micro refuses this model: ADD LSTM_0 lists the intermediate tensor 'gate' of 32 B, and it accepts only empty intermediates ("Does not support intermediate tensor with non-zero size")`,
    ]);
  });

  it('empty intermediates, as a quantized LSTM lists them, are accepted', () => {
    const m = model([subgraph([tensor('x', 8), tensor('gate', 0, { shape: [0] }), tensor('y', 8)], [0], [2], [op('LSTM_0', [0], [2], { intermediates: [1] })])]);
    expect(tflmAllocation(m).refusals).toEqual([]);
  });
});
