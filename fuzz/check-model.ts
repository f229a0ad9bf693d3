// Runs one model file through decode -> inference -> plan in-process and lists
// what is wrong: an exception other than a typed input error, a shape that is
// not a non-negative integer without being listed as unknown, a size past 2^53,
// a plan the independent validator rejects, or (a .tflite planned for TFLite
// Micro) a runtime plan with inexact figures or whose offsets, written into the
// file as --save-tflite writes them, do not read back. Depends on model/ and planner/.

import { decodeModel } from '../src/model/decode-model';
import { withOfflinePlan } from '../src/model/tflite/write-offline-plan';
import type { InferredGraph, InferredModel } from '../src/model/inferred';
import { inferShapes } from '../src/model/infer/shapes';
import { planModel, type ModelPlan, type RuntimePlan } from '../src/planner/plan';
import { presetTarget } from '../src/planner/targets/presets';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { InputError } from '../src/shared/errors';
import { placementOf } from './plan-validity';

/** One thing wrong with one file. */
export interface Finding {
  readonly stage: 'decode' | 'infer' | 'plan' | 'shape' | 'size' | 'validate' | 'runtime';
  readonly message: string;
}

/** How one file went. */
export interface ModelOutcome {
  readonly rejected?: string; // the InputError code when decode or plan refused the file
  readonly findings: readonly Finding[];
  readonly values: number; // values inferred
}

/** Where the plan runs: a target preset and a strategy (undefined: the preset's). */
export interface PlanChoice {
  readonly target: string;
  readonly strategy: string | undefined;
}

function thrown(stage: Finding['stage'], error: unknown): Finding {
  const text = error instanceof Error ? `${error.name}: ${error.message}\n${(error.stack ?? '').split('\n').slice(1, 4).join('\n')}` : String(error);
  return { stage, message: text.slice(0, 2000) };
}

/** Checks one file; never throws. */
export function checkModel(bytes: Uint8Array, choice: PlanChoice): ModelOutcome {
  let model: InferredModel;
  try {
    model = inferShapes(decodeModel(bytes));
  } catch (error) {
    if (error instanceof InputError) return { rejected: error.code, findings: [], values: 0 };
    return { findings: [thrown('decode', error)], values: 0 };
  }
  const findings = [...checkGraph(model)];
  let plan: ModelPlan;
  try {
    plan = planModel(model, presetTarget(choice.target), choice.strategy === undefined ? {} : { strategy: choice.strategy });
  } catch (error) {
    if (error instanceof InputError) return { rejected: error.code, findings, values: model.values.length };
    return { findings: [...findings, thrown('plan', error)], values: model.values.length };
  }
  const runtime = plan.runtimePlan === undefined ? [] : checkRuntimePlan(bytes, plan.runtimePlan);
  return { findings: [...findings, ...checkPlan(plan), ...runtime], values: model.values.length };
}

/** TFLite Micro's figures are exact, and the plan handed back as an offline plan reads back from the written file. */
function checkRuntimePlan(bytes: Uint8Array, runtime: RuntimePlan): Finding[] {
  const exact = (n: number) => Number.isSafeInteger(n) && n >= 0;
  const figures = { head: runtime.head, tail: runtime.tail, arena: runtime.arena, greedyHead: runtime.greedyHead, plannedHead: runtime.planned.head, plannedArena: runtime.planned.arena };
  const inexact = Object.entries(figures).filter(([, n]) => !exact(n));
  if (inexact.length > 0) return [{ stage: 'size', message: `runtime plan ${inexact.map(([k, n]) => `${k} ${n}`).join(', ')}` }];
  if (runtime.arena < runtime.head) return [{ stage: 'runtime', message: `arena ${runtime.arena} below head ${runtime.head}` }];
  let file: Uint8Array;
  try {
    file = withOfflinePlan(bytes, runtime.planned.offsets);
  } catch (error) {
    // The writer may refuse a file it cannot rewrite faithfully (newer root fields, no buffer 0): --save-tflite says so.
    return error instanceof InputError ? [] : [thrown('runtime', error)];
  }
  try {
    const written = decodeModel(file);
    const offsets = written.tflite?.offlinePlan?.offsets ?? [];
    if (offsets.length !== runtime.planned.offsets.length || offsets.some((o, i) => o !== runtime.planned.offsets[i])) {
      return [{ stage: 'runtime', message: `the written offline plan reads back as ${offsets.length} offsets, not the ${runtime.planned.offsets.length} written` }];
    }
  } catch (error) {
    return [thrown('runtime', error)];
  }
  return [];
}

/** Every value's dims are non-negative integers and its bytes exact, or it is listed as unknown; subgraphs too. */
function checkGraph(graph: InferredGraph): Finding[] {
  const out: Finding[] = [];
  for (const v of graph.values) {
    if (v.shape !== undefined && !v.shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      out.push({ stage: 'shape', message: `'${v.name}' has shape [${v.shape.join(', ')}]` });
    }
    if (v.bytes !== undefined && !(Number.isSafeInteger(v.bytes) && v.bytes >= 0)) out.push({ stage: 'size', message: `'${v.name}' has ${v.bytes} bytes` });
    if ((v.bytes === undefined || v.shape === undefined) && !v.unknownReason) out.push({ stage: 'shape', message: `'${v.name}' is unknown without a reason` });
  }
  for (const node of graph.nodes) for (const body of node.subgraphs) out.push(...checkGraph(body));
  return out;
}

/** The plan's numbers are exact and its buffers pass the independent validator. */
function checkPlan(plan: ModelPlan): Finding[] {
  const out: Finding[] = [];
  const exact = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!plan.valid) out.push({ stage: 'validate', message: 'plan says valid: false' });
  if (!exact(plan.peak) || !exact(plan.lowerBound)) out.push({ stage: 'size', message: `peak ${plan.peak}, lower bound ${plan.lowerBound}` });
  if (plan.lowerBound > plan.peak) out.push({ stage: 'validate', message: `lower bound ${plan.lowerBound} above peak ${plan.peak}` });
  for (const b of plan.buffers) {
    if (!exact(b.size) || !exact(b.offset) || !exact(b.offset + b.size)) {
      out.push({ stage: 'size', message: `buffer '${b.name}' size ${b.size} at ${b.offset}, ending at ${b.offset + b.size}` });
      return out;
    }
  }
  const verdict = validatePlan(...placementOf(plan));
  if (!verdict.valid) out.push({ stage: 'validate', message: verdict.violations.slice(0, 3).map((v) => v.message).join('; ') });
  return out;
}
