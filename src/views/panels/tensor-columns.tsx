// Columns of the tensor table: the sortable header row and one data row, with
// a quantization column after the dtype for a TensorFlow Lite model that has
// any. Both lay their cells out on the same CSS grid (see .table-grid in styles).

import type { CSSProperties } from 'react';
import type { IrQuantization } from '../../model/ir-tflite';
import { formatBytes, formatCount } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import type { TensorRow } from '../../store/selectors';
import type { SortColumn } from '../../store/state';
import { quantizationCell, quantizationText } from '../quantization';
import { SortHeader } from '../sort-header';
import { kindText } from '../heap/buffer-classes';

interface Column {
  readonly id: SortColumn;
  readonly label: string;
  readonly numeric?: boolean;
}

/** The table's columns, in display order. */
export const COLUMNS: readonly Column[] = [
  { id: 'order', label: '#', numeric: true },
  { id: 'name', label: 'Name' },
  { id: 'op', label: 'Op' },
  { id: 'kind', label: 'Kind' },
  { id: 'dtype', label: 'DType' },
  { id: 'shape', label: 'Shape' },
  { id: 'bytes', label: 'Bytes', numeric: true },
];

/** The header row: one sort button per column, with aria-sort on the sorted one; `quantized` adds the quantization column. */
export function TableHeader({ quantized = false }: { readonly quantized?: boolean }) {
  const sort = useAppStore((s) => s.sort);
  const { setSort } = useActions();
  return (
    <div role="rowgroup" className="table-head">
      <div role="row" aria-rowindex={1} className="table-grid table-head-row">
        {COLUMNS.flatMap((column) => {
          const active = sort.column === column.id;
          return [
            <SortHeader
              key={column.id}
              label={column.label}
              column={column.id}
              direction={active ? sort.direction : undefined}
              numeric={column.numeric}
              className={`cell${column.numeric ? ' cell-numeric' : ''}`}
              onSort={() => setSort(column.id)}
            />,
            ...(quantized && column.id === 'dtype'
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
  readonly quantized?: boolean; // the table has the quantization column
  readonly quantization?: IrQuantization | undefined; // the row's, in a quantized table
  readonly index: number; // position in the visible rows
  readonly style: CSSProperties;
  readonly selected?: boolean; // the selection stands for this tensor
  readonly onSelect?: (name: string) => void; // a click (or Enter) on the row
  readonly planned?: string; // the plan stores it at another size, and why: "363 KiB int8 on npu"
}

/** One tensor. */
export function TableRow({ row, index, style, quantized = false, quantization, selected = false, onSelect, planned }: TableRowProps) {
  const unknown = row.bytes === undefined;
  const kv = row.kv;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`table-grid table-row${selected ? ' table-row-selected' : ''}`}
      style={style}
      data-testid="tensor-row"
      data-name={row.name}
      onClick={() => onSelect?.(row.name)}
    >
      <div role="cell" className="cell cell-numeric muted">
        {row.order + 1}
      </div>
      <div role="cell" className="cell mono truncate" title={titleText(row.name)} data-testid="cell-name">
        {shortName(row.name)}
      </div>
      <div role="cell" className="cell truncate" data-testid="cell-op">
        {row.op ? shortName(row.op) : <span className="muted">—</span>}
      </div>
      <div role="cell" className="cell">
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
      <div role="cell" className="cell mono" data-testid="cell-dtype">
        {row.dtype}
      </div>
      {quantized && (
        <div role="cell" className="cell mono truncate" title={quantization === undefined ? undefined : quantizationText(quantization)} data-testid="cell-quantization">
          {quantization === undefined ? <span className="muted">—</span> : quantizationCell(quantization)}
        </div>
      )}
      <div role="cell" className={`cell mono truncate${unknown ? ' unknown' : ''}`} title={row.note ?? row.shape} data-testid="cell-shape">
        {row.shape}
      </div>
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
