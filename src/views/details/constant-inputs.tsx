// The weights and constants a selected node reads: initializers, and values
// computed from constants alone (Constant, ConstantOfShape, shape arithmetic),
// which the graph folds into the node instead of drawing them as boxes; not
// those the plan runs at each inference (TensorFlow Lite Micro's DEQUANTIZE of
// a weight), which are activations. Each with its shape, bytes and, for a
// computed one, the op that makes it.

import type { InferredModel, InferredValue } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes, formatShape } from '../../shared/format';
import { plannedConstants, plannedKind } from '../../store/planned-constants';
import { modelLookup } from '../heap/heap-data';
import { shortName, titleText } from '../../shared/short-name';

/** At most this many are listed; the rest are counted. */
const LISTED = 12;

/** The weights and constants node `index` of `model` reads under `plan`, or nothing when it reads none. */
export function ConstantInputs({ model, plan, index }: { readonly model: InferredModel; readonly plan: ModelPlan | undefined; readonly index: number }) {
  const { values } = modelLookup(model);
  const planned = plannedConstants(model, plan);
  const inputs = [...new Set(model.nodes[index]!.inputs.filter(Boolean))]
    .map((name) => values.get(name))
    .filter((v): v is InferredValue => v !== undefined && (plannedKind(v, planned) === 'initializer' || plannedKind(v, planned) === 'constant'));
  if (inputs.length === 0) return null;
  const bytes = inputs.reduce((sum, v) => sum + (v.bytes ?? 0), 0);
  return (
    <div data-testid="node-constants">
      <p className="muted">
        {inputs.length} weight{inputs.length === 1 ? '' : 's'} and constants · {formatBytes(bytes)}
      </p>
      <ul className="live-list">
        {inputs.slice(0, LISTED).map((v) => (
          <li key={v.name} data-constant={v.name}>
            <span className="mono truncate" title={titleText(v.name)}>
              {shortName(v.name)}
            </span>
            <span className="muted live-figures">
              {formatShape(v.shape)} · <span className="figure">{formatBytes(v.bytes)}</span>
              {v.kind === 'constant' && v.producer !== undefined ? ` · from ${model.nodes[v.producer]!.opType}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {inputs.length > LISTED && <p className="muted">… {inputs.length - LISTED} more</p>}
    </div>
  );
}
