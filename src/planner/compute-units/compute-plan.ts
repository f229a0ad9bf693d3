// The compute-unit plan (METHODS.md M3): partition the graph over the
// target's compute units, size every tensor by its level, decide every
// function boundary, and build the placement problem the planner core lays
// out, with copies at copied boundaries as buffers of their own (kind
// 'copy'). Depends only on the model's IR types and the planner.
//
// - Partition (partition.ts), level sizes (level-sizes.ts) and boundary
//   decisions (boundaries.ts) on the model's execution order.
// - The laid-out graph (rewrite-graph.ts) carries the home view of every
//   tensor and a copy node per copied boundary; buildProblem turns it into
//   buffers with M1 sharing, in the execution order the partition was made
//   on, and they then take the alignment of their unit where it exceeds the
//   region's.
// - Never worse than copying: when some boundary is shared, the same
//   strategy also lays out the plan that copies at every boundary; if that
//   one is smaller (a heuristic strategy can be thrown off by a merged
//   lifetime), it is kept and the boundaries it copies say 'layout'. The
//   other variant is returned too: the plan's lower bound covers both.
// - Memory tags (memory-tags.ts) are read from the kept problem.

import type { InferredGraph } from '../../model/inferred';
import { alignUp, type PlanDiagnostic } from '../problem/build-buffers';
import { buildProblem, type BufferInfo, type BuildOptions, type BuiltProblem, type ProblemPlacer } from '../problem/build-problem';
import { maxLiveBytes, scheduleGraph, stepsOf, type Schedule } from '../problem/schedule';
import { activationRegionOf, type GraphIoPolicy, type TargetProfile } from '../targets/target';
import { decideBoundaries, type Boundary, type BoundaryReason } from './boundaries';
import { LevelSizes, type TensorView } from './level-sizes';
import { memoryTags, type MemoryTags } from './memory-tags';
import { partitionGraph, type Partition } from './partition';
import { withCopies, type RewrittenGraph } from './rewrite-graph';
import { storedTypes, type StoredAs } from './stored-as';

/** A function of the plan, for the report. */
export interface FunctionRecord {
  readonly name: string;
  readonly unit: string;
  readonly nodes: readonly string[]; // the model's nodes, in execution order
  readonly copies: readonly string[]; // copy nodes it runs at its boundaries
  readonly firstStep: number; // in the plan's steps
  readonly lastStep: number;
}

/** A boundary decision, for the report. */
export interface BoundaryRecord {
  readonly tensor: string;
  readonly from: string; // function name, or 'model'
  readonly to: string;
  readonly shared: boolean;
  readonly reason: BoundaryReason; // 'compatible' when shared
  readonly detail: string;
  readonly fromType: string;
  readonly toType: string;
  readonly bytes: number; // allocated bytes of the home buffer
  readonly copy?: string; // the copy buffer's name
  readonly copyBytes?: number;
}

/** A compute unit and what the plan gave it. */
export interface UnitRecord {
  readonly name: string;
  readonly activations: string;
  readonly fakeQuantization: boolean;
  readonly alignment: number; // as applied: never below the region's
  readonly functions: number;
  readonly nodes: number;
}

/** The compute-unit plan of a model. */
export interface ComputeUnitPlan {
  readonly graph: InferredGraph; // the laid-out graph: level sizes and copy nodes
  readonly built: BuiltProblem;
  readonly functions: readonly FunctionRecord[];
  readonly boundaries: readonly BoundaryRecord[];
  readonly units: readonly UnitRecord[];
  readonly tags: MemoryTags;
  readonly storedAs: ReadonlyMap<string, StoredAs>; // by buffer name: those stored in another type than the model's
  readonly comparison?: { readonly sharedPeak: number; readonly copiesPeak: number; readonly kept: 'shared' | 'copies' };
  readonly alternative?: { readonly graph: InferredGraph; readonly built: BuiltProblem }; // the variant not kept: a valid plan too, so the bound covers it
}

