// The tensor arenas two plans declare, when both are plans of a runtime that
// declares one (TensorFlow Lite Micro): what the firmware sizes, which the
// peak of heapscope's placement is not (a file's own offline plan, the
// runtime's tail). Depends only on the planner's plan types.

import type { ModelPlan } from '../plan-types';

/** One side's tensor arena: the head of the plan written into the file, the runtime's tail, and their arena to declare. */
export interface RuntimeArenaFigures {
  readonly head: number;
  readonly tail: number; // the arena beyond the head: TFLM's persistent tail and planning (runtimePlan.tail is the tail alone), named "tail and planning" wherever it is shown; tailAlone + planning
  readonly tailAlone: number; // the persistent tail alone, as runtimePlan.tail
  readonly planning: number; // the rest of the arena: what TFLM's planning needs beyond head and tail, rounded up to 16 (arena - head - tailAlone)
  readonly arena: number; // the tensor arena to declare with the plan written
}

/** The arenas to declare on both sides. */
export interface RuntimeDelta {
  readonly runtime: 'tflm';
  readonly a: RuntimeArenaFigures;
  readonly b: RuntimeArenaFigures;
  readonly delta: number; // b.arena - a.arena
}

/** The arena `plan` declares, read as its regions' `used` reads it; undefined for a plan of no runtime. */
export function arenaFigures(plan: Pick<ModelPlan, 'runtimePlan'>): RuntimeArenaFigures | undefined {
  const runtime = plan.runtimePlan;
  if (runtime === undefined) return undefined;
  // a plan saved before the plan written was recorded declares the file as it is
  const { head, arena } = runtime.planned ?? runtime;
  return { head, tail: arena - head, tailAlone: runtime.tail, planning: arena - head - runtime.tail, arena };
}

/** The arenas of A and B and their difference; undefined unless both are plans of the same runtime. */
export function runtimeDelta(a: Pick<ModelPlan, 'runtimePlan'>, b: Pick<ModelPlan, 'runtimePlan'>): RuntimeDelta | undefined {
  const [figuresA, figuresB] = [arenaFigures(a), arenaFigures(b)];
  if (figuresA === undefined || figuresB === undefined) return undefined;
  return { runtime: 'tflm', a: figuresA, b: figuresB, delta: figuresB.arena - figuresA.arena };
}
