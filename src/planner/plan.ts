// planModel: the planner's public entry point. An inferred model and a target
// profile in, a validated and explained plan out, as plain data shaped for
// `plan --json`, the worker and the views. Depends only on src/shared, the
// model's IR types and the planner.
//
// buildProblem -> fusion units (M5, M2) moved on chip -> the spill along the
// target's memory map (spill/: which activations stay in the fast region) ->
// assignOffsets (activations) -> placeScratch (M4; also the joint plan of
// scratch with activations, to compare) -> validatePlan (an invalid plan is
// an internal error) -> explainPlan.

import type { InferredGraph, InferredModel } from '../model/inferred';
import { InvariantError } from '../shared/assert';
import { formatBytes, formatCount } from '../shared/format';
import type { PlanDiagnostic } from './problem/build-buffers';
import type { BuiltProblem } from './problem/build-problem';
import { fusedTraffic, slowScratchTraffic, withScratchTraffic, type Traffic } from './problem/build-traffic';
import type { ComputeUnitPlan } from './compute-units/compute-plan';
import { explainPlan, regionPeaks, type PlanExplanation } from './assembly/explain-plan';
import { peakLiveReasons, type PeakLiveRecord } from './explain/peak-live';
import { kvPastKept } from './explain/kv-past-kept';
import { rankSuggestions, suggestionSteps, suggestPlanChanges, type SuggestInput, type SuggestionStep } from './explain/suggest';
import { unitRecord, type FoundUnits } from './fusion/find-units';
import type { FusionExplanation, FusionUnitRecord } from './fusion/fusion-types';
import { planAssumptions, restsOnUnknown, type PlanAssumptions } from './assembly/assumptions';
import { ownBoundFields, strategyBounds, strategyFreeBounds } from './assembly/bounds';
import { buildStage, stageBounds } from './assembly/stages';
import { replannedPeak } from './explain/setting-replan';
import type { FitReplan } from './explain/suggest-spill';
import type { PlacedPlan, ScratchSummary } from './assembly/placement';
import { comparedScratch } from './assembly/scratch-compare';
import type { PlacementProblem } from './problem/problem';
import { kvCaches, kvNamesOf, type KvCaches } from './problem/kv-cache';
import { withoutSearchBudget, type PlanOptions } from './strategies/strategy';
import type { TargetProfile } from './targets/target';
import { validatePlan } from './assembly/validate-plan';
import { tflmRuntimePlan, type RuntimePlan } from './tflm/runtime-plan';
import { arenaIoNote, runtimeIoTarget } from './tflm/arena-io';
import { filePlanNotes, unappliedDims } from './tflm/plan-notes';
import { everySplitBound, placeStage } from './spill/place-stage';
import { memoryMapOf } from './spill/memory-map';
import { unappliedPins, unmatchedPins } from './spill/unmatched-pins';
import { bufferRecords, regionRecords, regionUsed, spillSummary, withBound, withKvCacheFlags, withPastLimit, withUnknownSizeFlags, withUnknownSizes, type RuntimeArena } from './assembly/plan-records';
import { scratchRequestOf } from './scratch/merge';
import { uncountedWorkspace, workspaceDiagnostics } from './scratch/kernel-workspace';
import type { SpillResult } from './spill/spill-plan';
import { activationTarget, ioBytesByRegion, planStorage, weightsReserve } from './spill/weights-io';
import type { ModelPlan } from './plan-types';
import { addMoves, bufferMoves, fitNeeds, regionMoves, spilledBytes, spilledRecords, wantedRegions, weightsMoves, type RegionMoves } from './spill/spill-report';

export type * from './plan-types';
export { rankSuggestions };

/** Options of planModel. */
export interface PlanModelOptions {
  readonly strategy?: string; // default: the target's planning.strategy
  readonly planOptions?: PlanOptions;
  readonly suggest?: boolean; // evaluate suggestions (plans again a handful of times); default false
  readonly kvPastKept?: boolean; // place the buffers again with a decoder's past inputs kept live (explanation.kvPastKept); default true, false for a plan whose explanation nobody reads
  readonly compareScratch?: boolean; // place again with the other scratch placement for `scratch`'s two peaks; default true, false (no `scratch`) for a plan only its peak is read of
}

/** A plan before its peak is explained. */
type PlanCore = Omit<ModelPlan, 'explanation' | 'suggestions'>;

