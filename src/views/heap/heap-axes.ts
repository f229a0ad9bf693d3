// The heap diagram's SVG overlay, updated imperatively on every frame: a byte
// axis and a name label per lane, the step axis under the live-bytes curve,
// and the outline of the hovered buffer. A lane's title takes the longest
// wording that fits (lane-title.ts). React renders the empty groups once.

import { axisBottom, axisLeft, format, select, type ZoomTransform } from 'd3';
import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import type { HeapData } from './heap-data';
import type { HeapLayout, HeapScales } from './heap-geometry';
import { rectOf } from './draw-heap';
import { byteTicks } from '../byte-ticks';
import { fitLaneTitle, laneTitles, laneTitleWidth, ticksApart, ticksClearOfTitle, TITLE_LEFT, TITLE_LIFT } from './lane-title';
import { limitLabelBox, splitTitleRow } from './lane-limit';

/** The SVG groups the overlay draws into. */
export interface AxisGroups {
  readonly lanes: SVGGElement; // one <g> per lane is kept inside
  readonly steps: SVGGElement;
  readonly hover: SVGRectElement;
}

const stepFormat = format('d');

/** Redraws the axes and lane labels for the current scales. */
export function updateAxes(groups: AxisGroups, data: HeapData, layout: HeapLayout, scales: HeapScales, t: ZoomTransform): void {
  const lanes = select(groups.lanes)
    .selectAll<SVGGElement, number>('g.heap-lane-axis')
    .data(data.lanes.map((_, i) => i))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'heap-lane-axis');
      g.append('g').attr('class', 'heap-axis');
      g.append('text').attr('class', 'heap-lane-label');
      g.append('text').attr('class', 'heap-lane-limit').attr('text-anchor', 'end');
      return g;
    });
  lanes.each(function (lane) {
    const g = select(this);
    const box = layout.lanes[lane]!;
    const y = scales.y[lane]!;
    const height = t.applyY(box.top + box.height) - t.applyY(box.top);
    const ticks = Math.max(2, Math.min(8, Math.floor(height / 36)));
    const [lo, hi] = y.domain() as [number, number];
    const bytes = byteTicks(Math.min(lo, hi), Math.max(lo, hi), ticks);
    const shown = ticksApart(ticksClearOfTitle(bytes.values, y, t.applyY(box.top)), y);
    g.select<SVGGElement>('g.heap-axis')
      .attr('transform', `translate(${layout.plot.left},${layout.plot.top})`)
      .call(axisLeft(y).tickValues(shown).tickFormat((v) => bytes.label(Number(v))).tickSizeOuter(0));
    const info = data.lanes[lane]!;
    const laneTop = layout.plot.top + t.applyY(box.top);
    const label = g.select<SVGTextElement>('text.heap-lane-label').attr('x', TITLE_LEFT).attr('y', laneTop - TITLE_LIFT);
    const limitText = g.select<SVGTextElement>('text.heap-lane-limit');
    const measureIn = (node: SVGTextElement) => (text: string): number => {
      node.textContent = text;
      return node.getComputedTextLength();
    };
    const measure = measureIn(label.node()!);
    // The file's own plan run instead of the one drawn: the limit label says where it peaks, the title whose drawing this is.
    const placement = info.limit?.written !== undefined;
    const peak = peakText(info.peak, data.plan.complete);
    const bound = formatBytes(info.lowerBound);
    let titleWidth = laneTitleWidth(layout);
    if (info.limit === undefined) limitText.text('').attr('data-testid', null).attr('data-box', null);
    else {
      // The limit's label shares the lane's title row, at its right end: in the lane it covered the buffers under the line's end.
      const up = y(info.limit.arena) < Math.max(t.applyY(box.top), 0) ? '↑ ' : '';
      const measureLimit = measureIn(limitText.node()!);
      const titles = laneTitles(info.name, peak, bound, placement);
      const row = splitTitleRow(info.limit, titleWidth, measure(titles[placement ? 3 : 2]!), (text) => measureLimit(`${up}${text}`), measure(titles.at(-1)!));
      titleWidth = row.titleWidth;
      const right = layout.plot.left + layout.plot.width;
      const text = `${up}${row.limitText}`;
      const at = limitLabelBox(laneTop, right, measureLimit(text));
      limitText
        .text(text)
        .attr('x', right)
        .attr('y', laneTop - TITLE_LIFT)
        .attr('data-over', info.limit.overBy > 0 || null)
        .attr('data-testid', 'heap-lane-limit')
        .attr('data-box', `${at.left},${at.top},${at.right},${at.bottom}`);
    }
    label.text(fitLaneTitle(info.name, peak, bound, titleWidth, measure, placement)).attr('data-placement', placement || null);
  });
  const ticks = Math.max(2, Math.floor(layout.plot.width / 70));
  const integerTicks = scales.x.ticks(ticks).filter((v) => Number.isInteger(v));
  select(groups.steps)
    .attr('transform', `translate(${layout.plot.left},${layout.axisTop})`)
    .call(axisBottom(scales.x).tickValues(integerTicks).tickFormat((v) => stepFormat(Number(v))).tickSizeOuter(0));
}

/** Outlines buffer `i` (or hides the outline). */
export function updateHover(groups: AxisGroups, data: HeapData, layout: HeapLayout, scales: HeapScales, i: number | undefined): void {
  const rect = select(groups.hover);
  if (i === undefined) {
    rect.attr('visibility', 'hidden');
    return;
  }
  const r = rectOf(data, i, scales.x, scales.y[data.lane[i]!]!);
  rect
    .attr('visibility', 'visible')
    .attr('x', layout.plot.left + r.x - 1)
    .attr('y', layout.plot.top + r.y - 1)
    .attr('width', r.w + 2)
    .attr('height', r.h + 2);
}
