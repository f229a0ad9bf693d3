import { describe, expect, it } from 'vitest';
import { fitColumns } from './fit-columns';
import { HEAP_ROW_SPACING, heapColumns } from './heap/heap-table-order';
import { tensorColumns } from './panels/tensor-columns';

const ids = (shown: ReadonlySet<string>): string[] => [...shown];

describe('fitColumns', () => {
  const fit = (lanes: number, more: Partial<Parameters<typeof heapColumns>[0]> = {}) => ({ lanes, maxOffset: 147_456, steps: 39, ...more });
  const heap = (lanes: number, width: number | undefined, more: Partial<Parameters<typeof heapColumns>[0]> = {}) => fitColumns(heapColumns(fit(lanes, more), width), width, HEAP_ROW_SPACING);

  it('shows every heap column in a row of their minimum widths, gaps and padding (737 + 8 × 8 + 24 px)', () => {
    const fitted = heap(1, 825);
    expect(fitted.shown.size).toBe(9);
    // Offset as wide as "147,456", Lifetime as "[39, 39)", a header's arrow only on the column sorted by
    expect(fitted.template).toBe('minmax(104px, 1.6fr) 60px 56px 63px 54px minmax(120px, 0.9fr) minmax(88px, 1fr) minmax(88px, 1fr) minmax(104px, 1fr)');
    expect(heap(1, 825, { sorted: 'bytes' }).template).toMatch(/^minmax\(104px, 1\.6fr\) 76px 56px 63px /);
    expect(heap(1, 825, { maxOffset: 12_345_678 }).template).toMatch(/^minmax\(104px, 1\.6fr\) 60px 78px /);
    // a buffer sharing another's bytes shows its mark (15 px) before its offset: "2,457,600" after it needs 71 + 15 px
    expect(heap(1, 825, { maxOffset: 2_457_600, maxSharedOffset: 2_457_600 }).template).toMatch(/^minmax\(104px, 1\.6fr\) 60px 86px /);
    expect(heap(1, 825, { maxOffset: 2_457_600, maxSharedOffset: 0 }).template).toMatch(/^minmax\(104px, 1\.6fr\) 60px 71px /);
  });

  it('leaves out the heap columns least read first, one pixel short at a time, and keeps Kind as its colour chip', () => {
    expect(ids(heap(1, 824).shown)).not.toContain('shares');
    expect(ids(heap(1, 700).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'region', 'kind', 'op']);
    // Kind's words do not fit: its chip stays, under a one-letter header, where it was left out
    const narrow = heapColumns(fit(1), 430);
    expect(narrow.find((c) => c.id === 'kind')).toMatchObject({ label: 'K', min: 32, compact: true });
    expect(ids(heap(1, 433).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'region', 'kind']);
    expect(ids(heap(1, 432).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'kind']);
    expect(ids(heap(1, 380).shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'kind']);
    expect(ids(heap(1, 380).left)).toEqual(['region', 'op', 'shape', 'shares']);
  });

  it('keeps Region over two regions and Kind beside it, the name taking the room left (GPT-2 on mcu at 1280 px: a 436 px row)', () => {
    const row = heap(2, 436);
    expect(ids(row.shown)).toEqual(['buffer', 'bytes', 'offset', 'lifetime', 'region', 'kind']);
    expect(row.template).toBe('minmax(104px, 1.6fr) 60px 56px 63px 54px 32px');
    // sorted by bytes, its arrow shown: the name takes its tighter minimum, Kind stays
    expect(heap(2, 436, { sorted: 'bytes' }).template).toBe('minmax(72px, 1.6fr) 76px 56px 63px 54px 32px');
  });

  it('shows every column before the row is laid out', () => {
    expect(heap(1, undefined).shown.size).toBe(9);
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
