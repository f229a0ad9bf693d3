// A over B: the heap diagrams of both plans on one address scale, so a region
// that grew is visibly taller; the focused buffers are emphasized in both. A
// decoder's KV cache is coloured as in the page's heap, under one legend.

import { useCallback, useMemo, useState } from 'react';
import type { PlanFile } from '../../planner/assembly/plan-file';
import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import { bufferFacts, heapData, type HeapData } from '../heap/heap-data';
import { HeapView } from '../heap/heap-view';
import { HeapLegend } from '../heap/heap-legend';
import { planKvCacheNames } from '../kv-cache-names';
import '../heap/heap.css';
import { highlightOf, sharedScale } from './compare-scale';

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
  return (
    <div className="compare-heaps">
      <SideHeap side="a" data={dataA} focus={focusA} onPickBuffer={onPickBuffer} />
      {dataB && <SideHeap side="b" data={dataB} focus={focusB} onPickBuffer={onPickBuffer} />}
      <HeapLegend data={dataB === undefined ? [dataA] : [dataA, dataB]} />
    </div>
  );
}

interface SideHeapProps {
  readonly side: 'a' | 'b';
  readonly data: HeapData;
  readonly focus: readonly string[] | undefined;
  readonly onPickBuffer: (side: 'a' | 'b', name: string) => void;
}

function SideHeap({ side, data, focus, onPickBuffer }: SideHeapProps) {
  const [step, setStep] = useState<number | undefined>(undefined);
  const highlight = useMemo(() => highlightOf(data, focus), [data, focus]);
  const describe = useCallback((i: number) => bufferFacts(data, undefined, undefined, i), [data]);
  const onSelectBuffer = useCallback(
    (i: number | undefined) => {
      if (i !== undefined) onPickBuffer(side, data.plan.buffers[i]!.name);
    },
    [data, side, onPickBuffer],
  );
  return (
    <section className="compare-heap" aria-label={`Heap of ${side.toUpperCase()}`} data-testid={`compare-heap-${side}`} data-peak={data.plan.peak}>
      <h3 className="compare-heap-title">
        <span className={`compare-side compare-side-${side}`}>{side.toUpperCase()}</span> peak <strong>{peakText(data.plan.peak, data.plan.complete)}</strong> · lower bound{' '}
        {formatBytes(data.plan.lowerBound)} · {data.plan.strategy} on {data.plan.target}
      </h3>
      <HeapView data={data} highlight={highlight} step={step} describe={describe} onSelectBuffer={onSelectBuffer} onSelectStep={setStep} />
    </section>
  );
}
