// Whether heapscope writes its plan into a .tflite: not for a model TensorFlow
// Lite Micro refuses (AllocateTensors() fails with any arena). The command
// line's --save-tflite and the page's Export → Planned .tflite ask this one
// check. Depends only on the runtime plan's type.

import type { RuntimePlan } from './runtime-plan';

/**
 * Why no planned .tflite is written for this runtime plan, as the rest of a
 * sentence whose subject is the export ("--save-tflite writes nothing for a
 * model TensorFlow Lite Micro refuses (no tensor arena works): …"), on one
 * line; undefined when TFLM accepts the model and the file is written.
 */
export function plannedTfliteRefusal(runtime: Pick<RuntimePlan, 'refused'>): string | undefined {
  const refused = runtime.refused ?? [];
  if (refused.length === 0) return undefined;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more reason(s))` : '';
  return `writes nothing for a model TensorFlow Lite Micro refuses (no tensor arena works): ${refused[0]}${more}`;
}
