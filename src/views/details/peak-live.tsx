// The peak step of the plan and the buffers live there, ranked by size: each
// links to its buffer, its producing op and the fusion unit it belongs to.

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import type { Selection } from '../../store/state';

/** Props of PeakLive. */
export interface PeakLiveProps {
  readonly plan: ModelPlan;
  readonly onSelect: (selection: Selection) => void;
}

/** How many live buffers are listed before "and N smaller". */
const LISTED = 10;

/** The fusion unit of each node (the graph groups its nodes under the unit's name). */
function unitsByNode(plan: ModelPlan): ReadonlyMap<string, ModelPlan['fusionUnits'][number]> {
  const units = new Map<string, ModelPlan['fusionUnits'][number]>();
  for (const unit of plan.fusionUnits) for (const node of unit.nodes) units.set(node, unit);
  return units;
}

/** The peak step and its live buffers. */
export function PeakLive({ plan, onSelect }: PeakLiveProps) {
  const step = plan.peakStep;
  if (step === undefined) return null;
  const info = plan.steps[step];
  const ranked = [...plan.liveAtPeak].sort((a, b) => b.size - a.size || a.id - b.id);
  const units = unitsByNode(plan);
  const nodeOp = new Map(plan.steps.map((s) => [s.node, s.opType]));
  return (
    <section className="explain-block" aria-label="Peak step" data-testid="peak-live" data-step={step} data-region={plan.peakRegion}>
      <h4 className="explain-heading">At the peak</h4>
      <p className="explanation-line">
        The {plan.peakRegion} peak is reached at{' '}
        <button type="button" className="link-button" onClick={() => onSelect({ kind: 'step', step })} data-testid="peak-step">
          step {step}
        </button>{' '}
        ({info?.opType}{' '}
        {info?.node !== undefined && (
          <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'node', node: info.node })}>
            {info.node}
          </button>
        )}
        ); {ranked.length === 1 ? '1 buffer is live there:' : `${ranked.length} buffers live there, largest first:`}
      </p>
      <ol className="live-table" aria-label="Buffers live at the peak, largest first">
        {ranked.slice(0, LISTED).map((b) => (
          <li key={b.id} data-testid="peak-buffer" data-bytes={b.size}>
            <button type="button" className="link-button mono truncate" onClick={() => onSelect({ kind: 'buffer', buffer: b.id })} title={b.name}>
              {b.name}
            </button>
            <span className="live-bytes">{formatBytes(b.size)}</span>
            <span className="live-origin muted">
              {b.node === undefined ? (
                b.kind
              ) : (
                <button type="button" className="link-button" onClick={() => onSelect({ kind: 'node', node: b.node! })} title={`select ${b.node} in the graph`}>
                  {nodeOp.get(b.node) ?? b.kind}
                </button>
              )}
              {b.node !== undefined && units.has(b.node) && <UnitTag unit={units.get(b.node)!} onSelect={onSelect} />}
            </span>
          </li>
        ))}
      </ol>
      {ranked.length > LISTED && <p className="muted">and {ranked.length - LISTED} smaller</p>}
    </section>
  );
}

/** A fusion unit's name; selects the unit's first op, which the graph shows inside its group. */
function UnitTag({ unit, onSelect }: { readonly unit: ModelPlan['fusionUnits'][number]; readonly onSelect: (selection: Selection) => void }) {
  return (
    <button
      type="button"
      className="link-button tag tag-unit"
      onClick={() => onSelect({ kind: 'node', node: unit.nodes[0]! })}
      title={`${unit.kind} fusion unit ${unit.name}: ${unit.nodes.join(', ')}`}
      data-testid="peak-unit"
    >
      {unit.name}
    </button>
  );
}
