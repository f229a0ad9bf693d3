// A column header that sorts its table: a button (so a click, Enter and Space
// sort alike) with an arrow, and aria-sort on the header cell. The tensor
// table and the heap's table both use it; each keeps its own sort state.

import type { SortDirection } from '../shared/sort-order';
import './sort-header.css';

/** Props of SortHeader. */
export interface SortHeaderProps {
  readonly label: string;
  readonly name?: string; // the column's name when `label` is shorter (a one-letter header): the button's accessible name and title
  readonly direction: SortDirection | undefined; // the table's direction when it is sorted by this column
  readonly onSort: () => void;
  readonly column: string; // data-column, for styles and tests
  readonly className?: string; // of the header cell
  readonly numeric?: boolean; // the arrow goes before the label, as the figures align right
}

/** One header cell with its sort button. */
export function SortHeader({ label, name, direction, onSort, column, className, numeric = false }: SortHeaderProps) {
  const active = direction !== undefined;
  return (
    <div role="columnheader" aria-sort={direction ?? 'none'} className={className} data-column={column}>
      <button type="button" className={`sort-button${numeric ? ' sort-button-numeric' : ''}${active ? ' sort-active' : ''}`} onClick={onSort} aria-label={name} title={name}>
        {label}
        <SortArrow direction={direction} />
      </button>
    </div>
  );
}

function SortArrow({ direction }: { readonly direction: SortDirection | undefined }) {
  const d = direction === 'descending' ? 'M4 6l4 4 4-4' : 'M4 10l4-4 4 4';
  return (
    <svg className="sort-arrow" viewBox="0 0 16 16" aria-hidden="true" data-visible={direction !== undefined}>
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
