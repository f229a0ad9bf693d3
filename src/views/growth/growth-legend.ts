// What the growth chart's legend lists, from what the chart draws: the size
// limit only where a limit is drawn, and the value on screen as what its rule
// marks: the plan on screen's peak (its diamond) when that plan is on the
// curve, else only its value (a decode step's curve, planned with another
// sequence length than the page's). Shared by the pane's legend and the export.

import { MAX_EXACT_POWER } from '../../shared/format';
import type { GrowthChartInput } from './growth-geometry';

/** One entry of the legend. */
export interface GrowthLegendItem {
  readonly key: 'peak' | 'bound' | 'limit' | 'current' | 'estimate';
  readonly label: string;
  readonly title?: string; // the longer wording, on hover
}

/** The legend of the chart of `input`; `limited`: a size limit is drawn. */
export function growthLegendItems(input: GrowthChartInput, limited: boolean): readonly GrowthLegendItem[] {
  const current = input.current;
  return [
    { key: 'peak', label: 'peak' },
    { key: 'bound', label: 'lower bound' },
    ...(limited ? [{ key: 'limit', label: 'size limit' } as const] : []),
    ...(current === undefined ? [] : [currentItem(current.regions.length > 0)]),
    { key: 'estimate', label: 'lower estimate', title: `some tensor's size is unknown at that value, or too large (past ${MAX_EXACT_POWER} bytes, planned as 0 bytes): the peak is a lower estimate` },
  ];
}

function currentItem(peakDrawn: boolean): GrowthLegendItem {
  if (peakDrawn) return { key: 'current', label: 'on screen', title: 'the plan on screen: its value, and its peak as a diamond' };
  return {
    key: 'current',
    label: 'value on screen (its plan is not on the curve)',
    title: 'the value on screen only: the plan on screen binds another value of a dim the curve holds fixed, so its peak is not on the curve',
  };
}
