// Columns of the tensor table: the sortable header row and one data row, with
// a quantization column after the dtype for a TensorFlow Lite model that has
// any. Both lay their cells out on the same grid, which fits across the pane
// (fit-columns.ts): a narrow pane leaves out the least read columns, never
// the name and the bytes.

import type { CSSProperties, Ref } from 'react';
import type { IrQuantization } from '../../model/ir-tflite';
import { formatBytes, formatCount } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import type { TensorRow } from '../../store/selectors';
import type { SortColumn } from '../../store/state';
import { quantizationCell, quantizationText } from '../quantization';
import { SortHeader } from '../sort-header';
import { fitColumns, type FitColumn, type FittedColumns } from '../fit-columns';
import { kindText } from '../heap/buffer-classes';

interface Column {
  readonly id: SortColumn;
  readonly label: string;
  readonly numeric?: boolean;
}

/** A column of the grid: a sortable one, or the quantization of a quantized model's table. */
export type TensorColumn = SortColumn | 'quantization';

/**
 * The grid's columns and their widths, in display order; a narrow pane leaves out Quantization, Op, Kind, DType,
 * Shape and # in turn (a click on a row shows them all in Details), never the name and the bytes.
 */
const GRID: readonly FitColumn<TensorColumn>[] = [
  { id: 'order', min: 56, drop: 6 },
  { id: 'name', min: 160, grow: 3, tight: 96 },
  { id: 'op', min: 90, grow: 1, drop: 2 },
  { id: 'kind', min: 152, drop: 3 },
  { id: 'dtype', min: 92, drop: 4 },
  { id: 'quantization', min: 150, grow: 1.2, drop: 1 },
  { id: 'shape', min: 110, grow: 1.3, drop: 5 },
  { id: 'bytes', min: 96 },
];

/** The columns that fit in a row `width` px wide (undefined: all), with or without the quantization column. */
export function tensorColumns(width: number | undefined, quantized: boolean): FittedColumns<TensorColumn> {
  return fitColumns(
    GRID.filter((c) => quantized || c.id !== 'quantization'),
    width,
    { gap: 0, padding: 0 },
  );
}

/** The table's sortable columns, in display order. */
export const COLUMNS: readonly Column[] = [
  { id: 'order', label: '#', numeric: true },
  { id: 'name', label: 'Name' },
  { id: 'op', label: 'Op' },
  { id: 'kind', label: 'Kind' },
  { id: 'dtype', label: 'DType' },
  { id: 'shape', label: 'Shape' },
  { id: 'bytes', label: 'Bytes', numeric: true },
];

/** Props of TableHeader. */
export interface TableHeaderProps {
  readonly fitted: FittedColumns<TensorColumn>; // the columns shown and their grid
  readonly rowRef?: Ref<HTMLDivElement>; // the header row, whose width the columns fit
}

/** The header row: one sort button per column shown, with aria-sort on the sorted one, and the quantization column's name. */
export function TableHeader({ fitted, rowRef }: TableHeaderProps) {
  const sort = useAppStore((s) => s.sort);
  const { setSort } = useActions();
  return (
    <div role="rowgroup" className="table-head">
      <div ref={rowRef} role="row" aria-rowindex={1} className="table-grid table-head-row" style={{ gridTemplateColumns: fitted.template }}>
        {COLUMNS.flatMap((column) => {
          const active = sort.column === column.id;
          return [
            ...(fitted.shown.has(column.id)
              ? [
                  <SortHeader
                    key={column.id}
                    label={column.label}
                    column={column.id}
                    direction={active ? sort.direction : undefined}
                    numeric={column.numeric}
                    className={`cell${column.numeric ? ' cell-numeric' : ''}`}
                    onSort={() => setSort(column.id)}
                  />,
                ]
              : []),
            ...(column.id === 'dtype' && fitted.shown.has('quantization')
              ? [
                  <div key="quantization" role="columnheader" className="cell" data-column="quantization">
                    <span className="sort-button column-label">Quantization</span>
                  </div>,
                ]
              : []),
          ];
        })}
      </div>
    </div>
  );
}

