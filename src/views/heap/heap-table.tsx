// The heap as a table: the accessible alternative to the canvas diagram. One
// row per buffer (virtualized), in plan order until a header sorts it
// (heap-table-order.ts); a row click or Enter selects it. A buffer that
// shares another's bytes (in place, a view, a Concat slot) is marked at its
// offset with the diagram's hatch and names that buffer in its last column. The table
// fits across its pane: a narrow pane leaves out the least read columns (fit-columns.ts,
// the columns in heap-table-order.ts), and a cut name or word keeps its whole text in a title.

import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { formatBytes, formatCount, formatShape } from '../../shared/format';
import { SHOWN_CHARS, shortName, titleText } from '../../shared/short-name';
import { nextSort, type SortOrder } from '../../shared/sort-order';
import { paddedSizeTitle } from '../buffer-words';
import { fitColumns } from '../fit-columns';
import { SortHeader } from '../sort-header';
import { useElementSize } from '../use-element-size';
import type { BufferFacts, HeapData } from './heap-data';
import { KIND_CLASSES } from './buffer-classes';
import { HEAP_ROW_SPACING, heapColumns, heapKindText, heapTableOrder, sharedNames, tableFigures, type HeapColumn } from './heap-table-order';

const ROW_HEIGHT = 28;

/** Props of HeapTable. */
export interface HeapTableProps {
  readonly data: HeapData;
  readonly highlight: Uint8Array | undefined;
  readonly describe: (i: number) => BufferFacts;
  readonly onSelectBuffer: (i: number) => void;
}

