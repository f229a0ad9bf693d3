// The selection a new plan of the same model keeps: a node or a step means the
// same thing in any plan, a buffer is a plan's id, so it is looked up by the
// tensor (or scratch buffer) it belongs to. Depends only on the state types.

import type { ModelPlan } from '../planner/plan';
import type { Selection } from './state';
import type { PlanResult } from '../worker/protocol';

/** The selection to show with a new plan, and the buffer dropped because the new plan has none of that name. */
export interface KeptSelection {
  readonly selection: Selection | undefined;
  readonly lost: string | undefined; // the name of the buffer that was selected and is not in the new plan
}

const plannedOf = (result: PlanResult | undefined): ModelPlan | undefined => (result?.status === 'planned' ? result.plan : undefined);

/** A scratch buffer is never the tensor of the same name (as the diff matches them). */
const sameBuffer = (x: ModelPlan['buffers'][number], y: ModelPlan['buffers'][number]) => x.name === y.name && (x.kind === 'scratch') === (y.kind === 'scratch');

/**
 * `selection` carried from the plan `before` to the plan `after`: a buffer
 * becomes the new plan's buffer of the same tensor (its id may differ), and
 * is dropped, named in `lost`, when the new plan has no such buffer. With
 * nothing selected, the buffer an earlier plan dropped (`lostBefore`) stays
 * named until a plan has a buffer of that name again, which is then selected.
 */
export function keptSelection(selection: Selection | undefined, before: PlanResult | undefined, after: PlanResult | undefined, lostBefore?: string): KeptSelection {
  if (selection === undefined && lostBefore !== undefined) return foundAgain(lostBefore, after);
  if (selection?.kind !== 'buffer') return { selection, lost: undefined };
  const old = plannedOf(before)?.buffers.find((b) => b.id === selection.buffer);
  if (old === undefined) return { selection: undefined, lost: undefined }; // no buffer of the shown plan: nothing to name
  const found = plannedOf(after)?.buffers.find((b) => sameBuffer(b, old));
  return found === undefined ? { selection: undefined, lost: old.name } : { selection: { kind: 'buffer', buffer: found.id }, lost: undefined };
}

/** The buffer named `name` selected again when `after` has one of that name; two (a tensor and a scratch buffer) leave it unsaid which was meant, so the note stays. */
function foundAgain(name: string, after: PlanResult | undefined): KeptSelection {
  const named = plannedOf(after)?.buffers.filter((b) => b.name === name) ?? [];
  return named.length === 1 ? { selection: { kind: 'buffer', buffer: named[0]!.id }, lost: undefined } : { selection: undefined, lost: name };
}
