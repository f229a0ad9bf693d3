// The heap diagram's hover card: name, op, shape, dtype, bytes, offset,
// lifetime and region of the buffer under the pointer, and what it shares.

import { formatBytes, formatCount, formatShape } from '../../shared/format';
import type { BufferFacts } from './heap-data';

/** The buffer under the pointer and where the pointer is (CSS pixels in the diagram). */
export interface HoverState {
  readonly facts: BufferFacts;
  readonly x: number;
  readonly y: number;
}

/** A floating card next to the pointer, kept inside the diagram. */
export function HeapTooltip({ hover }: { readonly hover: HoverState }) {
  const { buffer, op, shape, dtype, parent } = hover.facts;
  const flipX = hover.x > 260;
  const style = { left: flipX ? undefined : hover.x + 14, right: flipX ? `calc(100% - ${hover.x - 14}px)` : undefined, top: hover.y + 14 };
  return (
    <div className="heap-tooltip" role="tooltip" data-testid="heap-tooltip" style={style}>
      <div className="heap-tooltip-name mono">{buffer.name}</div>
      <dl className="heap-tooltip-facts">
        <dt>Kind</dt>
        <dd>{buffer.kind}</dd>
        <dt>Op</dt>
        <dd>{op === undefined ? <span className="muted">graph input</span> : `${op} · ${buffer.node ?? ''}`}</dd>
        <dt>Shape</dt>
        <dd className="mono">
          {formatShape(shape)} {dtype ?? ''}
        </dd>
        <dt>Bytes</dt>
        <dd data-testid="tooltip-bytes">
          {formatBytes(buffer.size)} <span className="muted">({formatCount(buffer.size)})</span>
        </dd>
        <dt>Offset</dt>
        <dd className="mono">
          {formatCount(buffer.offset)} in {buffer.region}
        </dd>
        <dt>Lifetime</dt>
        <dd className="mono">
          [{buffer.start}, {buffer.end}) · {buffer.end - buffer.start} step{buffer.end - buffer.start === 1 ? '' : 's'}
        </dd>
        {parent && buffer.alias && (
          <>
            <dt>Shares</dt>
            <dd>
              {buffer.alias.rule} of <span className="mono">{parent.name}</span> at +{formatCount(buffer.alias.offset)}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
