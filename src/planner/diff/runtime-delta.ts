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
  readonly arenaAsIs: number; // the tensor arena to declare for the file as it is: what TFLM plans for the unchanged file (runtimePlan.arena)
  readonly lowerEstimate: boolean; // both arenas are lower estimates: a kernel's scratch requests are not known, none assumed (assumptions.kernels)
  readonly tailEstimated: boolean; // both arenas are estimates: some part of the tail is estimated (runtimePlan.tailEstimated), "(estimate)" where shown
  readonly refused: boolean; // TFLM refuses the model (runtimePlan.refused): AllocateTensors() fails whatever the arena, and the figures are what it would plan were the model accepted
}

/** The arenas to declare on both sides. */
export interface RuntimeDelta {
  readonly runtime: 'tflm';
  readonly a: RuntimeArenaFigures;
  readonly b: RuntimeArenaFigures;
  readonly delta: number; // b.arena - a.arena
  readonly deltaAsIs: number; // b.arenaAsIs - a.arenaAsIs: the files as they are
}

/** The plan's runtime record and what it assumes of the runtime's kernels. */
type RuntimePlanOf = Pick<ModelPlan, 'runtimePlan'> & { readonly assumptions?: Pick<ModelPlan['assumptions'], 'kernels'> };

/** The arena `plan` declares, read as its regions' `used` reads it, and the file's as it is; undefined for a plan of no runtime. */
export function arenaFigures(plan: RuntimePlanOf): RuntimeArenaFigures | undefined {
  const runtime = plan.runtimePlan;
  if (runtime === undefined) return undefined;
  // a plan saved before the plan written was recorded declares the file as it is
  const { head, arena } = runtime.planned ?? runtime;
  // a kernel planned with no scratch because its requests are not known: the runtime may need more, as `plan` prints it ("≥")
  const lowerEstimate = (plan.assumptions?.kernels ?? []).length > 0;
  const refused = (runtime.refused ?? []).length > 0;
  // a plan saved before the tail's estimated parts were recorded says nothing of them
  const tailEstimated = runtime.tailEstimated === true;
  return { head, tail: arena - head, tailAlone: runtime.tail, planning: arena - head - runtime.tail, arena, arenaAsIs: runtime.arena, lowerEstimate, tailEstimated, refused };
}

/** The arenas of A and B and their difference; undefined unless both are plans of the same runtime. */
export function runtimeDelta(a: RuntimePlanOf, b: RuntimePlanOf): RuntimeDelta | undefined {
  const [figuresA, figuresB] = [arenaFigures(a), arenaFigures(b)];
  if (figuresA === undefined || figuresB === undefined) return undefined;
  return { runtime: 'tflm', a: figuresA, b: figuresB, delta: figuresB.arena - figuresA.arena, deltaAsIs: figuresB.arenaAsIs - figuresA.arenaAsIs };
}