/** Plans a model for a target; see the module header. */
export function planModel(model: InferredGraph | InferredModel, target: TargetProfile, options: PlanModelOptions = {}): ModelPlan {
  const { plan, suggestInput } = planExplained(model, target, options);
  return options.suggest === true ? { ...plan, suggestions: suggestPlanChanges(suggestInput) } : plan;
}

/**
 * planModel without suggestions, and the steps that evaluate them one at a time
 * (explain/suggest.ts), so a caller (the page's worker) can show the plan first,
 * then report progress and stop between steps. Running every step and ranking
 * the results (rankSuggestions) gives planModel's `suggestions` exactly.
 */
export function planWithSuggestionSteps(model: InferredGraph | InferredModel, target: TargetProfile, options: PlanModelOptions = {}): { readonly plan: ModelPlan; readonly steps: readonly SuggestionStep[] } {
  const { plan, suggestInput } = planExplained(model, target, { ...options, suggest: false });
  return { plan, steps: suggestionSteps(suggestInput) };
}

/** The explained plan, and what suggestPlanChanges reads about it. */
function planExplained(model: InferredGraph | InferredModel, requested: TargetProfile, options: PlanModelOptions): { plan: ModelPlan; suggestInput: SuggestInput } {
  const target = runtimeIoTarget(model, requested);
  const strategy = options.strategy ?? target.planning.strategy;
  const planOptions = options.planOptions;
  const buildOptions = { strategy, ...(planOptions !== undefined && { planOptions }) };
  const stage = buildStage(model, target, buildOptions);
  const { units, graph, unfused, fusion } = stage;
  // Weights placed in a RAM region leave the activations what remains of its limit.
  const reserve = weightsReserve(target, stage.built.weights.bytes);
  const planTarget = activationTarget(target, reserve);
  const { built, placed, spill } = placeStage(stage, planTarget, strategy, planOptions);
  const { problem, info } = placed.full;
  const peaks = regionPeaks(problem, placed.offsets);
  const validation = validatePlan(problem, {
    offsets: placed.offsets,
    peak: [...peaks.values()].reduce((a, b) => a + b, 0),
    regions: [...peaks].map(([name, peak]) => ({ name, peak })),
  });
  if (!validation.valid) throw new InvariantError(`the ${strategy} plan is invalid: ${validation.violations[0]!.message}`);
  // TensorFlow Lite Micro plans the shapes the file states (it cannot resize a tensor): no dim is assumed, and one given is
  // not applied; its tensor arena holds the runtime's tail beside the plan's head, counted against the arena's limit as
  // weights are (a 60,000 B limit "fit" person_detect's 54 KiB head, where AllocateTensors() needs 80.4 KiB)
  const tflite = (model as Partial<InferredModel>).tflite;
  const runtimePlan = stage.tflm === undefined || tflite === undefined ? undefined : tflmRuntimePlan(tflite, stage.tflm, placed.offsets);
  // the runtime uses the plan written into the file, whose head can differ from the placement drawn (a file's own offline
  // plan kept as smaller, scratch placed by TFLite Micro): its arena is what the region must hold (Vela's person_detect
  // "needed 155 KiB", heapscope's placement plus the tail, beside an arena to declare of 73.1 KiB)
  const { planned } = runtimePlan ?? {};
  const runtime = new Map<string, RuntimeArena>(planned === undefined ? [] : [[target.planning.activationRegion, { head: planned.head, tail: planned.arena - planned.head, tailEstimated: runtimePlan!.tailEstimated }]]);
  const inferredAssumptions = withUnknownScratch(planAssumptions(model), built.unknownScratch);
  // a TFLM kernel whose scratch requests are unknown is planned with none: the arena to declare is a lower estimate
  const runtimeAssumptions = runtimePlan === undefined || stage.tflm === undefined ? inferredAssumptions : { ...inferredAssumptions, dims: [], kernels: stage.tflm.allocation.unknownKernels };
  // a fused attention op's kernel workspace no scratch rule of the target plans: estimated and said, never counted as 0
  const workspace = uncountedWorkspace(model.nodes, new Map(model.values.map((v) => [v.name, v])), new Set(target.scratch.rules.map((r) => r.opType)));
  const assumptions = workspace.length === 0 ? runtimeAssumptions : { ...runtimeAssumptions, workspace };
  // a spill's split is of the kept compute-unit variant: the other variant, unspilled, says nothing of a region's share
  // (it held the whole plan in the first region and none in the next, so each region took the smaller of two splits)
  const bounds = spill === undefined ? stageBounds({ ...stage, built }, target) : strategyFreeBounds(target, built);
  const splitExplanation = explainPlan({ problem, offsets: placed.offsets, info, bounds, activationPeaks: placed.activationPeaks });
  const explanation = spill === undefined ? splitExplanation : withBound(splitExplanation, everySplitBound(stage, planTarget));
  const slow = new Set(target.regions.filter((r) => !r.fast).map((r) => r.name));
  const tensorTraffic = fusedTraffic(graph, spill === undefined ? unfused.problem : spilledRegions(unfused.problem, built.problem, wantedRegions(spill)), unfused.info, slow, fusion?.units ?? []);
  const traffic = withScratchTraffic(tensorTraffic, slowScratchTraffic(problem, (id) => scratchRequestOf(built, id)?.bytes, slow));
  const fused = fusionReport(fusion, traffic.units);
  const diagnostics = [
    ...modelDiagnostics(model),
    ...built.diagnostics,
    ...unmatchedPins(target, stage.built),
    ...unappliedPins(planTarget, spill !== undefined),
    ...limitDiagnostics(target, peaks, reserve, runtime),
    ...fused.units.flatMap(costlyUnit),
    ...runtimeDiagnostics(model, target),
    ...(runtimePlan === undefined ? [] : unappliedDims(inferredAssumptions.dims)),
    ...(target === requested ? [] : [arenaIoNote()]),
    ...workspaceDiagnostics(workspace),
  ];
  const scratch = placed.scratch === undefined || options.compareScratch === false ? undefined : comparedScratch(placed.scratch, { stage, target: planTarget, strategy, planOptions, peak: explanation.peak });
  const record = planRecord({ target, strategy, valid: validation.valid, built, placed, scratch, explanation, traffic: traffic.total, diagnostics, fused, assumptions, spill, planOptions, moves: bufferMoves(graph, built, problem, info), weightsMoved: weightsMoves(graph, target), reserve, runtime, kv: kvCaches(graph) });
  const plan = runtimePlan === undefined ? record : withRuntimePlan(record, runtimePlan, target.planning.activationRegion);
  const peakOf = (name: string) => planModel(model, target, { ...options, strategy: name, suggest: false, kvPastKept: false, compareScratch: false }).peak;
  // M1, and the winner chosen itself, plan the model afresh where the plan's problem depends on the strategy: bodies sized
  // by it and the compute-unit variant it laid out smaller (a spill plans each baseline whole, but on best's problem)
  const replanM1 = built.bodies.length > 0 || units?.alternative !== undefined;
  // a proof above the lower bound is a bound of the strategy's own problem: the plan carries it, so 'optimal' names what it reaches
  // (with sizes unknown, of the sizes known, as the lower bound is)
  const provenPeak = plan.search?.proven === true || plan.search?.knownSizesProof !== undefined ? plan.peak : undefined;
  const own = ownBoundFields(plan.lowerBound, strategyBounds(target, built, problem), placed.portfolio, replanM1 ? peakOf : undefined, provenPeak);
  const full = units === undefined ? { ...plan, ...own } : withUnits({ ...plan, ...own }, units);
  const spilled = spill === undefined ? {} : { spilled: spilledRecords(spill, problem, planTarget) };
  // a decode step whose runtime keeps its past inputs for the whole step holds past and present at once: the bytes that adds,
  // placed once more, so only for a plan whose explanation is read (not M1's peak or a suggestion's plan made again here)
  const pastKept = runtimePlan === undefined && options.kvPastKept !== false ? kvPastKept(problem, info, new Set(kvCaches(graph).byPast.keys()), strategy, full.peak) : undefined;
  const explained = { ...full, explanation: { peakLive: peakLiveOf(full, graph, target), ...spilled, ...(pastKept !== undefined && { kvPastKept: pastKept }) } };
  // Suggestions plan again a handful of times, after the plan: at the default budget, never reporting to or stopped by its caller.
  const replanOptions = withoutSearchBudget(planOptions);
  const suggestInput: SuggestInput = {
    target,
    strategy,
    strategyGiven: options.strategy !== undefined,
    peak: explained.peak,
    peakLive: explained.explanation.peakLive,
    problem,
    hasComputeUnits: units !== undefined,
    scratchGrowth: explanation.waste.scratchGrowth,
    ...(scratch !== undefined && { withActivationsPeak: scratch.withActivationsPeak }),
    replan: (changed, s, change) => replannedPeak({ model, target, strategy, stage, peak: explained.peak, ...(replanOptions !== undefined && { planOptions: replanOptions }) }, changed, s, change),
    regions: explained.regions.map((r) => ({ name: r.name, fast: r.fast, peak: r.peak })),
    slowTraffic: explained.traffic.after,
    overBy: explained.regions.reduce((sum, r) => sum + r.overBy, 0),
    replanFit: (changed) => fitReplan(planModel(model, changed, { ...options, ...(replanOptions !== undefined && { planOptions: replanOptions }), suggest: false, kvPastKept: false, compareScratch: false })),
  };
  return { plan: explained, suggestInput };
}

