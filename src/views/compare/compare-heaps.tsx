// A over B: the heap diagrams of both plans on one address scale, so a region
// that grew is visibly taller; the focused buffers are emphasized in both. A
// decoder's KV cache is coloured as in the page's heap, under one legend. A
// side too short for every region's lane to be read shows one region at a
// time, with the page heap's switcher, on the same scale.

import { useCallback, useMemo, useState } from 'react';
import type { PlanFile } from '../../planner/assembly/plan-file';
import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import { PeakSumMark } from '../regions-peak-note';
import { bufferFacts, heapData, type HeapData } from '../heap/heap-data';
import { HeapView } from '../heap/heap-view';
import { HeapLegend } from '../heap/heap-legend';
import { planKvCacheNames } from '../kv-cache-names';
import '../heap/heap.css';
import { RegionSwitcher, useShownRegion } from '../heap/region-switcher';
import { useElementSize } from '../use-element-size';
import { focusedRegion, highlightOf, laneExtents, sharedScale, widenLanes } from './compare-scale';

/** Props of CompareHeaps. */
export interface CompareHeapsProps {
  readonly a: PlanFile;
  readonly b: PlanFile | undefined; // undefined: A alone
  readonly focusA: readonly string[] | undefined;
  readonly focusB: readonly string[] | undefined;
  readonly onPickBuffer: (side: 'a' | 'b', name: string) => void;
}

/** Both diagrams, stacked. */
export function CompareHeaps({ a, b, focusA, focusB, onPickBuffer }: CompareHeapsProps) {
  const [dataA, dataB] = useMemo((): [HeapData, HeapData | undefined] => {
    const da = heapData(a.plan, planKvCacheNames(a));
    if (b === undefined) return [da, undefined];
    return sharedScale(da, heapData(b.plan, planKvCacheNames(b)));
  }, [a, b]);
  const extents = useMemo(() => laneExtents(dataB === undefined ? [dataA] : [dataA, dataB]), [dataA, dataB]);
  return (
    <div className="compare-heaps">
      <SideHeap side="a" file={a} full={dataA} extents={extents} focus={focusA} onPickBuffer={onPickBuffer} />
      {b && dataB && <SideHeap side="b" file={b} full={dataB} extents={extents} focus={focusB} onPickBuffer={onPickBuffer} />}
      <HeapLegend data={dataB === undefined ? [dataA] : [dataA, dataB]} />
    </div>
  );
}

interface SideHeapProps {
  readonly side: 'a' | 'b';
  readonly file: PlanFile;
  readonly full: HeapData; // every region, on the shared scale
  readonly extents: ReadonlyMap<string, number>; // the shared scale, for a region drawn alone
  readonly focus: readonly string[] | undefined;
  readonly onPickBuffer: (side: 'a' | 'b', name: string) => void;
}

function SideHeap({ side, file, full, extents, focus, onPickBuffer }: SideHeapProps) {
  const [step, setStep] = useState<number | undefined>(undefined);
  const [box, size] = useElementSize<HTMLDivElement>();
  const prefer = useMemo(() => focusedRegion(file.plan, focus), [file, focus]);
  const shown = useShownRegion(file.plan, size?.height, { prefer });
  const data = useMemo(() => (shown.plan === file.plan || shown.plan === undefined ? full : widenLanes(heapData(shown.plan, planKvCacheNames(file)), extents)), [shown.plan, file, full, extents]);
  const highlight = useMemo(() => highlightOf(data, focus), [data, focus]);
  const describe = useCallback((i: number) => bufferFacts(data, undefined, undefined, i), [data]);
  const onSelectBuffer = useCallback(
    (i: number | undefined) => {
      if (i !== undefined) onPickBuffer(side, data.plan.buffers[i]!.name);
    },
    [data, side, onPickBuffer],
  );
  return (
    <section className="compare-heap" aria-label={`Heap of ${side.toUpperCase()}`} data-testid={`compare-heap-${side}`} data-peak={full.plan.peak}>
      <div className="compare-heap-head">
        <h3 className="compare-heap-title">
          <span className={`compare-side compare-side-${side}`}>{side.toUpperCase()}</span> <PeakSumMark plan={full.plan} complete={full.plan.complete} />
          peak <strong>{peakText(full.plan.peak, full.plan.complete)}</strong> · lower bound{' '}
          {formatBytes(full.plan.lowerBound)} · {full.plan.strategy} on {full.plan.target}
        </h3>
        <RegionSwitcher shown={shown} />
      </div>
      <div className="compare-heap-view" ref={box}>
        <HeapView data={data} highlight={highlight} step={step} describe={describe} onSelectBuffer={onSelectBuffer} onSelectStep={setStep} />
      </div>
    </section>
  );
}
