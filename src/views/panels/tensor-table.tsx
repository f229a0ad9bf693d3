// The tensor table: every value of the model, searchable and sortable, with
// only the visible rows in the DOM (@tanstack/react-virtual) so that tens of
// thousands of tensors scroll smoothly. Clicking a row selects its tensor in
// every view (its buffer in the heap, its producer in the graph); with the rows
// focused, ↓ ↑ Home End select another row the same way and keep it in view.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { formatCount } from '../../shared/format';
import { useActions, useAppStore } from '../../store/context';
import { selectPlan, selectRowTotal, type TensorRow } from '../../store/selectors';
import { selectRows } from '../../store/planned-selectors';
import { selectedTensors, tensorSelection } from '../selection';
import { listKeyTarget } from '../list-keys';
import { plannedSizeOf, plannedSizeShort } from '../planned-size';
import type { Selection } from '../../store/state';
import { KindFilter } from './kind-filter';
import { hasQuantization, quantizationOf } from '../quantization';
import { TableHeader, TableRow, tensorColumns, type TensorColumn } from './tensor-columns';
import { useElementSize } from '../use-element-size';
import type { FittedColumns } from '../fit-columns';
import './table.css';
import { isTypingTarget } from '../typing-target';
import { tensorRowWords } from './tensor-row-words';

/** Height of one row in pixels; matches --row-height in the styles. */
const ROW_HEIGHT = 30;

/** The table with its search box and counts; nothing before a model is open. */
export function TensorTable() {
  const rows = useAppStore(selectRows);
  const total = useAppStore(selectRowTotal);
  const hasModel = useAppStore((s) => s.model !== undefined);
  const quantized = useAppStore((s) => hasQuantization(s.model?.inferred));
  const [headRow, headSize] = useElementSize<HTMLDivElement>();
  const fitted = tensorColumns(headSize?.width, quantized);
  const [said, setSaid] = useState(''); // the row the arrow keys reached, read out (tensor-row-words.ts)
  if (!hasModel) return null;
  return (
    <section id="tensor-table" className="pane tensors" aria-labelledby="tensors-title" data-testid="tensor-table" data-find="">
      <div className="tensors-toolbar">
        <h2 id="tensors-title" className="tensors-title">
          Tensors
        </h2>
        <KindFilter />
        <SearchBox />
        <span className="tensors-count" data-testid="row-count" aria-live="polite">
          {rows.length === total ? `${formatCount(total)} tensors` : `${formatCount(rows.length)} of ${formatCount(total)} tensors`}
        </span>
      </div>
      <div role="table" aria-labelledby="tensors-title" aria-rowcount={rows.length + 1} className="table">
        <TableHeader fitted={fitted} rowRef={headRow} />
        <TableBody rows={rows} fitted={fitted} onSay={setSaid} />
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="table-said">
        {said}
      </p>
    </section>
  );
}

/** The search input; "/" anywhere on the page focuses it (the graph's Find takes it with focus in the graph or the pointer over it), Escape clears it. */
function SearchBox() {
  const query = useAppStore((s) => s.query);
  const { setQuery } = useActions();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === '/' && !isTypingTarget(event.target) && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="search">
      <label htmlFor="tensor-search" className="visually-hidden">
        Search tensors by name, op, node or dtype
      </label>
      <svg className="search-icon" viewBox="0 0 16 16" aria-hidden="true">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
      <input
        ref={input}
        id="tensor-search"
        className="input search-input"
        type="search"
        placeholder="Filter by name, op, node or dtype"
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setQuery('')}
      />
      <kbd className="search-hint" aria-hidden="true">
        /
      </kbd>
    </div>
  );
}

