// The card over the growth chart for the point under the pointer: its value,
// peak and lower bound (per region when there are several), the largest
// buffer, whether it fits, and what a click and a shift-click do (or Enter and
// Shift+Enter, for the point chosen by keyboard); and the same in one sentence
// for screen readers. A card that would hide its point's dot wherever it goes,
// under the mouse or chosen by keyboard, keeps only its figures, which leaves
// room to show the dot (the plot's label says what Enter does; the dot under
// the pointer is the one a click plans).

import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import { formatBytes, MAX_EXACT_POWER, PAST_LIMIT_UNLIMITED } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { GrowthPoint } from '../../worker/protocol';
import { peakText, regionsPeakNote, regionsPeakText } from '../plan-words';
import type { CardPlace } from './growth-geometry';

/** Where the card goes, and whether there it hides a dot of its point (cardCovers). */
export type PlacedCard = CardPlace & { readonly covers: boolean };

/** Props of GrowthTooltip. */
export interface GrowthTooltipProps {
  readonly point: GrowthPoint;
  readonly dim: string; // the axis's label
  readonly place: (height: number, paneTop: number) => PlacedCard; // where a card of that height goes, clear of the axes' labels, up to the top of what shows the chart at `paneTop` (cardPlace)
  readonly compare: boolean; // shift-click compares
  readonly keys?: boolean; // chosen by keyboard: say Enter rather than click
}

/** Width the card is laid out for where the plot has room, in CSS pixels. */
export const GROWTH_CARD_WIDTH = 230;

/** The card for `point`. */
export function GrowthTooltip({ point, dim, place, compare, keys = false }: GrowthTooltipProps) {
  const card = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0); // the whole card's height, cut or not, as last drawn whole
  const [figuresHeight, setFiguresHeight] = useState(0); // the card's height with its figures alone, as last drawn so
  const [paneTop, setPaneTop] = useState(0); // the top of what shows the chart (its scrolling box), from the chart's (0 or less): a tall card may rise to it
  // Decided by the whole card's height alone, so that drawing the shorter card never turns the choice back.
  const figuresOnly = place(height, paneTop).covers;
  const { left, top, width, maxHeight } = place(figuresOnly ? figuresHeight : height, paneTop);
  // Measured before the paint, again whenever what the card says or its width changes: a card placed for another point's height would show for a frame.
  useLayoutEffect(() => {
    if (card.current === null) return;
    const drawn = card.current.scrollHeight;
    if (figuresOnly && drawn !== figuresHeight) setFiguresHeight(drawn);
    if (!figuresOnly && drawn !== height) setHeight(drawn);
    const chart = card.current.parentElement;
    const shows = chart === null ? undefined : clippingBox(chart);
    const above = chart === null || shows === undefined ? 0 : shows.getBoundingClientRect().top - chart.getBoundingClientRect().top;
    if (Math.round(above) !== paneTop) setPaneTop(Math.round(above));
  }, [point, dim, compare, keys, width, height, figuresHeight, figuresOnly, paneTop]);
  return (
    <div ref={card} className="growth-tooltip" style={{ left, top, width, maxHeight }} role="status" data-testid="growth-tooltip" data-value={point.value} data-peak={point.peak} data-figures-only={figuresOnly || undefined}>
      <strong>
        <NameBreaks name={dim} /> = {point.value}
      </strong>
      <span>
        peak <Whole>{peakText(point.peak, point.complete)}</Whole>
        {regionsPeakNote(point) !== undefined && ` ${regionsPeakNote(point)}`}
        {!point.complete && ' (lower estimate)'} · lower bound <Whole>{formatBytes(point.lowerBound)}</Whole>
      </span>
      {point.regions.length > 1 && (
        <span className="muted">
          {point.regions.map((r) => `${r.name} ${peakText(r.peak, point.complete)}`).join(' · ')}
        </span>
      )}
      {point.largest !== undefined && !figuresOnly && (
        <span className="muted growth-largest">
          largest buffer <Whole>{formatBytes(point.largest.size)}</Whole> <NameBreaks name={shortName(point.largest.name, LARGEST_CHARS, 'scope')} whole />
        </span>
      )}
      {!point.fits && <span className="tool-error">over a size limit</span>}
      {estimateNote(point) !== undefined && <span className="muted growth-unknown">{estimateNote(point)}</span>}
      {!figuresOnly && <span className="muted">{keys ? `Enter: plan this value${compare ? ' · Shift+Enter: compare with it' : ''}` : `Click: plan this value${compare ? ' · Shift-click: compare with it' : ''}`}</span>}
    </div>
  );
}

/** The nearest box above the chart that cuts what overflows it (the pane's scrolling body): a card rising higher would be cut. */
function clippingBox(chart: HTMLElement): HTMLElement | undefined {
  for (let box = chart.parentElement; box !== null; box = box.parentElement) {
    if (getComputedStyle(box).overflowY !== 'visible') return box;
    if (box.classList.contains('pane')) return box;
  }
  return undefined;
}

/** Characters of the largest buffer's name the card shows; the status line above the chart names it whole. */
const LARGEST_CHARS = 60;

/** A figure with its unit, never broken across lines. */
function Whole({ children }: { readonly children: string }) {
  return <span className="growth-whole">{children}</span>;
}

/**
 * `name` that may break after an underscore, a slash or a dot
 * ("past_sequence_ / length"), not inside a word. `whole`, for a name that
 * ends its line: it moves whole to the next line when it fits there, and only
 * a name longer than a line breaks ("present_0" never ends a line with
 * "present_").
 */
function NameBreaks({ name, whole = false }: { readonly name: string; readonly whole?: boolean }) {
  return (
    <span className={whole ? 'growth-name growth-name-whole' : 'growth-name'}>
      {namePieces(name).map((piece, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}

/** `name` in pieces, each ending after an underscore, a slash or a dot: where a line may break without cutting a word. */
export function namePieces(name: string): string[] {
  return name.match(/[^_/.]*(?:[_/.]+|$)/g)!.filter((piece) => piece !== '');
}

/**
 * Why the point's peak is a lower estimate: a size unknown, or a tensor known
 * to need more than 2^53 − 1 bytes, planned as 0 bytes (too large, never
 * "unknown"), over the limit of a region holding it and in no other.
 */
export function estimateNote(point: Pick<GrowthPoint, 'unknown' | 'pastLimit' | 'regions'>): string | undefined {
  if (point.pastLimit === undefined) return point.unknown === undefined ? undefined : `unknown size: ${point.unknown}`;
  const held = point.regions.find((r) => r.pastLimit !== undefined);
  const where = held === undefined ? PAST_LIMIT_UNLIMITED : `over the size limit of ${held.name}, which holds it`;
  return `too large: '${point.pastLimit}' needs more than ${MAX_EXACT_POWER} bytes, ${where}`;
}

/** The card's figures in one sentence, as a screen reader announces the point chosen by keyboard. */
export function pointSentence(point: GrowthPoint, dim: string): string {
  const sum = regionsPeakText(point, point.complete);
  const said = [...(point.complete ? [] : ['lower estimate']), ...(sum === undefined ? [] : [sum])];
  const words = [`${dim} = ${point.value}: peak ${peakText(point.peak, point.complete)}${said.length === 0 ? '' : ` (${said.join('; ')})`}, lower bound ${formatBytes(point.lowerBound)}`];
  if (point.regions.length > 1 && sum === undefined) words.push(point.regions.map((r) => `${r.name} ${peakText(r.peak, point.complete)}`).join(', '));
  if (!point.fits) words.push('over a size limit');
  return `${words.join('; ')}.`;
}
