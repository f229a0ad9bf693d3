// The heap table's columns and the order of its rows: plan order until a
// header is clicked, then by that column, ties kept in plan order. The bytes
// start with the largest, the other columns from the smallest (or A). Pure.

import type { SortDirection, SortOrder } from '../../shared/sort-order';
import type { FitColumn } from '../fit-columns';
import { KIND_CLASSES, kindText } from './buffer-classes';
import type { BufferFacts, HeapData } from './heap-data';

/** A column of the heap table. */
export type HeapColumn = 'buffer' | 'bytes' | 'offset' | 'lifetime' | 'region' | 'kind' | 'op' | 'shape' | 'shares';

/** A column's header, how it sorts, and how wide it is drawn (fit-columns.ts). */
export interface HeapColumnSpec extends FitColumn<HeapColumn> {
  readonly label: string;
  readonly numeric?: boolean;
  readonly first: SortDirection; // the direction of the first click
}

/**
 * The columns, figures first: a narrow pane shows the name, bytes, place and lifetime, and leaves out the least
 * read in turn: Shares (its mark stays at the offset), Shape, Op, Kind, Region. A click on a row shows them all in Details.
 */
export const HEAP_COLUMNS: readonly HeapColumnSpec[] = [
  { id: 'buffer', label: 'Buffer', first: 'ascending', min: 104, grow: 1.6, tight: 72 },
  { id: 'bytes', label: 'Bytes', numeric: true, first: 'descending', min: 76 },
  { id: 'offset', label: 'Offset', numeric: true, first: 'ascending', min: 80 },
  { id: 'lifetime', label: 'Lifetime', first: 'ascending', min: 80 },
  { id: 'region', label: 'Region', first: 'ascending', min: 56, grow: 0.6, drop: 5 },
  { id: 'kind', label: 'Kind', first: 'ascending', min: 104, grow: 0.9, drop: 4 },
  { id: 'op', label: 'Op', first: 'ascending', min: 88, grow: 1, drop: 3 },
  { id: 'shape', label: 'Shape', first: 'ascending', min: 88, grow: 1, drop: 2 },
  { id: 'shares', label: 'Shares with', first: 'ascending', min: 104, grow: 1, drop: 1 },
];

/** The columns of a plan over `lanes` regions: over two or more an offset means nothing without its region, so Region stays (narrower, with the names, when nothing else is left to leave out). */
export function heapColumns(lanes: number): readonly HeapColumnSpec[] {
  if (lanes < 2) return HEAP_COLUMNS;
  return HEAP_COLUMNS.map((c) => (c.id === 'region' ? { ...c, drop: undefined, tight: 48 } : c));
}

/** The space of a heap table row besides its columns (heap.css). */
export const HEAP_ROW_SPACING = { gap: 8, padding: 24 } as const;

/** For each buffer of `data`, the name of the buffer whose bytes it shares (its alias's parent); undefined for a buffer of its own bytes. */
export function sharedNames(data: HeapData): readonly (string | undefined)[] {
  const names = new Map(data.plan.buffers.map((b) => [b.id, b.name]));
  return data.plan.buffers.map((b) => (b.alias === undefined ? undefined : (names.get(b.alias.parent) ?? `buffer ${b.alias.parent}`)));
}

/** The Kind cell of buffer `i`: its kind, "· KV cache" for a decoder's cache, and the rule of the bytes it shares. */
export function heapKindText(data: HeapData, i: number): string {
  const b = data.plan.buffers[i]!;
  const kind = kindText(b.kind, KIND_CLASSES[data.kindClass[i]!] === 'kv');
  return b.alias ? `${kind} (${b.alias.rule})` : kind;
}

const text = new Intl.Collator('en', { numeric: true });

/** Compares buffers `i` and `j` of `data` by `column`, ascending. */
function comparer(data: HeapData, describe: (i: number) => BufferFacts, column: HeapColumn): (i: number, j: number) => number {
  const buffers = data.plan.buffers;
  const byText = (key: (i: number) => string): ((i: number, j: number) => number) => {
    const keys = Array.from({ length: data.count }, (_, i) => key(i));
    return (i, j) => text.compare(keys[i]!, keys[j]!);
  };
  // by region in the diagram's order, a region without a lane (of buffers of no bytes) after those with one
  const regionRank = (): Uint16Array => {
    const rank = new Map(data.regions.map((name, k) => [name, k]));
    return Uint16Array.from(buffers, (b) => rank.get(b.region)!);
  };
  switch (column) {
    case 'buffer':
      return byText((i) => buffers[i]!.name);
    case 'bytes':
      return (i, j) => data.size[i]! - data.size[j]!;
    case 'offset': {
      const region = regionRank();
      return (i, j) => region[i]! - region[j]! || data.offset[i]! - data.offset[j]!;
    }
    case 'lifetime':
      return (i, j) => data.start[i]! - data.start[j]! || data.end[i]! - data.end[j]!;
    case 'region': {
      const region = regionRank();
      return (i, j) => region[i]! - region[j]!;
    }
    case 'kind':
      return byText((i) => heapKindText(data, i));
    case 'op':
      return byText((i) => describe(i).op ?? '');
    case 'shares': {
      const shared = sharedNames(data);
      return byText((i) => shared[i] ?? '');
    }
    case 'shape': {
      // by element count, an unknown shape last
      const count = Array.from({ length: data.count }, (_, i) => describe(i).shape?.reduce((a, d) => a * d, 1) ?? Infinity);
      return (i, j) => (count[i] === count[j] ? 0 : count[i]! < count[j]! ? -1 : 1);
    }
  }
}

/** Buffer indices of `data` in the order the table lists them under `sort` (plan order without one). */
export function heapTableOrder(data: HeapData, describe: (i: number) => BufferFacts, sort: SortOrder<HeapColumn> | undefined): Uint32Array {
  const order = Uint32Array.from({ length: data.count }, (_, i) => i);
  if (sort === undefined) return order;
  const compare = comparer(data, describe, sort.column);
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return Uint32Array.from([...order].sort((i, j) => sign * compare(i, j) || i - j));
}