/** Options: `place` lays out bodies and both variants, with the plan's strategy as planModel uses it. */
export interface ComputePlanOptions extends BuildOptions {
  readonly copyAll?: boolean; // copy at every boundary: the baseline a plan with sharing is compared with
}

/** Plans the compute units of `model`; undefined when the target lists none. */
export function computeUnitPlan(model: InferredGraph, target: TargetProfile, options: ComputePlanOptions): ComputeUnitPlan | undefined {
  if (target.computeUnits.length === 0) return undefined;
  const region = activationRegionOf(target);
  const schedule = scheduleGraph(model, target.planning.order, target.planning.graphIo);
  const diagnostics: PlanDiagnostic[] = [];
  const partition = partitionGraph(model, schedule, target.computeUnits, diagnostics);
  const sizes = new LevelSizes(model, region.alignment);
  const homes = new Map<string, TensorView>();
  for (const value of model.values) {
    const home = sizes.homeView(value, partition);
    if (home !== undefined) homes.set(value.name, home);
  }
  const { copyAll = false, ...build } = options;
  const variant = (copies: boolean) => {
    const boundaries = decideBoundaries(model, partition, schedule.stepOf, sizes, { copyAll: copies, opKinds: target.planning.opKinds });
    const rewritten = withCopies(model, partition.functionOf, homes, boundaries, schedule.order);
    const ordered = { ...build, schedule: rewrittenSchedule(rewritten, schedule, target.planning.graphIo) };
    const built = realigned(buildProblem(rewritten.graph, target, ordered), homes, boundaries, diagnostics);
    return { boundaries, rewritten, built };
  };
  const { kept, other, comparison } = smallerOf(variant(copyAll), () => variant(true), build.place);
  return {
    graph: kept.rewritten.graph,
    built: kept.built,
    functions: functionRecords(partition, kept.rewritten, kept.built),
    boundaries: kept.boundaries.map((b) => boundaryRecord(b, comparison)),
    units: unitRecords(target, partition, region.alignment),
    tags: memoryTags({
      graph: kept.rewritten.graph,
      order: kept.built.schedule.order,
      functionOf: kept.rewritten.functionOf,
      functions: partition.functions,
      problem: kept.built.problem,
      info: kept.built.info,
      boundaries: kept.boundaries,
    }),
    storedAs: storedTypes(model, homes, kept.boundaries),
    ...(comparison !== undefined && { comparison }),
    ...(other !== undefined && { alternative: { graph: other.rewritten.graph, built: other.built } }),
  };
}

/** One way of deciding the boundaries, laid out as a problem. */
interface Variant {
  readonly boundaries: readonly Boundary[];
  readonly rewritten: RewrittenGraph;
  readonly built: BuiltProblem;
}

/** The plan with sharing, or the one copying at every boundary when that lays out smaller. */
function smallerOf(
  shared: Variant,
  copyAll: () => Variant,
  place: ProblemPlacer,
): { kept: Variant; other?: Variant; comparison: ComputeUnitPlan['comparison'] } {
  if (!shared.boundaries.some((b) => b.shared)) return { kept: shared, comparison: undefined };
  const copies = copyAll();
  const sharedPeak = place(shared.built.problem);
  const copiesPeak = place(copies.built.problem);
  const keepCopies = copiesPeak < sharedPeak;
  return {
    kept: keepCopies ? copies : shared,
    other: keepCopies ? shared : copies,
    comparison: { sharedPeak, copiesPeak, kept: keepCopies ? 'copies' : 'shared' },
  };
}

/**
 * The partition's execution order on the rewritten graph, so functions stay
 * runs of consecutive steps whatever the order policy; the live-bytes figures
 * are the rewritten graph's (level sizes and copies).
 */
