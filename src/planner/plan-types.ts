// The finished plan's types: what planModel returns, `plan --json` prints,
// a saved plan file holds and the worker sends to the page. Field names are a
// stable interface (DESIGN.md). Types only; the stages that fill them in
// import nothing from here but the types, so no stage reaches up to the entry
// point (plan.ts) for them.

import type { BoundaryRecord, ComputeUnitPlan, FunctionRecord, UnitRecord } from './compute-units/compute-plan';
import type { MemoryTags } from './compute-units/memory-tags';
import type { StoredAs } from './compute-units/stored-as';
import type { LiveBuffer, Waste } from './assembly/explain-plan';
import type { BranchChoice, DimAssumption, PlanAssumptions, UnknownAssumption } from './assembly/assumptions';
import type { PlacementSearch, ScratchSummary } from './assembly/placement';
import type { PlannedBuffer, RegionPlan, SpillSummary } from './assembly/plan-records';
import type { PeakLiveRecord } from './explain/peak-live';
import type { KvPastKept } from './explain/kv-past-kept';
import type { Suggestion, SuggestionStep } from './explain/suggest';
import type { FusionExplanation, FusionUnitRecord } from './fusion/fusion-types';
import type { BufferKind, PlanDiagnostic } from './problem/build-buffers';
import type { BodyPeak, StepInfo, WeightsSummary } from './problem/build-problem';
import type { Traffic } from './problem/build-traffic';
import type { FitNeed, RegionMoves, SpilledRecord } from './spill/spill-report';
import type { PlanStorage } from './spill/weights-io';
import type { OrderPolicy } from './targets/target';
import type { RuntimePlan } from './tflm/runtime-plan';

export type { RuntimePlan, StoredAs };
export type { BranchChoice, DimAssumption, PlanAssumptions, UnknownAssumption };
export type { FitNeed, PlanStorage, PlannedBuffer, RegionMoves, RegionPlan, SpilledRecord, SpillSummary };
export type { BodyPeak, BufferKind, FusionExplanation, FusionUnitRecord, LiveBuffer, PeakLiveRecord, PlacementSearch, PlanDiagnostic, ScratchSummary, StepInfo, Suggestion, SuggestionStep, Traffic, Waste, WeightsSummary };

/** How the execution order changed the most bytes live at once. */
export interface OrderEffect {
  readonly policy: OrderPolicy;
  readonly maxLiveBefore: number; // in the file's order
  readonly maxLiveAfter: number; // in the order used
  readonly keptFileOrder: boolean; // the policy's order was no better
}

/** How the portfolio's plan compares with M1's, when the strategy is `best`. */
export interface PortfolioWinner {
  readonly winner: string; // the candidate strategy whose plan was kept, or 'best' (its own search)
  readonly m1Peak?: number; // the M1 plan's peak under the same settings; absent when thousands of buffers are live at once (M1 is pairwise)
  readonly winnerPeak?: number; // the winner's own plan's peak (the winner chosen as the strategy), when the plan kept is not it: on a memory map `best` splits the buffers with its own placements and keeps the winner's placement of that split
}

/** A plan of a model for a target. Field names are a stable interface (DESIGN.md). */
export interface ModelPlan {
  readonly peak: number;
  readonly lowerBound: number; // a bound on every valid plan of this model, target and dims, whatever the strategy
  readonly strategyBound?: number; // the bound of this strategy's own sharing choices, when above lowerBound
  readonly strategy: string;
  readonly valid: boolean;
  readonly complete: boolean; // false when some run-time tensor's size is unknown: the peak is a lower estimate
  readonly fits: boolean; // every region within its size limit (after spilling)
  readonly lowerEstimate?: boolean; // the figures `fits` is judged on are lower estimates (a size unknown, or a TFLM kernel's scratch requests unknown): it fits only as far as known; absent in plans saved before it
  readonly fitNeeds?: readonly FitNeed[]; // when it does not fit: each memory that, grown alone, would make it fit
  readonly spill?: SpillSummary; // present when the target spills along its memory map
  readonly storage?: PlanStorage; // where weights and graph inputs/outputs are; absent in older plan files
  readonly assumptions: PlanAssumptions;
  readonly portfolio?: PortfolioWinner;
  readonly target: string;
  readonly regions: readonly RegionPlan[];
  readonly buffers: readonly PlannedBuffer[];
  readonly fusionUnits: readonly FusionUnitRecord[]; // M2 'tfu' and M5 'dw-pw' units, in execution order
  readonly fusionExplanations: readonly FusionExplanation[]; // why each layer considered is or is not in a unit
  readonly traffic: Traffic;
  readonly functions: readonly FunctionRecord[]; // compute-unit partitions (M3); empty without compute units
  readonly boundaries: readonly BoundaryRecord[]; // sharing decisions between functions (M3)
  readonly units?: readonly UnitRecord[]; // the target's compute units and what they run
  readonly tags?: MemoryTags; // memory tags of the compute-unit plan (M3)
  readonly unitComparison?: ComputeUnitPlan['comparison']; // shared vs copy-everywhere peaks, when some boundary is shared
  readonly diagnostics: readonly PlanDiagnostic[];
  readonly gap: number; // peak / lowerBound - 1
  readonly optimal: boolean; // the peak is at the lower bound
  readonly search?: PlacementSearch; // proven: at the lower bound or by an exhaustive search of these buffers; absent in older plan files
  readonly peakStep?: number;
  readonly peakRegion?: string;
  readonly liveAtPeak: readonly LiveBuffer[];
  // why each buffer live at the peak is there; why the largest spilled buffers went; what a runtime keeping a KV cache's past inputs for the whole step adds
  readonly explanation: { readonly peakLive: readonly PeakLiveRecord[]; readonly spilled?: readonly SpilledRecord[]; readonly kvPastKept?: KvPastKept };
  readonly suggestions?: readonly Suggestion[]; // evaluated changes that lower the peak, when asked for
  readonly waste: Waste;
  readonly order: OrderEffect;
  readonly weights: WeightsSummary;
  readonly scratch?: ScratchSummary;
  readonly steps: readonly StepInfo[];
  readonly bodies: readonly BodyPeak[];
  readonly runtimePlan?: RuntimePlan; // a TFLite model for a TFLite Micro target: the runtime's own plan, its arena and heapscope's plan handed back
}
