import { describe, expect, it } from 'vitest';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { nextSort } from '../../shared/sort-order';
import type { BufferFacts } from './heap-data';
import { heapData } from './heap-data';
import { KIND_CLASSES } from './buffer-classes';
import { HEAP_COLUMNS, heapKindText, heapTableOrder, sharedNames, tableFigures } from './heap-table-order';
import { syntheticPlan } from './synthetic-plan';

const buffer = (id: number, name: string, kind: PlannedBuffer['kind'], start: number, end: number, offset: number, size: number): PlannedBuffer => ({
  id, name, kind, size, bytes: size, start, end, offset, region: 'dram',
});

// A plan of four buffers: plan order is not the order of any column.
const plan: ModelPlan = {
  ...syntheticPlan(4, 3),
  buffers: [
    buffer(0, 'b', 'activation', 1, 3, 64, 32),
    buffer(1, 'present.0.key', 'output', 2, 4, 0, 64),
    buffer(2, 'a', 'input', 0, 2, 96, 16),
    buffer(3, 'c', 'activation', 0, 1, 128, 64),
  ],
};
const data = heapData(plan, new Set(['present.0.key']));
const shapes = [[8], [16], [4], undefined];
const describe_ = (i: number): BufferFacts => ({ buffer: plan.buffers[i]!, op: ['Relu', 'Concat', undefined, 'Add'][i], shape: shapes[i], dtype: 'float32', parent: undefined, quantization: undefined });
const order = (column: (typeof HEAP_COLUMNS)[number]['id'], direction: 'ascending' | 'descending') => [...heapTableOrder(data, describe_, { column, direction })];

describe('the heap table order', () => {
  it("names the buffer whose bytes an alias shares, and sorts the rows that share first by that name", () => {
    const inPlace: ModelPlan = { ...plan, buffers: plan.buffers.map((b) => (b.id === 0 ? { ...b, alias: { parent: 3, offset: 0, rule: 'in-place' as const } } : b)) };
    const shared = heapData(inPlace, new Set());
    expect(sharedNames(shared)).toEqual(['c', undefined, undefined, undefined]);
    expect([...heapTableOrder(shared, describe_, { column: 'shares', direction: 'descending' })][0]).toBe(0);
  });

  it('gives the column widths the largest offset, of all and of the buffers that share bytes (drawn after a mark), and the last step', () => {
    expect(tableFigures(data)).toEqual({ maxOffset: 128, steps: 4 });
    const inPlace: ModelPlan = { ...plan, buffers: plan.buffers.map((b) => (b.id === 0 ? { ...b, alias: { parent: 3, offset: 0, rule: 'in-place' as const } } : b)) };
    expect(tableFigures(heapData(inPlace, new Set()))).toEqual({ maxOffset: 128, maxSharedOffset: 64, steps: 4 });
  });

  it('keeps plan order until a column is chosen', () => {
    expect([...heapTableOrder(data, describe_, undefined)]).toEqual([0, 1, 2, 3]);
  });

  it('puts the largest buffer first with one click on Bytes, ties in plan order', () => {
    const bytes = HEAP_COLUMNS.find((c) => c.id === 'bytes')!;
    const sort = nextSort(undefined, bytes.id, bytes.first);
    expect(sort).toEqual({ column: 'bytes', direction: 'descending' });
    expect([...heapTableOrder(data, describe_, sort)]).toEqual([1, 3, 0, 2]);
    expect([...heapTableOrder(data, describe_, nextSort(sort, 'bytes'))]).toEqual([2, 0, 1, 3]);
  });

  it('sorts each column by what it shows', () => {
    expect(order('buffer', 'ascending')).toEqual([2, 0, 3, 1]);
    expect(order('offset', 'ascending')).toEqual([1, 0, 2, 3]);
    expect(order('lifetime', 'ascending')).toEqual([3, 2, 0, 1]);
    expect(order('op', 'ascending')).toEqual([2, 3, 1, 0]);
    // by element count, the unknown shape last
    expect(order('shape', 'ascending')).toEqual([2, 0, 1, 3]);
    expect(order('kind', 'ascending')).toEqual([0, 3, 2, 1]);
  });

  it('names a KV cache tensor in the Kind column', () => {
    expect(heapKindText(data, 1)).toBe('output · KV cache');
    expect(heapKindText(data, 2)).toBe('input');
  });

  it('names model state (a TFLite variable tensor) in the Kind column, coloured and counted as an activation, not I/O', () => {
    const withState: ModelPlan = { ...plan, buffers: plan.buffers.map((b) => (b.id === 3 ? { ...b, state: true as const } : b)) };
    const stateData = heapData(withState, new Set());
    expect(heapKindText(stateData, 3)).toBe('activation · state');
    expect(KIND_CLASSES[stateData.kindClass[3]!]).toBe('activation');
    expect(heapKindText(stateData, 0)).toBe('activation');
  });
});
