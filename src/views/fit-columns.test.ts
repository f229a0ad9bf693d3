import { describe, expect, it } from 'vitest';
import { fitColumns } from './fit-columns';
import { HEAP_ROW_SPACING, heapColumns } from './heap/heap-table-order';
import { tensorColumns } from './panels/tensor-columns';

const ids = (shown: ReadonlySet<string>): string[] => [...shown];

describe('fitColumns', () => {
  it('shows every heap column in a row of their minimum widths, gaps and padding (780 + 8 × 8 + 24 px)', () => {
    const fitted = fitColumns(heapColumns(1), 868, HEAP_ROW_SPACING);
    expect(fitted.shown.size).toBe(9);
    expect(fitted.template).toBe('minmax(104px, 1.6fr) 76px 80px 80px minmax(56px, 0.6fr) minmax(104px, 0.9fr) minmax(88px, 1fr) minmax(88px, 1fr) minmax(104px, 1fr)');
  });

  it('leaves out the heap columns least read first, one pixel short at a time', () => {
    expect(ids(fitColumns(heapColumns(1), 867, HEAP_ROW_SPACING).shown)).not.toContain('shares');
    expect(ids(fitColumns(heapColumns(1), 755, HEAP_ROW_SPACING).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'region', 'kind', 'op']);
    expect(ids(fitColumns(heapColumns(1), 400, HEAP_ROW_SPACING).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime']);
    expect(ids(fitColumns(heapColumns(1), 400, HEAP_ROW_SPACING).left)).toEqual(['region', 'kind', 'op', 'shape', 'shares']);
  });

  it('keeps Region over two regions, narrower with the names when nothing else is left to leave out', () => {
    const wide = fitColumns(heapColumns(2), 500, HEAP_ROW_SPACING);
    expect(ids(wide.shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'region']);
    expect(wide.template).toBe('minmax(104px, 1.6fr) 76px 80px 80px minmax(56px, 0.6fr)');
    expect(fitColumns(heapColumns(2), 430, HEAP_ROW_SPACING).template).toBe('minmax(72px, 1.6fr) 76px 80px 80px minmax(48px, 0.6fr)');
  });

  it('shows every column before the row is laid out', () => {
    expect(fitColumns(heapColumns(1), undefined, HEAP_ROW_SPACING).shown.size).toBe(9);
  });

  it('keeps the tensor name and bytes whole at 1024 px with the side bar (a 686 px row): Op goes first, the Bytes column keeps its 96 px', () => {
    const fitted = tensorColumns(686, false);
    expect(ids(fitted.shown)).toEqual(['order', 'name', 'kind', 'dtype', 'shape', 'bytes']);
    expect(fitted.template.endsWith(' 96px')).toBe(true);
    expect(ids(tensorColumns(300, false).shown)).toEqual(['name', 'bytes']);
    expect(ids(tensorColumns(1200, true).shown)).toContain('quantization');
    expect(ids(tensorColumns(900, true).shown)).not.toContain('quantization');
  });
});
