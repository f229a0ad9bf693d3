// The memory map in the side bar: a bar per region of the plan on screen, its
// peak against its size limit, split into graph I/O, KV cache, activations and scratch
// live at the region's fullest step and the rest of the peak, with the weights
// the target keeps at the region's base; what spilled to the region from a
// faster one; and where the weights and the graph's inputs and outputs are.

import { formatBytes } from '../../shared/format';
import { useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import { kvCacheNames } from '../kv-cache-names';
import { Panel } from './panel';
import { ruleScratchTexts } from '../../planner/explain/scratch-region-words';
import { barLowerEstimate, barMovedText, barPartsText, barScale, barSpeedText, barSpilledText, barUsedText, ioText, MAP_PARTS, memoryMapData, shownParts, weightsText, type MapBar, type MemoryMap } from './memory-map-data';
import '../heap/heap.css';
import './memory-map.css';

/** The memory map of the plan on screen; nothing without a plan. */
export function MemoryMapPanel() {
  const plan = useAppStore(selectPlan);
  const model = useAppStore((s) => s.model?.inferred);
  if (plan === undefined) return null;
  const map = memoryMapData(plan, kvCacheNames(model));
  const byRule = new Map(ruleScratchTexts(plan).map((t) => [t.region, t.text]));
  return (
    <Panel title="Memory map" testId="memory-map">
      <ul className="memory-map">
        {map.bars.map((bar) => (
          <RegionBar key={bar.name} bar={bar} map={map} byRule={byRule.get(bar.name)} />
        ))}
      </ul>
      <p className="memory-map-weights muted" data-testid="memory-map-weights" data-bytes={map.weights.bytes} data-in={map.weights.in}>
        {weightsText(map)}
      </p>
      <p className="memory-map-weights muted" data-testid="memory-map-io" data-owner={map.io.owner}>
        {ioText(map)}
      </p>
    </Panel>
  );
}

function RegionBar({ bar, map, byRule }: { readonly bar: MapBar; readonly map: MemoryMap; readonly byRule: string | undefined }) {
  const scale = barScale(bar);
  const pct = (bytes: number) => `${((bytes / scale) * 100).toFixed(2)}%`;
  const over = bar.overBy > 0;
  const spilled = barSpilledText(bar);
  const moved = barMovedText(bar);
  const title = shownParts(map).map((p) => `${p.label} ${formatBytes(bar[p.key])}`).join(', ');
  return (
    <li
      className="memory-map-region"
      data-testid="memory-map-region"
      data-region={bar.name}
      data-peak={bar.peak}
      data-weights={bar.weights}
      data-used={bar.used}
      data-limit={bar.sizeLimit ?? ''}
      data-over-by={bar.overBy}
      data-spilled={bar.spilled ?? ''}
      data-io={bar.io}
      data-kv={bar.kv}
      data-tail={bar.tail}
      data-activations={bar.activations}
      data-scratch={bar.scratch}
      data-moved={bar.moved === undefined ? '' : bar.moved.written + bar.moved.read}
    >
      <div className="memory-map-label">
        <span className="memory-map-name">
          {bar.name}
          {barSpeedText(bar, map) !== '' && <span className="muted"> {barSpeedText(bar, map)}</span>}
        </span>
        <span className={over ? 'memory-map-used memory-map-over' : 'memory-map-used'}>{barUsedText(bar)}</span>
      </div>
      <div className="memory-map-bar" role="img" aria-label={`${bar.name}: ${barLowerEstimate(bar) ? 'at least ' : ''}${formatBytes(bar.used)} used${bar.sizeLimit === undefined ? '' : ` of ${formatBytes(bar.sizeLimit)}`}; ${title}`} title={`at step ${bar.step ?? '—'}: ${title}`}>
        {MAP_PARTS.map((p) => (bar[p.key] > 0 ? <span key={p.key} className={`memory-map-part memory-map-${p.key === 'weights' ? 'weights-part' : p.key}`} style={{ width: pct(bar[p.key]) }} /> : null))}
        {bar.sizeLimit !== undefined && <span className="memory-map-limit" style={{ left: pct(bar.sizeLimit) }} title={`limit ${formatBytes(bar.sizeLimit)}`} />}
      </div>
      <div className="memory-map-legend muted">
        {barPartsText(bar)}
        {spilled !== undefined && (
          <span className="memory-map-spilled" data-testid="memory-map-spilled">
            {' '}
            · <span className="spill-mark" aria-hidden="true" /> {spilled}
          </span>
        )}
        {moved !== undefined && <span data-testid="memory-map-moved"> · {moved}</span>}
        {byRule !== undefined && <span data-testid="memory-map-rule-scratch"> · {byRule}</span>}
      </div>
    </li>
  );
}