/** Every buffer of the plan as a row. */
export function HeapTable({ data, highlight, describe, onSelectBuffer }: HeapTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [sort, setSort] = useState<SortOrder<HeapColumn> | undefined>(undefined);
  const order = useMemo(() => heapTableOrder(data, describe, sort), [data, describe, sort]);
  const sharing = useMemo(() => sharedNames(data), [data]);
  const [headRow, headSize] = useElementSize<HTMLDivElement>();
  const figures = useMemo(() => tableFigures(data), [data]);
  // the Region column counts the plan's regions, not the lanes drawn: a region holding nothing has no lane
  const columns = heapColumns({ lanes: data.regions.length, ...figures, sorted: sort?.column }, headSize?.width);
  const compactKind = columns.some((c) => c.id === 'kind' && c.compact === true);
  const fitted = fitColumns(columns, headSize?.width, HEAP_ROW_SPACING);
  const shown = columns.filter((c) => fitted.shown.has(c.id));
  const grid = { gridTemplateColumns: fitted.template };
  // eslint-disable-next-line react-hooks/incompatible-library -- the warning is about React Compiler memoizing this component; the build has no compiler and nothing memoizes it, so its rows cannot go stale
  const virtualizer = useVirtualizer({ count: data.count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  // A new sort starts at the top, where its first rows are.
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [sort, virtualizer]);
  return (
    <div role="table" aria-label="Buffers of the plan" aria-rowcount={data.count + 1} className="heap-table" data-testid="heap-table">
      <div role="rowgroup" className="heap-table-headgroup">
        <div ref={headRow} role="row" aria-rowindex={1} className="heap-table-row heap-table-head" style={grid}>
          {shown.map((c) => (
            <SortHeader
              key={c.id}
              label={c.label}
              name={c.compact === true ? 'Kind' : undefined}
              column={c.id}
              numeric={c.numeric}
              className={c.numeric ? 'num' : undefined}
              direction={sort?.column === c.id ? sort.direction : undefined}
              onSort={() => setSort(nextSort(sort, c.id, c.first))}
            />
          ))}
        </div>
      </div>
      <div ref={scroller} role="rowgroup" className="heap-table-body">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const i = order[item.index]!;
            const f = describe(i);
            const b = f.buffer;
            const cells = rowCells(data, i, f, sharing[i], fitted.left, compactKind);
            return (
              <div
                role="row"
                key={b.id}
                aria-rowindex={item.index + 2}
                aria-selected={highlight?.[i] === 1}
                tabIndex={0}
                className="heap-table-row"
                data-testid="heap-row"
                data-name={b.name}
                style={{ ...grid, transform: `translateY(${item.start}px)` }}
                onClick={() => onSelectBuffer(i)}
                onKeyDown={(e) => e.key === 'Enter' && onSelectBuffer(i)}
              >
                {columns.map((c) => (
                  <Fragment key={c.id}>{cells[c.id]}</Fragment>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * The cells of buffer `i`'s row, by column, those of the columns `left` out hidden; `shared`: the name of the buffer
 * whose bytes it shares; `compactKind`: its kind as its colour chip alone, the words in its title and for screen readers.
 */
function rowCells(data: HeapData, i: number, f: BufferFacts, shared: string | undefined, left: ReadonlySet<HeapColumn>, compactKind: boolean): Record<HeapColumn, ReactNode> {
  const b = f.buffer;
  const kind = heapKindText(data, i);
  const spilled = b.wanted === undefined ? '' : `, spilled: it wanted ${b.wanted}`;
  const padded = paddedSizeTitle(b);
  return {
    buffer: (
      <span role="cell" hidden={left.has('buffer')} className="mono truncate-start" title={titleText(b.name)}>
        <bdi>{shortName(b.name, SHOWN_CHARS, 'scope')}</bdi>
      </span>
    ),
    bytes: (
      <span role="cell" hidden={left.has('bytes')} className={padded === undefined ? 'num' : 'num heap-padded'} data-testid="heap-cell-bytes" data-bytes={b.size} title={padded}>
        {formatBytes(b.size)}
        {padded !== undefined && <span className="planned-mark" aria-label={padded}>*</span>}
      </span>
    ),
    offset: (
      <span role="cell" hidden={left.has('offset')} className="num mono" data-testid="heap-cell-offset">
        {shared !== undefined && (
          <span className="swatch swatch-shared heap-shares-mark" role="img" aria-label={`shares bytes with ${shortName(shared)}`} title={`shares bytes with ${titleText(shared)} (${b.alias!.rule})`} data-testid="heap-shares" />
        )}
        {formatCount(b.offset)}
      </span>
    ),
    lifetime: (
      <span role="cell" hidden={left.has('lifetime')} className="mono">
        [{b.start}, {b.end})
      </span>
    ),
    region: (
      <span role="cell" hidden={left.has('region')} className="truncate" title={titleText(b.region)}>
        {shortName(b.region)}
      </span>
    ),
    kind: (
      <span role="cell" hidden={left.has('kind')} className="truncate heap-kind" title={`${kind}${spilled}`} data-testid="heap-cell-kind" data-class={KIND_CLASSES[data.kindClass[i]!]} data-spilled={b.wanted !== undefined}>
        <span className={`swatch swatch-${KIND_CLASSES[data.kindClass[i]!]!}`} aria-hidden="true" />
        {spilled !== '' && <span className="spill-mark" aria-hidden="true" />}
        {compactKind ? <span className="visually-hidden">{kind}</span> : kind}
        {spilled !== '' && <span className="visually-hidden">{spilled}</span>}
      </span>
    ),
    op: (
      <span role="cell" hidden={left.has('op')} className="truncate" title={f.op === undefined ? undefined : titleText(f.op)} data-testid="heap-cell-op">
        {shortName(f.op ?? '')}
      </span>
    ),
    shape: (
      <span role="cell" hidden={left.has('shape')} className="mono truncate" title={formatShape(f.shape)}>
        {formatShape(f.shape)}
      </span>
    ),
    shares: (
      <span role="cell" hidden={left.has('shares')} className="mono truncate-start" title={shared === undefined ? undefined : titleText(shared)} data-testid="heap-cell-shares">
        {shared !== undefined && <bdi>{shortName(shared, SHOWN_CHARS, 'scope')}</bdi>}
      </span>
    ),
  };
}
