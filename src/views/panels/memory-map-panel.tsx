// The memory map in the side bar: a bar per region of the plan on screen, its
// peak against its size limit, split into graph I/O, activations and scratch
// live at the region's fullest step and the rest of the peak, with the weights
// the target keeps at the region's base; what spilled to the region from a
// faster one; and where the weights and the graph's inputs and outputs are.

import { formatBytes } from '../../shared/format';
import { useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import { Panel } from './panel';
import { memoryMapData, type MapBar, type MemoryMap } from './memory-map-data';
import '../heap/heap.css';
import './memory-map.css';

/** The memory map of the plan on screen; nothing without a plan. */
export function MemoryMapPanel() {
  const plan = useAppStore(selectPlan);
  if (plan === undefined) return null;
  const map = memoryMapData(plan);
  return (
    <Panel title="Memory map" testId="memory-map">
      <ul className="memory-map">
        {map.bars.map((bar) => (
          <RegionBar key={bar.name} bar={bar} />
        ))}
      </ul>
      <p className="memory-map-weights muted" data-testid="memory-map-weights" data-bytes={map.weights.bytes} data-in={map.weights.in}>
        weights {formatBytes(map.weights.bytes)} in {map.weights.tensors.toLocaleString('en-US')} tensors, {weightsWhere(map)}
      </p>
      <p className="memory-map-weights muted" data-testid="memory-map-io" data-owner={map.io.owner}>
        graph I/O {formatBytes(map.io.bytes)}, {map.io.owner === 'application' ? "the application's own buffers, outside the arena" : 'planned in the arena'}
      </p>
    </Panel>
  );
}

/** "in flash (not in a region)", "in sram, copied from flash at start". */
function weightsWhere(map: MemoryMap): string {
  if (map.weights.in === 'flash') return 'in flash (not in a region)';
  return `in ${map.weights.in} below its arena${map.weights.copied ? ', copied from flash at start' : ''}`;
}

const PARTS = [
  { key: 'weights', label: 'weights' },
  { key: 'io', label: 'I/O' },
  { key: 'activations', label: 'activations' },
  { key: 'scratch', label: 'scratch' },
  { key: 'rest', label: 'holes and padding' },
] as const;

function RegionBar({ bar }: { readonly bar: MapBar }) {
  // The bar's scale: the limit, or the peak when it is higher or there is none.
  const scale = Math.max(bar.used, bar.sizeLimit ?? 0, 1);
  const pct = (bytes: number) => `${((bytes / scale) * 100).toFixed(2)}%`;
  const over = bar.overBy > 0;
  const title = PARTS.map((p) => `${p.label} ${formatBytes(bar[p.key])}`).join(', ');
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
      data-activations={bar.activations}
      data-scratch={bar.scratch}
    >
      <div className="memory-map-label">
        <span className="memory-map-name">
          {bar.name}
          <span className="muted"> {bar.fast ? 'fast' : 'slow'}</span>
        </span>
        <span className={over ? 'memory-map-used memory-map-over' : 'memory-map-used'}>
          {formatBytes(bar.used)}
          {bar.sizeLimit !== undefined && ` / ${formatBytes(bar.sizeLimit)}`}
          {over && ` · ${formatBytes(bar.overBy)} over`}
        </span>
      </div>
      <div className="memory-map-bar" role="img" aria-label={`${bar.name}: ${formatBytes(bar.used)} used${bar.sizeLimit === undefined ? '' : ` of ${formatBytes(bar.sizeLimit)}`}; ${title}`} title={`at step ${bar.step ?? '—'}: ${title}`}>
        {PARTS.map((p) => (bar[p.key] > 0 ? <span key={p.key} className={`memory-map-part memory-map-${p.key === 'weights' ? 'weights-part' : p.key}`} style={{ width: pct(bar[p.key]) }} /> : null))}
        {bar.sizeLimit !== undefined && <span className="memory-map-limit" style={{ left: pct(bar.sizeLimit) }} title={`limit ${formatBytes(bar.sizeLimit)}`} />}
      </div>
      <div className="memory-map-legend muted">
        {bar.weights > 0 && `weights ${formatBytes(bar.weights)} · `}
        I/O {formatBytes(bar.io)} · activations {formatBytes(bar.activations)}
        {bar.scratch > 0 && ` · scratch ${formatBytes(bar.scratch)}`}
        {bar.spilled !== undefined && bar.spilled > 0 && (
          <span className="memory-map-spilled" data-testid="memory-map-spilled">
            {' '}
            · <span className="spill-mark" aria-hidden="true" /> {bar.spilledBuffers.toLocaleString('en-US')} buffers ({formatBytes(bar.spilled)}) spilled here
          </span>
        )}
      </div>
    </li>
  );
}