/** What the spill suggestion reads of a plan made with a changed target. */
function fitReplan(plan: ModelPlan): FitReplan {
  return {
    peak: plan.peak,
    overBy: plan.regions.reduce((sum, r) => sum + r.overBy, 0),
    spilledBuffers: plan.spill?.spilledBuffers ?? 0,
    regions: plan.regions.map((r) => ({ name: r.name, peak: r.peak, spilled: r.spilled ?? 0, ...(r.sizeLimit !== undefined && { sizeLimit: r.sizeLimit }) })),
  };
}

/**
 * What the plan's search proved: the plan is at the bound of any plan, every region is at its own bound (a split plan
 * whose total is above the bound of any split: no placement of the same split is lower), or the search proved no
 * placement of its buffers lower; else how the search stopped.
 */
function searchRecord(explanation: PlanExplanation, search: PlacedPlan['search'], spillStopped: boolean): PlacedPlan['search'] {
  if (explanation.optimal) return { proven: true, stoppedBy: 'optimal', proof: 'lower-bound' };
  if (explanation.regions.every((r) => r.optimal)) return { proven: true, stoppedBy: 'optimal', proof: 'region-bounds' };
  if (search.proven) return { proven: true, stoppedBy: 'optimal', proof: 'search' };
  // the spill's split stopped at its counted work: a larger budget could choose another split (FastestDet at mcu said
  // 'done' beside "search stopped by its work budget")
  return spillStopped && search.stoppedBy === 'done' ? { ...search, stoppedBy: 'iterations' } : search;
}

