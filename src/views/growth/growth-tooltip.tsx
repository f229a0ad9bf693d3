// The card over the growth chart for the point under the pointer: its value,
// peak and lower bound (per region when there are several), the largest
// buffer, whether it fits, and what a click and a shift-click do (or Enter and
// Shift+Enter, for the point chosen by keyboard); and the same in one sentence
// for screen readers.

import { formatBytes } from '../../shared/format';
import type { GrowthPoint } from '../../worker/protocol';
import { peakText } from '../plan-words';

/** Props of GrowthTooltip. */
export interface GrowthTooltipProps {
  readonly point: GrowthPoint;
  readonly dim: string; // the axis's label
  readonly x: number; // the point's x in the chart, in pixels
  readonly width: number; // the chart's width, to keep the card inside
  readonly compare: boolean; // shift-click compares
  readonly keys?: boolean; // chosen by keyboard: say Enter rather than click
}

/** Width the card is laid out for, in CSS pixels. */
const CARD_WIDTH = 230;

/** The card for `point`. */
export function GrowthTooltip({ point, dim, x, width, compare, keys = false }: GrowthTooltipProps) {
  const left = Math.max(4, Math.min(width - CARD_WIDTH - 4, x + 12));
  return (
    <div className="growth-tooltip" style={{ left }} role="status" data-testid="growth-tooltip" data-value={point.value} data-peak={point.peak}>
      <strong>
        {dim} = {point.value}
      </strong>
      <span>
        peak {peakText(point.peak, point.complete)}
        {!point.complete && ' (lower estimate)'} · lower bound {formatBytes(point.lowerBound)}
      </span>
      {point.regions.length > 1 && (
        <span className="muted">
          {point.regions.map((r) => `${r.name} ${formatBytes(r.peak)}`).join(' · ')}
        </span>
      )}
      {point.largest !== undefined && (
        <span className="muted growth-largest">
          largest buffer {formatBytes(point.largest.size)} {point.largest.name}
        </span>
      )}
      {!point.fits && <span className="tool-error">over a size limit</span>}
      {point.unknown !== undefined && <span className="muted">unknown size: {point.unknown}</span>}
      <span className="muted">{keys ? `Enter: plan this value${compare ? ' · Shift+Enter: compare with it' : ''}` : `Click: plan this value${compare ? ' · Shift-click: compare with it' : ''}`}</span>
    </div>
  );
}

/** The card's figures in one sentence, as a screen reader announces the point chosen by keyboard. */
export function pointSentence(point: GrowthPoint, dim: string): string {
  const words = [`${dim} = ${point.value}: peak ${peakText(point.peak, point.complete)}${point.complete ? '' : ' (lower estimate)'}, lower bound ${formatBytes(point.lowerBound)}`];
  if (point.regions.length > 1) words.push(point.regions.map((r) => `${r.name} ${formatBytes(r.peak)}`).join(', '));
  if (!point.fits) words.push('over a size limit');
  return `${words.join('; ')}.`;
}
