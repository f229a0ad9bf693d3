// The shown .tflite model with heapscope's plan written in as TensorFlow Lite
// Micro's offline plan, for the export panel. The worker builds the file: it
// holds the bytes it decoded, so the page never keeps a copy of the weights. A
// worker restarted since (it holds no model) gets the shown model again first.

import { plannedTfliteRefusal } from '../planner/tflm/planned-tflite-refusal';
import type { ModelClient } from '../worker/client';
import { NO_MODEL_CODE } from '../worker/protocol';
import type { AppState } from './state';

/** Why the plan on screen cannot be written into its file now, in a sentence; undefined when it can. */
export function plannedTfliteBlocker(state: Pick<AppState, 'model' | 'task'>): string | undefined {
  const shown = state.model?.plan;
  if (shown?.status !== 'planned') return 'there is no plan on screen';
  if (shown.plan.runtimePlan === undefined) {
    return 'only a .tflite model planned for TensorFlow Lite Micro (target tflm) has a plan to write into its file';
  }
  if (state.task !== undefined) return 'the plan on screen is being replaced; try again once it is shown';
  // a file TFLM cannot load is not written, as the command line's --save-tflite refuses it
  const refusal = plannedTfliteRefusal(shown.plan.runtimePlan);
  return refusal === undefined ? undefined : `the export ${refusal}`;
}

/** What building the file needs from the store. */
export interface PlannedTfliteDeps {
  readonly get: () => AppState;
  readonly client: ModelClient;
  readonly reopen: () => Promise<boolean>; // opens the shown model in the worker again; true once it is back
}

/**
 * The bytes of the shown model with its plan's offline offsets written in
 * (runtimePlan.planned.offsets). Throws an Error with a sentence when there is
 * no such plan on screen, or when the worker fails; a worker that holds no
 * model (or another) gets the shown one again, once, and is asked again.
 */
export async function plannedTfliteFile({ get, client, reopen }: PlannedTfliteDeps): Promise<ArrayBuffer> {
  for (let attempt = 0; ; attempt += 1) {
    const state = get();
    const blocker = plannedTfliteBlocker(state);
    if (blocker !== undefined) throw new Error(blocker);
    const model = state.model!;
    const plan = model.plan.status === 'planned' ? model.plan.plan : undefined;
    const outcome = await client.plannedTflite({ name: model.name, size: model.size, offsets: plan!.runtimePlan!.planned.offsets });
    if (outcome.status === 'done') return outcome.result;
    if (outcome.status === 'cancelled') throw new Error('a newer model replaced the one on screen');
    if (outcome.error.code !== NO_MODEL_CODE || attempt > 0) throw new Error(outcome.error.message);
    if (!(await reopen())) throw new Error(`${model.name} could not be opened again to write its plan in`);
  }
}