/**
 * Whether the spill's search stopped by its counted work where the plan's own searches do: without `budgetMs`. With it,
 * the spill's fixed work limit is one of a search's own limits, which README counts as `done`, never as the clock.
 */
function spillStoppedByWork(spill: SpillResult | undefined, planOptions: PlanOptions | undefined): boolean {
  return spill !== undefined && !spill.proven && planOptions?.budgetMs === undefined;
}

/** The assumptions with each scratch buffer of unknown size among the unknowns (planned as 0 bytes, as a tensor of unknown size is). */
function withUnknownScratch(assumptions: PlanAssumptions, scratch: BuiltProblem['unknownScratch']): PlanAssumptions {
  return scratch.length === 0 ? assumptions : { ...assumptions, unknown: [...assumptions.unknown, ...scratch] };
}

/** `unfused` with each spilled tensor in the region the spill gave it in `placed` (matched by name). */
function spilledRegions(unfused: PlacementProblem, placed: PlacementProblem, wanted: ReadonlyMap<number, string>): PlacementProblem {
  const regionOfName = new Map([...wanted.keys()].map((id) => [placed.buffers[id]!.name, placed.buffers[id]!.region]));
  return { ...unfused, buffers: unfused.buffers.map((b) => (regionOfName.has(b.name) ? { ...b, region: regionOfName.get(b.name) } : b)) };
}

/** Why each buffer live at the peak is there (explain/peak-live.ts). */
function peakLiveOf(plan: PlanCore, graph: InferredGraph, target: TargetProfile): PeakLiveRecord[] {
  return peakLiveReasons({
    graph,
    steps: plan.steps,
    buffers: plan.buffers,
    liveAtPeak: plan.liveAtPeak,
    peakStep: plan.peakStep,
    functions: plan.functions,
    boundaries: plan.boundaries,
    computeUnits: target.computeUnits,
    graphIo: target.planning.graphIo,
  });
}