/** Props of TableRow. */
export interface TableRowProps {
  readonly row: TensorRow;
  readonly fitted: FittedColumns<TensorColumn>; // the columns shown and their grid
  readonly quantization?: IrQuantization | undefined; // the row's, in a quantized table
  readonly index: number; // position in the visible rows
  readonly style: CSSProperties;
  readonly selected?: boolean; // the selection stands for this tensor
  readonly onSelect?: (name: string) => void; // a click (or Enter) on the row
  readonly planned?: string; // the plan stores it at another size, and why: "363 KiB int8 on npu"
}

/** One tensor. */
export function TableRow({ row, fitted, index, style, quantization, selected = false, onSelect, planned }: TableRowProps) {
  const unknown = row.bytes === undefined;
  const kv = row.kv;
  const left = fitted.left;
  // a column left out keeps its cell, hidden
  const has = (column: TensorColumn): boolean => fitted.shown.has(column) || left.has(column);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`table-grid table-row${selected ? ' table-row-selected' : ''}`}
      style={{ ...style, gridTemplateColumns: fitted.template }}
      data-testid="tensor-row"
      data-name={row.name}
      onClick={() => onSelect?.(row.name)}
    >
      {has('order') && (
        <div role="cell" hidden={left.has('order')} className="cell cell-numeric muted">
          {row.order + 1}
        </div>
      )}
      <div role="cell" className="cell mono truncate" title={titleText(row.name)} data-testid="cell-name">
        {shortName(row.name)}
      </div>
      {has('op') && (
        <div role="cell" hidden={left.has('op')} className="cell truncate" data-testid="cell-op">
          {row.op ? shortName(row.op) : <span className="muted">—</span>}
        </div>
      )}
      {has('kind') && (
        <div role="cell" hidden={left.has('kind')} className="cell">
          {row.state ? (
            <span className={`kind kind-${row.kind}`} title="State: a variable tensor kept across runs, read as an input and live for the whole run" data-testid="kind-state">
              state
            </span>
          ) : (
            <span className={`kind kind-${row.kind}`} title={kv ? 'A decoder\'s KV cache: kept from one step to the next' : undefined} data-testid="cell-kind">
              {kindText(row.kind, kv)}
            </span>
          )}
        </div>
      )}
      {has('dtype') && (
        <div role="cell" hidden={left.has('dtype')} className="cell mono" data-testid="cell-dtype">
          {row.dtype}
        </div>
      )}
      {has('quantization') && (
        <div role="cell" hidden={left.has('quantization')} className="cell mono truncate" title={quantization === undefined ? undefined : quantizationText(quantization)} data-testid="cell-quantization">
          {quantization === undefined ? <span className="muted">—</span> : quantizationCell(quantization)}
        </div>
      )}
      {has('shape') && (
        <div role="cell" hidden={left.has('shape')} className={`cell mono truncate${unknown ? ' unknown' : ''}`} title={row.note ?? row.shape} data-testid="cell-shape">
          {row.shape}
        </div>
      )}
      <div
        role="cell"
        className={`cell cell-numeric mono${unknown ? ' unknown' : ''}${planned === undefined ? '' : ' cell-planned'}`}
        title={row.note ?? (row.bytes === undefined ? undefined : `${formatCount(row.bytes)} bytes as ${row.dtype}${planned === undefined ? '' : `; planned as ${planned}`}`)}
        data-testid="cell-bytes"
        data-bytes={row.bytes}
        data-planned={planned}
      >
        {row.note && !unknown ? '≤ ' : ''}
        {formatBytes(row.bytes)}
        {planned !== undefined && <span className="planned-mark" aria-label={`planned as ${planned}`}>*</span>}
      </div>
    </div>
  );
}
