// Which columns of a table fit across its pane, and the CSS grid that lays
// them out. A table never scrolls sideways: a pane too narrow for every column
// leaves out the least read first, and each column shown keeps at least its
// minimum width, so a figure is never cut. The heap's table and the tensor
// table both fit this way. Pure.

/** A column as the fit sees it. */
export interface FitColumn<Id extends string> {
  readonly id: Id;
  readonly min: number; // px: the narrowest it is drawn
  readonly grow?: number; // its share (fr) of the room left over; none: fixed at `min`
  readonly drop?: number; // its turn to be left out of a narrow table, 1 first; none: always shown
  readonly tight?: number; // px: a narrower minimum, taken when no column is left to leave out
}

/** The space a row takes besides its columns. */
export interface FitSpacing {
  readonly gap: number; // px between two columns
  readonly padding: number; // px of the row's padding, both sides together
}

/** The columns shown, those left out, and the grid template of the row. */
export interface FittedColumns<Id extends string> {
  readonly shown: ReadonlySet<Id>;
  readonly left: ReadonlySet<Id>; // left out: a row keeps their cells, hidden, so their text stays in the page

  readonly template: string; // grid-template-columns
}

/** The px a row of `columns` needs at least. */
function needed<Id extends string>(columns: readonly FitColumn<Id>[], spacing: FitSpacing, tight: boolean): number {
  const mins = columns.reduce((sum, c) => sum + (tight ? (c.tight ?? c.min) : c.min), 0);
  return mins + spacing.gap * Math.max(0, columns.length - 1) + spacing.padding;
}

function template<Id extends string>(columns: readonly FitColumn<Id>[], tight: boolean): string {
  return columns
    .map((c) => {
      const min = tight ? (c.tight ?? c.min) : c.min;
      return c.grow === undefined ? `${min}px` : `minmax(${min}px, ${c.grow}fr)`;
    })
    .join(' ');
}

/**
 * The columns of `columns` (in display order) that fit in `width` px, leaving out the droppable ones in their
 * turn until the rest fit; when even the columns always shown do not, they take their tight minimums. An unknown
 * width (the row not laid out yet) shows every column.
 */
export function fitColumns<Id extends string>(columns: readonly FitColumn<Id>[], width: number | undefined, spacing: FitSpacing): FittedColumns<Id> {
  let kept = columns;
  if (width !== undefined) {
    const turns = columns.filter((c) => c.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
    for (const column of turns) {
      if (needed(kept, spacing, false) <= width) break;
      kept = kept.filter((c) => c !== column);
    }
  }
  const tight = width !== undefined && needed(kept, spacing, false) > width;
  return { shown: new Set(kept.map((c) => c.id)), left: new Set(columns.filter((c) => !kept.includes(c)).map((c) => c.id)), template: template(kept, tight) };
}
