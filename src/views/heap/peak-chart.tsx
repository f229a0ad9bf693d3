// The peak chart in the page: small multiples of live bytes over steps per
// kind and per region (peak-chart-svg.ts), sized to its box. Shown beside the
// heap diagram, alone in an embed with panes=chart, and in the heap export.
// A region that holds nothing has no block, and a line says so
// (empty-regions.ts); with nothing anywhere that line takes the chart's place.
// Beside a diagram of one region (the region switcher), a line names the
// regions left out and how to see them: a region is never left out unsaid.

import { useMemo } from 'react';
import type { ModelPlan } from '../../planner/plan';
import type { InferredGraph } from '../../model/inferred';
import { kvCacheNames } from '../kv-cache-names';
import { useElementSize } from '../use-element-size';
import { peakChartData, type PeakChartData } from './peak-chart-data';
import { chartKeyLines, peakChartSvg, type ChartKeyLine } from './peak-chart-svg';
import { emptyRegionsText } from './empty-regions';
import './heap.css'; // .empty-regions-line
import './peak-chart.css';

const cache = new WeakMap<ModelPlan, PeakChartData>();

/** The chart's data of `plan` over `model` (whose KV cache is a kind of its own), built once per plan. */
export function cachedPeakChartData(plan: ModelPlan, model: InferredGraph | undefined): PeakChartData {
  let data = cache.get(plan);
  if (data === undefined) {
    data = peakChartData(plan, kvCacheNames(model));
    cache.set(plan, data);
  }
  return data;
}

/** Props of PeakChart. */
export interface PeakChartProps {
  readonly plan: ModelPlan;
  readonly model: InferredGraph | undefined; // the plan's model, whose KV cache the chart tells apart
  readonly className?: string;
  readonly notShown?: string; // the regions holding buffers left out beside a diagram of one region, and how to see them
}

/** Live bytes over steps per kind and region, filling its box. */
export function PeakChart({ plan, model, className, notShown }: PeakChartProps) {
  const [host, size] = useElementSize<HTMLDivElement>();
  const data = cachedPeakChartData(plan, model);
  const markup = useMemo(() => (size === undefined ? '' : peakChartSvg(data, { width: size.width, height: size.height })), [data, size]);
  // the key names only the lines a drawn row draws: a block too short for its total row draws no largest free block
  const lines = useMemo((): readonly ChartKeyLine[] => (size === undefined ? ['bound', 'free'] : chartKeyLines(data, size)), [data, size]);
  const empty = useMemo(() => emptyRegionsText(plan, data.regions.map((r) => r.name), 'chart'), [plan, data]);
  return (
    <figure className={`peak-chart ${className ?? ''}`} data-testid="peak-chart" data-regions={data.regions.length} data-kinds={data.kinds.join(',')}>
      <figcaption className="peak-chart-caption">Live bytes per kind</figcaption>
      {data.regions.length === 0 ? (
        <p className="pane-empty peak-chart-nothing" data-testid="peak-chart-empty-regions">
          {empty}
        </p>
      ) : (
        <>
          <ChartKey lines={lines} />
          {/* The markup is built from numbers and escaped names (peak-chart-svg.ts). */}
          <div ref={host} className="peak-chart-plot" dangerouslySetInnerHTML={{ __html: markup }} />
          {empty !== undefined && (
            <p className="empty-regions-line peak-chart-empty-regions" data-testid="peak-chart-empty-regions">
              {empty}
            </p>
          )}
          {notShown !== undefined && (
            <p className="empty-regions-line peak-chart-empty-regions" data-testid="peak-chart-not-shown">
              {notShown}
            </p>
          )}
        </>
      )}
    </figure>
  );
}

/** The key of the chart's lines: only those a drawn row draws. */
function ChartKey({ lines }: { readonly lines: readonly ChartKeyLine[] }) {
  return (
    <p className="peak-chart-key" data-testid="peak-chart-key">
      {lines.includes('bound') && (
        <span data-key="bound" title="lower bound: no plan of the region can be smaller">
          <i className="pc-key-line pc-key-bound" aria-hidden="true" />
          <span>
            <span className="pc-key-more">lower </span>bound
          </span>
        </span>
      )}
      {lines.includes('free') && (
        <span data-key="free" title="largest free block at each step: the biggest hole a buffer could still take">
          <i className="pc-key-line pc-key-free" aria-hidden="true" />
          <span>
            <span className="pc-key-more">largest </span>free block
          </span>
        </span>
      )}
    </p>
  );
}
