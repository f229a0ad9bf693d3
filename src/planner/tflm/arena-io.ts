// Graph I/O on TensorFlow Lite Micro: the runtime allocates a .tflite model's
// inputs and outputs in its tensor arena itself, so a target's io=application
// is not applied there. Depends only on the IR types and the planner.

import type { InferredGraph, InferredModel } from '../../model/inferred';
import type { PlanDiagnostic } from '../problem/build-buffers';
import type { TargetProfile } from '../targets/target';

/** The diagnostic code of io=application asked of a TensorFlow Lite Micro plan, which keeps graph I/O in its arena. */
export const TFLM_IO_IN_ARENA = 'tflm-io-in-arena';

/** Why graph I/O stays in the arena on TensorFlow Lite Micro; the page shows it where the graph I/O choice would be. */
export const TFLM_IO_IN_ARENA_NOTE = "TensorFlow Lite Micro allocates the model's inputs and outputs in its tensor arena";

/**
 * The target a plan is made for: on a TensorFlow Lite Micro target with a
 * .tflite model, graph I/O stays in the arena whatever `io` asks, as TFLM
 * allocates a model's inputs and outputs there itself (arenaIoNote).
 */
export function runtimeIoTarget(model: InferredGraph | InferredModel, target: TargetProfile): TargetProfile {
  const tflm = target.planning.runtime === 'tflm' && (model as Partial<InferredModel>).tflite !== undefined;
  if (!tflm || target.planning.io !== 'application') return target;
  return { ...target, planning: { ...target.planning, io: 'arena' } };
}

/** Why io=application is not applied on a TensorFlow Lite Micro target. */
export function arenaIoNote(): PlanDiagnostic {
  return {
    code: TFLM_IO_IN_ARENA,
    message: `${TFLM_IO_IN_ARENA_NOTE}, so io=application (--io application) is not applied: graph I/O is planned in the arena (set it on another target to see the application own them)`,
  };
}
