// The heap as a table: the accessible alternative to the canvas diagram. One
// row per buffer (virtualized), in plan order; a row click or Enter selects it.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { formatBytes, formatCount, formatShape } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import type { BufferFacts, HeapData } from './heap-data';

const ROW_HEIGHT = 28;
// The figures first: a pane narrower than the table shows the name, bytes, place and lifetime before scrolling sideways.
const COLUMNS = ['Buffer', 'Bytes', 'Offset', 'Lifetime', 'Region', 'Kind', 'Op', 'Shape'] as const;

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
  // eslint-disable-next-line react-hooks/incompatible-library -- the warning is about React Compiler memoizing this component; the build has no compiler and nothing memoizes it, so its rows cannot go stale
  const virtualizer = useVirtualizer({ count: data.count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  return (
    <div role="table" aria-label="Buffers of the plan" aria-rowcount={data.count + 1} className="heap-table" data-testid="heap-table">
      <div role="row" className="heap-table-row heap-table-head">
        {COLUMNS.map((c) => (
          <span role="columnheader" key={c}>
            {c}
          </span>
        ))}
      </div>
      <div ref={scroller} role="rowgroup" className="heap-table-body">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const f = describe(item.index);
            const b = f.buffer;
            return (
              <div
                role="row"
                key={b.id}
                aria-rowindex={item.index + 2}
                aria-selected={highlight?.[item.index] === 1}
                tabIndex={0}
                className="heap-table-row"
                data-testid="heap-row"
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => onSelectBuffer(item.index)}
                onKeyDown={(e) => e.key === 'Enter' && onSelectBuffer(item.index)}
              >
                <span role="cell" className="mono truncate" title={titleText(b.name)}>
                  {shortName(b.name)}
                </span>
                <span role="cell" className="num">{formatBytes(b.size)}</span>
                <span role="cell" className="num mono">{formatCount(b.offset)}</span>
                <span role="cell" className="mono">
                  [{b.start}, {b.end})
                </span>
                <span role="cell" className="truncate">{shortName(b.region)}</span>
                <span role="cell">{b.alias ? `${b.kind} (${b.alias.rule})` : b.kind}</span>
                <span role="cell" className="truncate">{shortName(f.op ?? '')}</span>
                <span role="cell" className="mono truncate">{formatShape(f.shape)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
