// How a table's sort moves when a column header is clicked: the same column
// again flips the direction, another column starts at its own first
// direction. Shared by the tensor table (store) and the heap's table. Pure.

/** A sort direction, as aria-sort names it. */
export type SortDirection = 'ascending' | 'descending';

/** A table's sort: a column and a direction. */
export interface SortOrder<C extends string> {
  readonly column: C;
  readonly direction: SortDirection;
}

/** The sort after a click on `column`: the same column again flips `sort`'s direction, another starts at `first`. */
export function nextSort<C extends string>(sort: SortOrder<C> | undefined, column: C, first: SortDirection = 'ascending'): SortOrder<C> {
  if (sort?.column !== column) return { column, direction: first };
  return { column, direction: sort.direction === 'ascending' ? 'descending' : 'ascending' };
}