/** Everything a plan record is written from. */
interface RecordInput {
  readonly target: TargetProfile;
  readonly strategy: string;
  readonly valid: boolean;
  readonly built: BuiltProblem;
  readonly placed: PlacedPlan;
  readonly scratch: ScratchSummary | undefined; // how scratch was placed, with each placement's peak
  readonly explanation: PlanExplanation;
  readonly traffic: Traffic;
  readonly diagnostics: readonly PlanDiagnostic[];
  readonly fused: FusionReport;
  readonly assumptions: PlanAssumptions;
  readonly spill: SpillResult | undefined;
  readonly planOptions: PlanOptions | undefined;
  readonly moves: readonly (RegionMoves | undefined)[]; // bytes moved per buffer over one inference, by id
  readonly weightsMoved: ReadonlyMap<string, RegionMoves>; // bytes of weights read (and copied in at start) per region over one inference
  readonly reserve: ReadonlyMap<string, number>; // bytes weights take per region
  readonly runtime: ReadonlyMap<string, RuntimeArena>; // a runtime's arena per region (TFLite Micro's: the head of the plan written and its tail)
  readonly kv: KvCaches; // the graph's KV caches: its past inputs and present outputs
}

/** The fusion units and explanations of a plan. */
interface FusionReport {
  readonly units: readonly FusionUnitRecord[];
  readonly explanations: readonly FusionExplanation[];
}

function fusionReport(fusion: FoundUnits | undefined, traffic: readonly Traffic[]): FusionReport {
  if (fusion === undefined) return { units: [], explanations: [] };
  return { units: fusion.units.map((u, k) => unitRecord(u, traffic[k]!, fusion.region)), explanations: fusion.explanations };
}

/** A diagnostic for a unit whose halo loads cost more DRAM traffic than the tensors it keeps on chip save. */
function costlyUnit(unit: FusionUnitRecord): PlanDiagnostic[] {
  if (unit.trafficSaved >= 0) return [];
  const redundancy = unit.tile === undefined ? '' : ` (halo redundancy ${unit.tile.redundancyPercent.toFixed(1)} %)`;
  return [{
    code: 'fusion-costs-traffic',
    message: `${unit.name} moves ${-unit.trafficSaved} more DRAM bytes than its layers unfused: its tile loads${redundancy} outweigh the tensors it keeps on chip`,
    node: unit.nodes[0]!,
  }];
}

/** A plan with its compute-unit report (M3). */
function withUnits(plan: PlanCore, units: ComputeUnitPlan): PlanCore {
  return {
    ...plan,
    buffers: plan.buffers.map((b) => {
      const storedAs = units.storedAs.get(b.name);
      return storedAs === undefined ? b : { ...b, storedAs };
    }),
    functions: units.functions,
    boundaries: units.boundaries,
    units: units.units,
    tags: units.tags,
    ...(units.comparison !== undefined && { unitComparison: units.comparison }),
  };
}

/** The plain-data record of a valid plan. */
function planRecord({ target, strategy, valid, built, placed, scratch, explanation, traffic, diagnostics, fused, assumptions, spill, planOptions, moves, weightsMoved, reserve, runtime, kv }: RecordInput): PlanCore {
  const { schedule } = built;
  const held = { weights: reserve, runtime, io: ioBytesByRegion(placed.full.problem, placed.full.info) };
  // Bytes moved are given wherever activations may take more than one region, spilled or not (--spill off), so the two compare.
  const moved = memoryMapOf(target).length > 1 ? moves : undefined;
  const buffers = withKvCacheFlags(withUnknownSizeFlags(bufferRecords(placed.full.problem, placed, wantedRegions(spill), moved, (id) => scratchRequestOf(built, id)), assumptions.unknown), kv);
  const records = regionRecords(target, explanation, placed, { spilled: spilledBytes(spill, placed.full.problem), moves: addMoves(regionMoves(placed.full.problem, moves), weightsMoved), spills: spill !== undefined, moved: moved !== undefined, ...held });
  // a tensor known to need more than 2^53 − 1 bytes is over any size limit: not a size unknown that fits "as far as known"
  const regions = withPastLimit(records, buffers, assumptions.unknown, target.planning.activationRegion);
  const needs = fitNeeds(target, new Map(regions.map((r) => [r.name, r.overBy])));
  return withUnknownSizes({
    peak: explanation.peak,
    lowerBound: explanation.lowerBound,
    strategy,
    valid,
    complete: assumptions.unknown.length === 0,
    fits: regions.every((r) => r.overBy === 0 && r.pastLimit === undefined),
    lowerEstimate: restsOnUnknown(assumptions),
    ...(needs.length > 0 && { fitNeeds: needs }),
    ...(spill !== undefined && { spill: spillSummary(spill, target) }),
    storage: planStorage(target, built.weights.bytes, placed.full.problem, placed.full.info, kvNamesOf(kv), new Set(assumptions.unknown.map((u) => u.tensor))),
    assumptions,
    target: target.name,
    regions,
    buffers,
    fusionUnits: fused.units,
    fusionExplanations: fused.explanations,
    traffic,
    functions: [],
    boundaries: [],
    diagnostics,
    gap: explanation.gap,
    optimal: explanation.optimal,
    search: searchRecord(explanation, placed.search, spillStoppedByWork(spill, planOptions)),
    ...(explanation.peakStep !== undefined && { peakStep: explanation.peakStep }),
    ...(explanation.peakRegion !== undefined && { peakRegion: explanation.peakRegion }),
    liveAtPeak: explanation.liveAtPeak,
    waste: explanation.waste,
    order: { policy: schedule.policy, maxLiveBefore: schedule.fileMaxLiveBytes, maxLiveAfter: schedule.maxLiveBytes, keptFileOrder: schedule.keptFileOrder },
    weights: built.weights,
    ...(scratch !== undefined && { scratch }),
    steps: built.steps,
    bodies: built.bodies,
  });
}

