// The target profile: one JSON document describing the machine a plan is for
// (memory regions, compute units, fusion, scratch rules, planning policy), and
// its validating parser. Plain data; depends only on src/shared and the planner.

import type { OpKind } from '../problem/op-kinds';

/** A memory region (arena) of the target, planned and reported on its own. */
export interface MemoryRegion {
  readonly name: string;
  readonly sizeLimit?: number; // bytes; a plan above it gets an 'over-limit' diagnostic
  readonly alignment: number; // offset and size alignment in bytes, a power of two
  readonly fast: boolean; // fast (on-chip SRAM) or slow (DRAM, external RAM)
}

/** How a compute unit stores activations (M3). */
export interface DtypePolicy {
  readonly activations: string; // dtype name, e.g. 'int8', 'float16', or 'model' to keep the file's
  readonly fakeQuantization: boolean; // a FakeQuantize/QuantizeLinear after an op sets the stored type
}

/** A compute unit a partition of the graph can run on (M3). */
export interface ComputeUnit {
  readonly name: string;
  readonly opTypes: readonly string[]; // op types it runs; '*' for every op
  readonly dtype: DtypePolicy;
  readonly alignment: number; // bytes, a power of two
  readonly constraints?: UnitConstraints; // limits on the ops it takes beyond their type
}

/** Limits a compute unit puts on the ops it runs (M3 partitioning). */
export interface UnitConstraints {
  readonly maxConvKernel?: number; // Conv/ConvTranspose kernels up to this size on every spatial axis
}

/** Switches and thresholds of template fusion units (M2). */
export interface TfuRules {
  readonly start: 'first-unfused' | 'first-conv-pool';
  readonly direction: 'forward' | 'backward-then-forward';
  readonly preferBlocks: boolean;
  readonly singleOutput: boolean;
  readonly minMainLayers: number;
  readonly mainMainNonMain: boolean;
  readonly scalarThenVector: boolean;
  readonly skipSharedWeights: boolean;
  readonly redundancyPercent: number; // halo traffic over unsplit traffic, at most
  readonly strideRedundancy: number; // sum of (kernel - stride) per axis, at most
  readonly maxSmallMaps: number; // feature maps in one small-map tile, at most
  readonly split: 'large-to-small' | 'small-to-large';
}

/** On-chip memories of a multi-core cluster and the fusion rules (M2, M5). */
export interface FusionSettings {
  readonly enabled: boolean; // plan fusion units at all (off: the plan is the unfused one, to compare)
  readonly templateUnits: boolean; // plan template fusion units (M2)
  readonly onChipRegion?: string; // region the units' on-chip buffers are planned in (default: the first fast region)
  readonly sramBytes: number; // shared on-chip memory per cluster
  readonly nramBytes: number; // neuron memory per core
  readonly wramBytes: number; // weight memory per core
  readonly coresPerCluster: number;
  readonly rules: TfuRules;
  readonly dwPwCacheBytes?: number; // depthwise + pointwise cache capacity (M5)
}

/** A per-op-type scratch buffer (M4). */
export interface ScratchRule {
  readonly opType: string; // 'Conv', or 'domain::OpType' for other domains
  readonly name: string; // label shown in the plan, e.g. 'im2col'
  readonly bytes?: number; // fixed size (exactly one of bytes / formula)
  readonly formula?: string; // size as a formula of the op's shapes, see scratch/formula.ts
  readonly variable: boolean; // size decided at placement; bytes/formula is then the minimum
  readonly latencyCritical: boolean; // goes to a fast region
  readonly overlay: boolean; // may share bytes with another scratch buffer of the same op
}

/** Which way M4 places and grows. */
export type ScratchSide = 'bottom' | 'top';
/** What M4 retries optimise. */
export type ScratchCriterion = 'no-growth' | 'smallest-heap' | 'least-fragmentation' | 'most-fast';

/** Where scratch goes: M4 in the free areas the planned activations leave, or planned with them as ordinary buffers. */
export type ScratchPlacement = 'free-areas' | 'with-activations';

/** Scratch rules and how scratch is placed. */
export interface ScratchSettings {
  readonly rules: readonly ScratchRule[];
  readonly placement: ScratchPlacement; // M4 after activations, or planned with them
  readonly side: ScratchSide; // end of a free area a fixed buffer takes
  readonly grow: ScratchSide; // end of the heap that grows when nothing fits
  readonly retries: boolean; // try the other sides (and fast-first) and keep the best
  readonly criterion: ScratchCriterion;
}

