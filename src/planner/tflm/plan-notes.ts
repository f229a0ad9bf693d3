// What a plan for TensorFlow Lite Micro says about the file it plans: dims the
// runtime cannot apply (it plans the shapes the file states), and a file whose
// own offline plan the runtime uses instead of heapscope's. Depends only on
// the planner's records.

import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { PlanAssumptions } from '../assembly/assumptions';
import type { PlanDiagnostic } from '../problem/build-buffers';
import type { RuntimePlan } from './runtime-plan';

/** The diagnostic code of dims given for a plan of the file's own shapes, which TFLM cannot resize. */
export const TFLM_FIXED_SHAPES = 'tflm-fixed-shapes';
/** The diagnostic code of a file that carries its own offline plan, which TFLM uses instead of the plan shown. */
export const TFLM_FILE_PLAN = 'tflm-file-plan';
/** The diagnostic code of a file whose own offline plan TFLM uses and heapscope's plan would not better: the same layout, or one no smaller. */
export const TFLM_FILE_PLAN_KEPT = 'tflm-file-plan-kept';

/** Dims the user gave that a plan of the file's own shapes (runtime tflm) does not apply. */
export function unappliedDims(dims: PlanAssumptions['dims']): PlanDiagnostic[] {
  const given = dims.filter((d) => d.bound);
  if (given.length === 0) return [];
  const names = given.map((d) => `${shortName(d.name)}=${d.value}`).join(', ');
  return [{
    code: TFLM_FIXED_SHAPES,
    message: `TensorFlow Lite Micro cannot resize tensors: it plans the shapes the file states, so ${names} ${given.length === 1 ? 'is' : 'are'} not applied to this plan (the graph and tensors show the file's shapes too; plan on another target to see ${given.length === 1 ? 'its' : 'their'} effect)`,
  }];
}

/**
 * The note of a runtime plan whose file carries its own offline plan; none
 * without one. TFLM uses the file's plan either way; the note asks for
 * heapscope's plan to be written in only when that would change the layout
 * for the better (or the file's plan shares bytes between live tensors).
 */
export function filePlanNotes(runtimePlan: RuntimePlan): PlanDiagnostic[] {
  const file = runtimePlan.filePlan;
  if (file === undefined) return [];
  const planned = runtimePlan.planned;
  const uses = `the file carries its own offline plan and TensorFlow Lite Micro uses it (head ${formatBytes(file.head)}${file.valid ? '' : ', not checked valid'})`;
  const trusted = file.valid || file.insideCustomOp !== undefined;
  if (trusted && file.sameAsPlanned === true) {
    const shown = planned.source === 'the plan' ? 'it is the plan shown here' : "it is the plan heapscope writes into the file (the heap draws heapscope's own placement, which TensorFlow Lite Micro would lay out larger)";
    return [{ code: TFLM_FILE_PLAN_KEPT, message: `${uses}: ${shown}, so writing heapscope's plan in changes nothing` }];
  }
  if (trusted && file.head <= planned.head) {
    return [{ code: TFLM_FILE_PLAN_KEPT, message: `${uses}: it lays out as small as heapscope's plan written in (head ${formatBytes(planned.head)}), so writing heapscope's plan in gains nothing` }];
  }
  return [{
    code: TFLM_FILE_PLAN,
    message: `${uses}, not the plan shown here (head ${formatBytes(planned.head)} written in), until heapscope's plan is written into the file (Export → Planned .tflite on the page, --save-tflite on the command line)`,
  }];
}
