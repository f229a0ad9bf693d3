// The heap diagram's hover card: name, op, shape, dtype (a scratch buffer's
// rule instead), bytes, offset,
// lifetime and region of the buffer under the pointer, what it shares, and a
// TensorFlow Lite tensor's quantization.

import { useLayoutEffect, useRef } from 'react';
import { formatBytes, formatCount, formatShape } from '../../shared/format';
import { isCut, shortName } from '../../shared/short-name';
import { quantizationText } from '../quantization';
import { reservedText, scratchRuleText } from '../buffer-words';
import type { BufferFacts } from './heap-data';
import { noProducerWords } from './heap-words';

/** The buffer under the pointer and where the pointer is (CSS pixels in the diagram). */
export interface HoverState {
  readonly facts: BufferFacts;
  readonly x: number;
  readonly y: number;
}

/** Characters of the buffer's name, and of its node's, a glance at the card shows; a click shows all in the details. */
const NAME_CHARS = 80;
const NODE_CHARS = 40;

/** Gap between the pointer and the card, in CSS pixels. */
const GAP = 14;

/** A floating card next to the pointer, kept inside the diagram (flipped to the pointer's left or above it when it would overflow). */
export function HeapTooltip({ hover }: { readonly hover: HoverState }) {
  const { buffer, op, shape, dtype, parent, quantization } = hover.facts;
  const card = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = card.current;
    const area = element?.offsetParent;
    if (!element || !area) return;
    // in an area too small for the whole card (a small embed), it keeps the name, bytes, offset and lifetime
    element.removeAttribute('data-compact');
    if (element.offsetHeight > area.clientHeight - 2 * GAP) element.setAttribute('data-compact', 'true');
    const { x, y } = cardPosition(hover, element.offsetWidth, element.offsetHeight, area.clientWidth, area.clientHeight);
    element.style.left = `${x}px`;
    element.style.top = `${y}px`;
  });
  return (
    <div ref={card} className="heap-tooltip" role="tooltip" data-testid="heap-tooltip" style={{ left: hover.x + GAP, top: hover.y + GAP }}>
      <div className="heap-tooltip-name mono">
        {shortName(buffer.name, NAME_CHARS)}
      </div>
      {isCut(buffer.name, NAME_CHARS) && (
        <div className="heap-tooltip-more muted" data-testid="tooltip-name-cut">
          {formatCount(buffer.name.length)} characters; click the buffer to show all
        </div>
      )}
      <dl className="heap-tooltip-facts">
        <dt className="heap-tooltip-extra">Kind</dt>
        <dd className="heap-tooltip-extra">{buffer.kind}</dd>
        <dt className="heap-tooltip-extra">Op</dt>
        <dd className="heap-tooltip-extra">{op === undefined ? <span className="muted">{noProducerWords(hover.facts)}</span> : `${shortName(op, NODE_CHARS)} · ${shortName(buffer.node ?? '', NODE_CHARS, 'scope')}`}</dd>
        {buffer.kind === 'scratch' ? (
          <>
            <dt className="heap-tooltip-extra">Sized by</dt>
            <dd className="heap-tooltip-extra" data-testid="tooltip-scratch-rule">{scratchRuleText(buffer)}</dd>
          </>
        ) : (
          <>
            <dt className="heap-tooltip-extra">Shape</dt>
            <dd className="mono heap-tooltip-extra">
              {formatShape(shape)} {dtype ?? ''}
            </dd>
          </>
        )}
        {quantization !== undefined && (
          <>
            <dt className="heap-tooltip-extra">Quantized</dt>
            <dd className="heap-tooltip-extra" data-testid="tooltip-quantization">{quantizationText(quantization)}</dd>
          </>
        )}
        <dt>Bytes</dt>
        <dd data-testid="tooltip-bytes">
          {buffer.size > buffer.bytes && buffer.bytes > 0 ? (
            reservedText(buffer)
          ) : (
            <>
              {formatBytes(buffer.size)} <span className="muted">({formatCount(buffer.size)})</span>
            </>
          )}
        </dd>
        <dt>Offset</dt>
        <dd className="mono">
          {formatCount(buffer.offset)} in {buffer.region}
        </dd>
        {buffer.wanted !== undefined && (
          <>
            <dt className="heap-tooltip-extra">Spilled</dt>
            <dd className="heap-tooltip-extra" data-testid="tooltip-spilled">
              from {buffer.wanted}, which it wanted (the explanation says why the largest went)
            </dd>
          </>
        )}
        <dt>Lifetime</dt>
        <dd className="mono">
          [{buffer.start}, {buffer.end}) · {buffer.end - buffer.start} step{buffer.end - buffer.start === 1 ? '' : 's'}
        </dd>
        {parent && buffer.alias && (
          <>
            <dt className="heap-tooltip-extra">Shares</dt>
            <dd className="heap-tooltip-extra">
              {buffer.alias.rule} of <span className="mono">{shortName(parent.name, NODE_CHARS, 'scope')}</span> at +{formatCount(buffer.alias.offset)}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

/** Where a card of `width` x `height` goes for `hover` in an area of `areaWidth` x `areaHeight`: below right of the pointer, else left or above, never outside the area's top left. */
export function cardPosition(hover: Pick<HoverState, 'x' | 'y'>, width: number, height: number, areaWidth: number, areaHeight: number): { x: number; y: number } {
  return { x: placeAlong(hover.x, width, areaWidth), y: placeAlong(hover.y, height, areaHeight) };
}

/** Start of a card of `size` along one axis: after the pointer, else before it, else as far along as the area allows. */
function placeAlong(pointer: number, size: number, room: number): number {
  if (pointer + GAP + size <= room) return pointer + GAP;
  if (pointer - GAP - size >= 0) return pointer - GAP - size;
  return Math.max(0, room - size);
}
