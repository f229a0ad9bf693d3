// The buffers live at one step of one region, every one of them, each with the
// bytes it adds to the step's live total ("shares X's bytes" for in-place,
// view and Concat buffers), and the total they add up to: a lower estimate
// ("≥") when some tensor's size is unknown, as every other figure of the plan.
// A variable-size scratch buffer (M4) given more than its rule asks says so,
// and the total says how much of it is free space such buffers took: the
// waste split counts those bytes with the holes.

import type { LiveBuffer, ModelPlan } from '../../planner/plan';
import { heldBytes } from '../../planner/assembly/plan-records';
import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import type { Selection } from '../../store/state';
import { shortName, titleText } from '../../shared/short-name';

/** Props of LiveList. */
export interface LiveListProps {
  readonly plan: ModelPlan;
  readonly live: readonly LiveBuffer[]; // largest first, as liveAtStep lists them
  readonly label: string; // the list's accessible name
  readonly rowTestId: string;
  readonly complete: boolean; // false when some tensor's size is unknown (counted as 0 bytes): the total is a lower estimate
  readonly onSelect: (selection: Selection) => void;
}

/** The fusion unit of each node (the graph groups its nodes under the unit's name). */
function unitsByNode(plan: ModelPlan): ReadonlyMap<string, ModelPlan['fusionUnits'][number]> {
  const units = new Map<string, ModelPlan['fusionUnits'][number]>();
  for (const unit of plan.fusionUnits) for (const node of unit.nodes) units.set(node, unit);
  return units;
}

/** Why a total reads "≥". */
export const UNKNOWN_COUNTED = 'a lower estimate: tensors of unknown size are counted as 0 bytes';

/** Bytes a listed buffer adds; a plan saved before `counted` existed counts every buffer whole. */
export function countedBytes(b: LiveBuffer): number {
  return b.counted ?? b.size;
}

/** Bytes a variable-size scratch buffer was given beyond what its rule asks: free space it took (0 for any other buffer). */
function freeTaken(plan: ModelPlan, b: LiveBuffer): number {
  const record = plan.buffers[b.id];
  return record?.id === b.id ? record.size - heldBytes(record) : 0;
}

/** The live buffers and their total. */
export function LiveList({ plan, live, label, rowTestId, complete, onSelect }: LiveListProps) {
  const units = unitsByNode(plan);
  const nodeOp = new Map(plan.steps.map((s) => [s.node, s.opType]));
  const names = new Map(live.map((b) => [b.id, b.name]));
  const total = live.reduce((sum, b) => sum + countedBytes(b), 0);
  const given = live.map((b) => freeTaken(plan, b));
  const taken = live.reduce((sum, b, k) => sum + Math.min(countedBytes(b), given[k]!), 0);
  return (
    <>
      <ol className="live-table live-table-all" aria-label={label}>
        {live.map((b, k) => (
          <li key={b.id} data-testid={rowTestId} data-bytes={b.size} data-counted={countedBytes(b)}>
            <button type="button" className="link-button mono live-name" onClick={() => onSelect({ kind: 'buffer', buffer: b.id })} title={titleText(b.name)}>
              {shortName(b.name)}
            </button>
            <span className="live-bytes" title={`${countedBytes(b).toLocaleString('en-US')} of its ${b.size.toLocaleString('en-US')} bytes counted here`}>
              {formatBytes(countedBytes(b))}
            </span>
            <span className="live-origin muted">
              {b.node === undefined ? (
                b.kind
              ) : (
                <button type="button" className="link-button" onClick={() => onSelect({ kind: 'node', node: b.node! })} title={`select ${titleText(b.node)} in the graph`}>
                  {shortName(nodeOp.get(b.node) ?? b.kind)}
                </button>
              )}
              {b.node !== undefined && units.has(b.node) && <UnitTag unit={units.get(b.node)!} onSelect={onSelect} />}
            </span>
            {given[k]! > 0 && (
              <span className="live-shares muted" data-testid="live-variable">
                variable size: asks {formatBytes(b.size - given[k]!)}, given {formatBytes(given[k]!)} more of the free space
              </span>
            )}
            {b.sharesWith !== undefined && (
              <span className="live-shares muted" data-testid="live-shares">
                shares {shortName(names.get(b.sharesWith) ?? `buffer ${b.sharesWith}`)}'s bytes
                {countedBytes(b) > 0 && ` (adds ${formatBytes(countedBytes(b))} of ${formatBytes(b.size)})`}
              </span>
            )}
          </li>
        ))}
      </ol>
      <p className="live-total" data-testid="live-total" data-bytes={total} data-complete={complete} title={complete ? undefined : UNKNOWN_COUNTED}>
        {live.length === 1 ? '1 buffer' : `${live.length} buffers`} live, <strong>{peakText(total, complete)}</strong> in all
        {taken > 0 && `, ${formatBytes(taken)} of it free space variable-size scratch took`}
      </p>
    </>
  );
}

/** A fusion unit's name; selects the unit's first op, which the graph shows inside its group. */
function UnitTag({ unit, onSelect }: { readonly unit: ModelPlan['fusionUnits'][number]; readonly onSelect: (selection: Selection) => void }) {
  return (
    <button
      type="button"
      className="link-button tag tag-unit"
      onClick={() => onSelect({ kind: 'node', node: unit.nodes[0]! })}
      title={titleText(`${unit.kind} fusion unit ${unit.name}: ${unit.nodes.map((n) => shortName(n)).join(', ')}`)}
      data-testid="peak-unit"
    >
      {shortName(unit.name)}
    </button>
  );
}