/** What decoding and inference noted (a shape that disagrees, external data, an invalid dim): the plan rests on it too. */
function modelDiagnostics(model: InferredGraph | InferredModel): PlanDiagnostic[] {
  return ((model as Partial<InferredModel>).diagnostics ?? []).map((d) => ({ code: d.code, message: d.message, ...(d.node !== undefined && { node: d.node }) }));
}

/**
 * The plan with its runtime plan, and a note when the file's own offline plan,
 * not this one, is what the runtime will use. A model the runtime refuses does
 * not fit a limited arena: no arena of any size makes AllocateTensors() succeed.
 */
function withRuntimePlan(record: PlanCore, runtimePlan: RuntimePlan, arenaRegion: string): PlanCore {
  const refused = (runtimePlan.refused ?? []).length > 0 && record.regions.some((r) => r.name === arenaRegion && r.sizeLimit !== undefined);
  return { ...record, runtimePlan, ...(refused && { fits: false }), diagnostics: [...record.diagnostics, ...filePlanNotes(runtimePlan)] };
}

/** A runtime target asked of a model the runtime does not read. */
function runtimeDiagnostics(model: InferredGraph | InferredModel, target: TargetProfile): PlanDiagnostic[] {
  if (target.planning.runtime !== 'tflm' || (model as Partial<InferredModel>).tflite !== undefined) return [];
  return [{ code: 'runtime-needs-tflite', message: `target ${target.name} reproduces TensorFlow Lite Micro's own plan for .tflite models only; this model is planned as on any target` }];
}

function limitDiagnostics(target: TargetProfile, peaks: ReadonlyMap<string, number>, reserve: ReadonlyMap<string, number>, runtime: ReadonlyMap<string, RuntimeArena>): PlanDiagnostic[] {
  const out: PlanDiagnostic[] = [];
  for (const region of target.regions) {
    const weights = reserve.get(region.name) ?? 0;
    const arena = runtime.get(region.name);
    const tail = arena?.tail ?? 0;
    const peak = regionUsed(peaks.get(region.name) ?? 0, weights, arena);
    if (region.sizeLimit !== undefined && peak > region.sizeLimit) {
      const over = peak - region.sizeLimit;
      const held = [tail > 0 ? `${formatBytes(tail)} of it TFLite Micro's persistent tail and planning` : '', weights > 0 ? `${formatBytes(weights)}${tail > 0 ? '' : ' of it'} weights` : ''].filter((t) => t !== '');
      const declare = arena === undefined ? '' : `${arena.tailEstimated === true ? ' (estimate)' : ''} as the tensor arena to declare with the plan written`;
      out.push({
        code: 'over-limit',
        message: `region ${region.name} needs ${formatBytes(peak)}${declare}${held.length > 0 ? ` (${held.join(', ')})` : ''}, ${formatBytes(over)} over its size limit of ${formatBytes(region.sizeLimit)} (${formatCount(peak)} > ${formatCount(region.sizeLimit)} bytes)`,
      });
    }
  }
  return out;
}
