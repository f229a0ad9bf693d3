// A table of figures as the explanation and Compare draw them: a header row
// of column names, the body rows its caller gives, an optional total row; and
// the cells several of them share: bytes in words, and a name cut to fit
// (shared/short-name) that acts when clicked.

import type { ReactNode } from 'react';
import { formatBytes } from '../shared/format';
import { shortName, titleText } from '../shared/short-name';

/** Props of DataTable. */
export interface DataTableProps {
  readonly className: string;
  readonly columns: readonly ReactNode[]; // the header row, one cell per column
  readonly label?: string; // the table's accessible name, where no heading names it
  readonly testId?: string;
  readonly footer?: ReactNode; // the rows of the table's foot (a total)
  readonly children: ReactNode; // the body rows
}

/** A table with a header row of `columns`, then its body rows and its foot. */
export function DataTable({ className, columns, label, testId, footer, children }: DataTableProps) {
  return (
    <table className={className} aria-label={label} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column, i) => (
            // Columns are fixed for a table, so their place is their identity.
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      {footer !== undefined && <tfoot>{footer}</tfoot>}
    </table>
  );
}

/** A cell of `bytes` in words, or a dash where there are none; `exact` shows the exact count on hover. */
export function BytesCell({ bytes, exact = false, label }: { readonly bytes: number | undefined; readonly exact?: boolean; readonly label?: string }) {
  if (bytes === undefined) return <td data-label={label}>—</td>;
  return (
    <td title={exact ? `${bytes.toLocaleString('en-US')} bytes` : undefined} data-label={label}>
      {formatBytes(bytes)}
    </td>
  );
}

/** Props of NameCell. */
export interface NameCellProps {
  readonly name: string; // the whole name, shown (bounded) on hover
  readonly text?: string; // what the cell shows, already cut; `name` cut by default
  readonly className?: string;
  readonly onClick: () => void;
}

/** A cell with a name cut to fit at its start, as a button; the whole name on hover. */
export function NameCell({ name, text = shortName(name), className, onClick }: NameCellProps) {
  return (
    <td className={className} title={titleText(name)}>
      <button type="button" className="link-button truncate-start" onClick={onClick}>
        <bdi>{text}</bdi>
      </button>
    </td>
  );
}
