// The placement problem of a TFLite model as TensorFlow Lite Micro sees it: the
// buffers its allocator plans (tensors and the kernels' scratch requests), in
// the planner's step units. Every strategy then plans the same buffers TFLM
// does. Depends only on the model's IR types and the planner.
//
// - TFLM's time 0 (graph inputs arriving) joins step 0, the first operator's;
//   time t ≥ 1 is step t − 1, so an inclusive [first, last] becomes the
//   half-open [first − 1, last). A tensor never referenced ((-1, -1)) sits at
//   step 0. Both only widen lifetimes, so a plan of these steps is valid in
//   TFLM's times too.
// - Steps of a called subgraph's operators keep their own node names.

import type { InferredGraph } from '../../model/inferred';
import type { IrTflite } from '../../model/ir-tflite';
import type { PlanDiagnostic } from '../problem/build-buffers';
import type { BufferInfo, BuiltProblem, StepInfo } from '../problem/build-problem';
import { lowerBound } from '../problem/lower-bound';
import type { PlanBuffer } from '../problem/problem';
import { activationRegionOf, type TargetProfile } from '../targets/target';
import { tensorBytes, tflmAllocation, type TflmAllocation, type TflmBuffer } from './allocation-info';

/** A TFLM problem and the allocation it came from; `order[id]` is the TFLM planner id of problem buffer `id`. */
export interface TflmProblem {
  readonly built: BuiltProblem;
  readonly allocation: TflmAllocation;
  readonly order: readonly number[];
}

/** The problem of `graph` (a TFLite model's main graph) for a TFLM target. */
export function tflmProblem(graph: InferredGraph, tflite: IrTflite, target: TargetProfile): TflmProblem {
  const allocation = tflmAllocation(tflite);
  const region = activationRegionOf(target);
  // problem ids are TFLM's planner ids: strategy tflm breaks ties between equal sizes by id, as GreedyMemoryPlanner does
  const order = allocation.buffers.map((_, i) => i);
  const buffers: PlanBuffer[] = order.map((k, id) => {
    const b = allocation.buffers[k]!;
    return { id, name: b.name, size: b.size, ...stepSpan(b), region: region.name };
  });
  const info: BufferInfo[] = order.map((k) => bufferInfo(allocation.buffers[k]!));
  const steps: StepInfo[] = allocation.times.map((t) => ({ node: t.node, opType: t.op, kind: 'computing' }));
  const nodeIndex = new Map(graph.nodes.map((n, i) => [n.name, i]));
  const stepOf = new Int32Array(graph.nodes.length).fill(-1);
  steps.forEach((s, step) => {
    const i = nodeIndex.get(s.node);
    if (i !== undefined && stepOf[i] === -1) stepOf[i] = step;
  });
  const problem = { buffers, alignment: region.alignment };
  const live = lowerBound(problem).lowerBound;
  const diagnostics: PlanDiagnostic[] = [
    ...allocation.refusals.map((message) => ({ code: 'tflm-unsupported', message })),
    ...allocation.notes.map((message) => ({ code: 'tflm-kernel-unknown', message })),
  ];
  const built: BuiltProblem = {
    problem,
    info,
    scratch: [],
    unknownScratch: [],
    steps,
    schedule: {
      policy: 'file',
      order: graph.nodes.map((_, i) => i).filter((i) => stepOf[i]! >= 0).sort((a, b) => stepOf[a]! - stepOf[b]!),
      stepOf,
      maxLiveBytes: live,
      fileMaxLiveBytes: live,
      keptFileOrder: true,
    },
    weights: weightsOf(tflite),
    bodies: [],
    activationRegion: region.name,
    diagnostics,
  };
  return { built, allocation, order };
}

/** TFLM's inclusive times as half-open steps (see the module header). */
export function stepSpan(b: Pick<TflmBuffer, 'first' | 'last'>): { start: number; end: number } {
  const start = Math.max(b.first, 1) - 1;
  return { start, end: Math.max(Math.max(b.last, 1), start + 1) };
}

function bufferInfo(b: TflmBuffer): BufferInfo {
  const kind = b.role === 'scratch' ? 'scratch' : b.role;
  return { kind, node: b.node, bytes: b.bytes, padding: b.size - b.bytes, graphIo: b.role === 'input' || b.role === 'output' };
}

function weightsOf(tflite: IrTflite): BuiltProblem['weights'] {
  let bytes = 0;
  let tensors = 0;
  tflite.subgraphs.forEach((sg, s) =>
    sg.tensors.forEach((t, i) => {
      if (!t.constant) return;
      tensors++;
      bytes += t.bytes ?? tensorBytes(t, s, i);
    }),
  );
  // a .tflite's constant tensors have their sizes in the file
  return { region: 'weights', bytes, tensors, unknownSizes: 0 };
}