/** The scrolling body: renders only the rows in view (plus a few above and below). */
function TableBody({ rows, fitted, onSay }: { rows: readonly TensorRow[]; fitted: FittedColumns<TensorColumn>; onSay: (words: string) => void }) {
  const model = useAppStore((s) => s.model?.inferred);
  const query = useAppStore((s) => s.query);
  const kinds = useAppStore((s) => s.kinds);
  const sort = useAppStore((s) => s.sort);
  const file = useAppStore((s) => (s.model ? `${s.model.name}:${s.model.size}` : ''));
  const plan = useAppStore(selectPlan);
  const selection = useAppStore((s) => s.selection);
  // a buffer's tensor, or a node's outputs and scratch (a node clicked in the graph)
  const selected = useMemo(() => new Set(selectedTensors(plan, selection)), [plan, selection]);
  const { select } = useActions();
  // The row a click or a key chose last, with the selection it made: a weight's row selects the node that reads it,
  // whose own rows the table marks, so the keys walk on from the row chosen while that selection stands.
  const [cursor, setCursor] = useState<{ readonly name: string; readonly selection: Selection | undefined } | undefined>(undefined);
  const onSelect = (name: string): void => {
    if (model === undefined) return;
    const chosen = tensorSelection(model, plan, name);
    setCursor({ name, selection: chosen });
    select(chosen);
  };
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the warning is about React Compiler memoizing this component; the build has no compiler and nothing memoizes it, so its rows cannot go stale
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  // A new search, filter, sort or file starts at the top; a re-inference keeps the place.
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [query, kinds, sort, file, virtualizer]);
  // A tensor selected in another view (a heap buffer, a graph node, a link's select=) is scrolled into view, or the table
  // marked a row no one could see; one already in view stays where it is. Again when the hidden table is shown.
  // the body renders on every scroll frame: the search of 10,000 rows runs only when the rows or the selection change
  const current = useMemo(() => {
    const chosen = cursor !== undefined && cursor.selection === selection ? rows.findIndex((row) => row.name === cursor.name) : -1;
    return chosen >= 0 ? chosen : selected.size === 0 ? -1 : rows.findIndex((row) => selected.has(row.name));
  }, [rows, selected, selection, cursor]);
  const shown = (virtualizer.scrollRect?.height ?? 0) > 0;
  useEffect(() => {
    const body = scroller.current;
    if (body === null || current < 0) return;
    const top = current * ROW_HEIGHT;
    if (top < body.scrollTop) body.scrollTop = top;
    else if (top + ROW_HEIGHT > body.scrollTop + body.clientHeight) body.scrollTop = top + ROW_HEIGHT - body.clientHeight;
  }, [current, shown]);
  // ↓ and ↑ select the next and previous row, Home and End the first and last, as a click would. The arrows already
  // select, so Enter has nothing left to do: it leaves the selection (a graph node's, say) as it is.
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>): void => {
    const next = listKeyTarget(event.key, current, rows.length, { wrap: false });
    if (next === undefined) return;
    event.preventDefault();
    onSelect(rows[next]!.name);
    onSay(tensorRowWords(rows[next]!, next, rows.length));
  };
  return (
    <div ref={scroller} role="rowgroup" className="table-body" tabIndex={0} aria-label="Tensor rows: up and down arrows select the next and previous tensor, Home and End the first and last" onKeyDown={onKeyDown} data-testid="table-body">
      {rows.length === 0 && <p className="table-empty">No tensor matches the filter and search.</p>}
      <div className="table-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          const quantization = fitted.shown.has('quantization') ? quantizationOf(model, row.name) : undefined;
          const planned = plannedSizeOf(plan, { name: row.name, bytes: row.bytes, dtypeName: row.dtype });
          return (
            <TableRow
              key={row.order}
              row={row}
              index={item.index}
              style={{ transform: `translateY(${item.start}px)` }}
              fitted={fitted}
              quantization={quantization}
              {...(planned !== undefined && { planned: plannedSizeShort(planned) })}
              selected={selected.has(row.name) || item.index === current}
              onSelect={onSelect}
            />
          );
        })}
      </div>
    </div>
  );
}
