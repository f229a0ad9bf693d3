// The heap table's columns and the order of its rows: plan order until a
// header is clicked, then by that column, ties kept in plan order. The bytes
// start with the largest, the other columns from the smallest (or A). Pure.

import type { SortDirection, SortOrder } from '../../shared/sort-order';
import { fitColumns, type FitColumn } from '../fit-columns';
import { formatCount } from '../../shared/format';
import { KIND_CLASSES, kindText } from './buffer-classes';
import type { BufferFacts, HeapData } from './heap-data';

/** A column of the heap table. */
export type HeapColumn = 'buffer' | 'bytes' | 'offset' | 'lifetime' | 'region' | 'kind' | 'op' | 'shape' | 'shares';

/** A column's header, how it sorts, and how wide it is drawn (fit-columns.ts). */
export interface HeapColumnSpec extends FitColumn<HeapColumn> {
  readonly label: string;
  readonly numeric?: boolean;
  readonly first: SortDirection; // the direction of the first click
  readonly compact?: true; // Kind as a colour chip with a one-letter header, its words in a title and for screen readers
}

/**
 * The columns, figures first: a narrow pane shows the name, bytes, place, lifetime and kind, and leaves out the least
 * read in turn: Shares (its mark stays at the offset), Shape, Op, the Kind in words (its colour chip stays), Region.
 * The figures' columns are as wide as their header (its sort arrow only when sorted by it) and figures; the name takes
 * the room left over. A click on a row shows them all in Details.
 */
export const HEAP_COLUMNS: readonly HeapColumnSpec[] = [
  { id: 'buffer', label: 'Buffer', first: 'ascending', min: 104, grow: 1.6, tight: 72 },
  { id: 'bytes', label: 'Bytes', numeric: true, first: 'descending', min: 60 },
  { id: 'offset', label: 'Offset', numeric: true, first: 'ascending', min: 52 },
  { id: 'lifetime', label: 'Lifetime', first: 'ascending', min: 62 },
  { id: 'region', label: 'Region', first: 'ascending', min: 54, drop: 5 },
  { id: 'kind', label: 'Kind', first: 'ascending', min: 120, grow: 0.9, drop: 4 },
  { id: 'op', label: 'Op', first: 'ascending', min: 88, grow: 1, drop: 3 },
  { id: 'shape', label: 'Shape', first: 'ascending', min: 88, grow: 1, drop: 2 },
  { id: 'shares', label: 'Shares with', first: 'ascending', min: 104, grow: 1, drop: 1 },
];

/** The Kind column when its words do not fit: a colour chip (and a spill notch) under a one-letter header, never left out. */
const COMPACT_KIND: HeapColumnSpec = { id: 'kind', label: 'K', first: 'ascending', min: 32, compact: true };

/** Px of one character of the table's monospace figures (12.5 px), rounded up. */
const MONO_CHAR = 7.6;

/** Px the shares-bytes mark takes before an offset (heap.css: an 11 px swatch, border included, and 4 px after it). */
const SHARES_MARK = 15;

/** Px a header's sort arrow takes (sort-header.css: 12 px and a 4 px gap), shown only on the column the table is sorted by. */
const SORT_ARROW = 16;

/** What the widths of the heap table's columns depend on besides the pane. */
export interface HeapColumnsFit {
  readonly lanes: number; // regions of the plan
  readonly maxOffset: number; // the largest offset: the Offset column is as wide as its figure
  readonly maxSharedOffset?: number; // the largest offset of a buffer that shares another's bytes, drawn after the shares mark; absent when none shares
  readonly steps: number; // the plan's steps: the Lifetime column is as wide as "[steps, steps)"
  readonly sorted?: HeapColumn; // the column the table is sorted by: its header shows its arrow
}

/**
 * The columns for a row `width` px wide (undefined: not laid out yet). Over two or more regions an offset means
 * nothing without its region, so Region stays; Offset (with a shared buffer's mark) and Lifetime are as wide as their largest figure; and Kind
 * turns into its chip where its words do not fit, so a KV cache or a spilled row still looks apart.
 */
export function heapColumns(fit: HeapColumnsFit, width?: number): readonly HeapColumnSpec[] {
  const mono = (chars: number): number => Math.ceil(chars * MONO_CHAR) + 2;
  const digits = String(Math.max(0, fit.steps)).length;
  const sized = (c: HeapColumnSpec): HeapColumnSpec => {
    const min = c.id === 'offset' ? Math.max(c.min, offsetWidth(fit)) : c.id === 'lifetime' ? Math.max(c.min, mono(2 * digits + 4)) : c.min;
    const arrow = c.id === fit.sorted ? SORT_ARROW : 0;
    const kept = c.id === 'region' && fit.lanes >= 2 ? { drop: undefined } : {};
    return { ...c, ...kept, min: min + arrow, ...(c.tight !== undefined && { tight: c.tight + arrow }) };
  };
  const full = HEAP_COLUMNS.map(sized);
  if (width === undefined || fitColumns(full, width, HEAP_ROW_SPACING).shown.has('kind')) return full;
  return full.map((c) => (c.id === 'kind' ? sized(COMPACT_KIND) : c));
}

/** Px of the widest Offset cell: the largest offset, or the largest shared one after its shares mark, whichever is wider. */
function offsetWidth(fit: HeapColumnsFit): number {
  const mono = (value: number): number => Math.ceil(formatCount(value).length * MONO_CHAR) + 2;
  return Math.max(mono(fit.maxOffset), fit.maxSharedOffset === undefined ? 0 : mono(fit.maxSharedOffset) + SHARES_MARK);
}

/** The figures of `data` the columns' widths depend on: the largest offset (of all, and of those that share bytes) and step. */
export function tableFigures(data: HeapData): Pick<HeapColumnsFit, 'maxOffset' | 'maxSharedOffset' | 'steps'> {
  let maxOffset = 0;
  let maxSharedOffset: number | undefined;
  let steps = 0;
  for (const b of data.plan.buffers) {
    maxOffset = Math.max(maxOffset, b.offset);
    if (b.alias !== undefined) maxSharedOffset = Math.max(maxSharedOffset ?? 0, b.offset);
    steps = Math.max(steps, b.end);
  }
  return { maxOffset, ...(maxSharedOffset !== undefined && { maxSharedOffset }), steps };
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
  const kind = kindText(b.kind, KIND_CLASSES[data.kindClass[i]!] === 'kv', b.state === true);
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