function rewrittenSchedule(rewritten: RewrittenGraph, schedule: Schedule, io: GraphIoPolicy): Schedule {
  const { graph, order } = rewritten;
  const maxLive = maxLiveBytes(graph, order, io);
  const fileOrder = graph.nodes.map((_, i) => i).filter((i) => !graph.nodes[i]!.constant);
  const sameAsFile = order.length === fileOrder.length && order.every((n, i) => n === fileOrder[i]);
  return {
    policy: schedule.policy,
    order,
    stepOf: stepsOf(graph, order),
    maxLiveBytes: maxLive,
    fileMaxLiveBytes: sameAsFile ? maxLive : maxLiveBytes(graph, fileOrder, io),
    keptFileOrder: schedule.keptFileOrder,
  };
}

/**
 * The built problem with copy buffers marked 'copy' and, where a unit's
 * alignment exceeds the region's, buffers that own their bytes (no alias)
 * sized and aligned to it. Views and windows keep their parent's placement.
 */
function realigned(
  built: BuiltProblem,
  homes: ReadonlyMap<string, TensorView>,
  boundaries: readonly Boundary[],
  diagnostics: readonly PlanDiagnostic[],
): BuiltProblem {
  const copies = new Map(boundaries.flatMap((b) => (b.copy === undefined ? [] : [[b.copy, b.reader] as const])));
  const regionAlignment = built.problem.alignment ?? 1;
  const info: BufferInfo[] = [];
  const buffers = built.problem.buffers.map((buffer, id) => {
    const i = built.info[id]!;
    const view = copies.get(buffer.name) ?? homes.get(buffer.name);
    const kind = copies.has(buffer.name) ? 'copy' : i.kind;
    if (view === undefined || view.alignment <= regionAlignment || i.alias !== undefined) {
      info.push(kind === i.kind ? i : { ...i, kind });
      return buffer;
    }
    const size = Math.max(buffer.size, alignUp(i.bytes, view.alignment));
    info.push({ ...i, kind, padding: size - i.bytes });
    return { ...buffer, size, alignment: view.alignment };
  });
  return { ...built, problem: { ...built.problem, buffers }, info, diagnostics: [...diagnostics, ...built.diagnostics] };
}

function functionRecords(partition: Partition, rewritten: RewrittenGraph, built: BuiltProblem): FunctionRecord[] {
  return partition.functions.map((fn) => {
    const nodes: string[] = [];
    const copies: string[] = [];
    let firstStep = Infinity;
    let lastStep = -Infinity;
    for (const n of built.schedule.order) {
      if (rewritten.functionOf[n] !== fn.index) continue;
      const node = rewritten.graph.nodes[n]!;
      (node.domain === 'heapscope' && node.opType === 'Copy' ? copies : nodes).push(node.name);
      firstStep = Math.min(firstStep, built.schedule.stepOf[n]!);
      lastStep = Math.max(lastStep, built.schedule.stepOf[n]!);
    }
    return { name: fn.name, unit: fn.unit, nodes, copies, firstStep, lastStep };
  });
}

function boundaryRecord(b: Boundary, comparison: ComputeUnitPlan['comparison']): BoundaryRecord {
  const laidOut = b.reason === 'layout' && comparison?.kept === 'copies';
  return {
    tensor: b.tensor,
    from: b.from,
    to: b.to,
    shared: b.shared,
    reason: b.reason,
    detail: laidOut ? `both sides could share, but sharing laid out ${comparison.sharedPeak} bytes and copying at every boundary ${comparison.copiesPeak}` : b.detail,
    fromType: b.home.dtype,
    toType: b.reader.dtype,
    bytes: b.home.allocated,
    ...(b.copy !== undefined && { copy: b.copy, copyBytes: b.reader.allocated }),
  };
}

function unitRecords(target: TargetProfile, partition: Partition, regionAlignment: number): UnitRecord[] {
  return target.computeUnits.map((unit) => {
    const fns = partition.functions.filter((f) => f.unit === unit.name);
    return {
      name: unit.name,
      activations: unit.dtype.activations,
      fakeQuantization: unit.dtype.fakeQuantization,
      alignment: Math.max(unit.alignment, regionAlignment),
      functions: fns.length,
      nodes: fns.reduce((sum, f) => sum + f.nodes.length, 0),
    };
  });
}