/** Execution-order policy. */
export type OrderPolicy = 'file' | 'depth-first' | 'memory-aware';
/** Graph I/O lifetime policy: inputs from step 0 and outputs to the end, or only while used. */
export type GraphIoPolicy = 'whole-run' | 'as-used';

/** How activations are planned. */
export interface PlanningSettings {
  readonly strategy: string; // a strategy name (see strategies/registry.ts)
  readonly order: OrderPolicy;
  readonly graphIo: GraphIoPolicy;
  readonly activationRegion: string; // region name activations are planned in
  readonly opKinds: Readonly<Record<string, OpKind>>; // overrides of the op-kind table, by op type
  readonly runtime?: RuntimeName; // plan a model as this runtime's allocator does (TFLite models); absent: no runtime
  readonly spill?: SpillMode; // activations that do not fit a region of the memory map go to the next (spill/); 'off': all in the activation region; absent: 'on'
  readonly memoryMap?: readonly string[]; // regions activations may take, fastest first; default: see memoryMapOf (spill/memory-map.ts)
  readonly pins?: readonly RegionPin[]; // buffers a rule keeps in a region of the memory map, whatever they earn
  readonly weights?: WeightsPlacement; // where the model's weights live; absent: outside every region, where weightsHome says
  readonly weightsHome?: WeightsHome; // where weights placed in no region are; absent: 'flash'
  readonly io?: IoOwner; // who holds graph inputs and outputs; absent: 'arena'
}

/** Where weights live: `region` absent is flash (outside every region); else a RAM region they take for the whole run, loaded there or `copied` from flash at start. */
export interface WeightsPlacement {
  readonly region?: string;
  readonly copied: boolean; // stored in flash and copied to `region` at start (false when `region` is absent)
}

/**
 * Where weights placed in no region are: 'flash', read in place (a
 * microcontroller), or 'runtime', outside the planned regions, loaded or
 * mapped into memory by the runtime (a host, which has no flash).
 */
export type WeightsHome = 'flash' | 'runtime';

/** Graph inputs and outputs: buffers of the arena, or the application's own buffers outside it. */
export type IoOwner = 'arena' | 'application';

/** Whether activations spill along the memory map. */
export type SpillMode = 'on' | 'off';

/** A rule that keeps buffers in one region: those produced by an op type, or a tensor by name. */
export interface RegionPin {
  readonly opType?: string; // buffers produced by this op type
  readonly tensor?: string; // the buffer of this tensor (exact name)
  readonly region: string;
}

/** A runtime whose allocator heapscope reproduces: TensorFlow Lite Micro. */
export type RuntimeName = 'tflm';

/** The whole target profile. */
export interface TargetProfile {
  readonly name: string;
  readonly description: string;
  readonly regions: readonly MemoryRegion[];
  readonly computeUnits: readonly ComputeUnit[];
  readonly fusion?: FusionSettings;
  readonly scratch: ScratchSettings;
  readonly planning: PlanningSettings;
}

/** The region activations are planned in. */
export function activationRegionOf(target: TargetProfile): MemoryRegion {
  const region = target.regions.find((r) => r.name === target.planning.activationRegion);
  return region ?? target.regions[0]!;
}

/**
 * The regions activations may take, fastest first (the decision is in spill/memory-map.ts, which spills along
 * it; here so the parser can check a pin against it): `planning.memoryMap` when given, else the activation
 * region, followed, when that region is fast, by the slow regions in profile order.
 */
export function memoryMapOf(target: Pick<TargetProfile, 'regions' | 'planning'>): readonly MemoryRegion[] {
  const listed = target.planning.memoryMap;
  if (listed !== undefined) return listed.map((name) => target.regions.find((r) => r.name === name)!).filter((r) => r !== undefined);
  const home = target.regions.find((r) => r.name === target.planning.activationRegion) ?? target.regions[0]!;
  if (!home.fast) return [home];
  return [home, ...target.regions.filter((r) => !r.fast && r.name !== home.name)];
}

/** The region a scratch buffer goes to: fast for latency-critical, slow otherwise, else the activations'. */
export function scratchRegionOf(target: TargetProfile, latencyCritical: boolean): MemoryRegion {
  const home = activationRegionOf(target);
  if (home.fast === latencyCritical) return home;
  return target.regions.find((r) => r.fast === latencyCritical) ?? home;
}
