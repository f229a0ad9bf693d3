// The memory map as the side bar draws it: one bar per region of the plan,
// its peak against its size limit, split into what is live at the region's
// fullest step (graph inputs and outputs, a decoder's KV cache, activations,
// scratch: the live-bytes chart's kinds, liveKind in buffer-classes.ts) and the rest of
// the peak (holes, alignment, scratch grown into free space), below them the
// weights the target keeps in the region; where the weights and the graph's
// inputs and outputs are; the bytes moved there over one inference; and the words both the side bar and the heap's
// export write under each bar. Plain functions over a plan; no DOM.

import type { ModelPlan } from '../../planner/plan';
import type { WeightsHome } from '../../planner/targets/target';
import { formatBytes } from '../../shared/format';
import { declaredArenaText, type ArenaStanding } from '../../planner/diff/delta-words';
import { arenaStanding } from '../details/runtime-plan-words';
import { liveKind, type LiveKind } from '../heap/buffer-classes';
import { liveBytes, sharingGroups } from '../heap/live-bytes';

/** One region's bar. */
export interface MapBar {
  readonly name: string;
  readonly fast: boolean;
  readonly peak: number; // bytes the region's arena spans
  readonly weights: number; // bytes of weights kept at the region's base, below the arena
  readonly used: number; // weights + peak + tail
  readonly complete: boolean; // false when some buffer's size is unknown: `used` and `overBy` are lower estimates
  readonly lowerBound: number;
  readonly sizeLimit: number | undefined;
  readonly overBy: number; // bytes above the limit; 0 when within it or without one
  readonly spilled: number | undefined; // bytes placed here that wanted a faster region (0 when none did; undefined in a plan file written before regions always carried it)
  readonly spilledBuffers: number; // buffers placed here that wanted a faster region
  readonly step: number | undefined; // the fullest step; undefined when the region holds nothing
  readonly io: number; // bytes of graph inputs and outputs (but the KV cache) live at `step`
  readonly kv: number; // bytes of a decoder's KV cache (its past inputs and present outputs) live at `step`
  readonly activations: number; // bytes of other tensors (activations, copies, caches, subgraph bodies) live at `step`
  readonly scratch: number; // bytes of scratch live at `step`
  readonly rest: number; // peak - io - kv - activations - scratch: holes, padding, grown scratch elsewhere
  readonly tail: number; // bytes the runtime keeps in the region beside the plan (TensorFlow Lite Micro's tail in the tensor arena, plan --json's runtimeTail)
  readonly moved: { readonly written: number; readonly read: number } | undefined; // bytes written and read over one inference (plan --json's moved); undefined when the plan does not give them
  readonly runtime?: BarRuntime; // TensorFlow Lite Micro's tensor arena, in the region that is it
}

/** What TensorFlow Lite Micro declares for a region that is its tensor arena. */
export interface BarRuntime {
  readonly head: number; // the head it reaches with the plan written into the file (runtimePlan.planned.head)
  readonly drawn: boolean; // that plan is the one drawn (its head is the region's peak)
  readonly arena: number; // the tensor arena to declare with the plan written (the bar's `used`)
  readonly asIs: number; // the tensor arena to declare for the file as it is
  readonly standing: ArenaStanding; // both arenas are lower estimates, or TFLite Micro refuses the model (no arena works)
}

/** The memory map of a plan. */
export interface MemoryMap {
  readonly bars: readonly MapBar[];
  readonly weights: { readonly bytes: number; readonly tensors: number; readonly unknownSizes: number; readonly in: string; readonly copied: boolean; readonly home: WeightsHome }; // `in`: a region, or 'flash' (outside the regions, where `home` says)
  // graph inputs and outputs over the whole run: planned in the arena, or the application's buffers; `bytes` their data,
  // `placed` what the arena gives them (aligned), `kv` the bytes of them that are a KV cache (0 in plans saved before it was recorded)
  // unknown: graph inputs and outputs of unknown size, planned as 0 bytes, which `bytes` leaves out
  readonly io: { readonly owner: 'arena' | 'application'; readonly bytes: number; readonly placed: number; readonly kv: number; readonly unknown: number };
  readonly kv: boolean; // the model has a KV cache, which the key then names
  readonly tail: boolean; // a region holds a runtime's tail, which the key then names
}

type Part = 'io' | 'kv' | 'activations' | 'scratch';
const PARTS: readonly Part[] = ['io', 'kv', 'activations', 'scratch'];
/** The part of the bar each kind of live bytes (the live-bytes chart's rows) is counted in. */
const PART_OF: Readonly<Record<LiveKind, Part>> = {
  io: 'io',
  kv: 'kv',
  activation: 'activations',
  copy: 'activations',
  cache: 'activations',
  scratch: 'scratch',
  subgraph: 'activations',
};

/** The memory map of `plan`, the tensors named in `kv` (kv-cache-names.ts) as KV cache: a bar per region that the plan names or that holds buffers. */
export function memoryMapData(plan: ModelPlan, kv: ReadonlySet<string> = new Set()): MemoryMap {
  const steps = Math.max(1, plan.steps.length, ...plan.buffers.map((b) => b.end));
  const shared = sharingGroups(plan.buffers);
  const bars = plan.regions.map((r): MapBar => {
    const live = (part: Part) => liveBytes(shared, (root) => root.region === r.name && PART_OF[liveKind(root, kv)] === part, steps);
    const parts = Object.fromEntries(PARTS.map((p) => [p, live(p)])) as Record<Part, Float64Array>;
    const step = fullestStep(parts, steps, r.peakStep);
    const at = (part: Part) => (step === undefined ? 0 : parts[part][step]!);
    const spilled = plan.buffers.filter((b) => b.region === r.name && b.wanted !== undefined);
    const used = PARTS.reduce((sum, p) => sum + at(p), 0);
    return {
      name: r.name,
      fast: r.fast,
      peak: r.peak,
      weights: r.weights ?? 0,
      used: r.used ?? r.peak,
      complete: plan.complete,
      lowerBound: r.lowerBound,
      sizeLimit: r.sizeLimit,
      overBy: r.overBy ?? (r.sizeLimit === undefined ? 0 : Math.max(0, (r.used ?? r.peak) - r.sizeLimit)),
      spilled: r.spilled,
      spilledBuffers: spilled.length,
      step,
      io: at('io'),
      kv: at('kv'),
      activations: at('activations'),
      scratch: at('scratch'),
      rest: Math.max(0, r.peak - used),
      tail: r.runtimeTail ?? 0,
      moved: r.moved,
      ...(r.runtimeHead !== undefined && plan.runtimePlan !== undefined && {
        runtime: { head: r.runtimeHead, drawn: r.runtimeHead === r.peak, arena: plan.runtimePlan.planned.arena, asIs: plan.runtimePlan.arena, standing: arenaStanding(plan.runtimePlan) },
      }),
    };
  });
  const storage = plan.storage;
  return {
    bars,
    weights: { bytes: plan.weights.bytes, tensors: plan.weights.tensors, unknownSizes: plan.weights.unknownSizes ?? 0, in: storage?.weights.in ?? 'flash', copied: storage?.weights.copied ?? false, home: storage?.weights.home ?? 'flash' },
    io: { owner: storage?.io.owner ?? 'arena', bytes: storage?.io.bytes ?? 0, placed: storage?.io.inArena ?? 0, kv: storage?.io.kvBytes ?? 0, unknown: storage?.io.unknownSizes ?? 0 },
    kv: kv.size > 0,
    tail: bars.some((b) => b.tail > 0),
  };
}

/** The plan's peak step of the region when it has one, else the step where most bytes are live. */
function fullestStep(parts: Readonly<Record<Part, Float64Array>>, steps: number, peakStep: number | undefined): number | undefined {
  if (peakStep !== undefined && peakStep < steps) return peakStep;
  let best: number | undefined;
  let most = 0;
  for (let t = 0; t < steps; t++) {
    const total = PARTS.reduce((sum, p) => sum + parts[p][t]!, 0);
    if (total > most) [best, most] = [t, total];
  }
  return best;
}

/** A bar's parts from the region's base up, with the words that name them. */
export const MAP_PARTS = [
  { key: 'weights', label: 'weights' },
  { key: 'io', label: 'I/O' },
  { key: 'kv', label: 'KV cache' },
  { key: 'activations', label: 'activations' },
  { key: 'scratch', label: 'scratch' },
  { key: 'rest', label: 'holes and padding' },
  { key: 'tail', label: 'runtime tail and planning' },
] as const;

/** The parts a map's key and titles name: the KV cache and the runtime's tail only where the map has them. */
export function shownParts(map: Pick<MemoryMap, 'kv' | 'tail'>): readonly (typeof MAP_PARTS)[number][] {
  return MAP_PARTS.filter((p) => (p.key !== 'kv' || map.kv) && (p.key !== 'tail' || map.tail));
}

/** The name of one part of a bar. */
export type MapPart = (typeof MAP_PARTS)[number]['key'];

/**
 * "fast" or "slow" beside a region's name, only where there is another to
 * compare it with: a target's only memory (the cpu's ram) is neither.
 */
export function barSpeedText(bar: Pick<MapBar, 'fast'>, map: Pick<MemoryMap, 'bars'>): string {
  return map.bars.length < 2 ? '' : bar.fast ? 'fast' : 'slow';
}

/** The bytes a bar's full length stands for: the limit, or what the region holds (or the parts drawn) when that is more or there is no limit. */
export function barScale(bar: MapBar): number {
  // the parts drawn are the plan drawn, which can exceed what the region holds when TFLite Micro runs another plan
  return Math.max(bar.used, bar.weights + bar.peak + bar.tail, bar.sizeLimit ?? 0, 1);
}

/** Whether a bar's `used` (and `overBy`) is a lower estimate: some size unknown, or TensorFlow Lite Micro's arena resting on a kernel's scratch requests not known. */
export function barLowerEstimate(bar: Pick<MapBar, 'complete' | 'runtime'>): boolean {
  return !bar.complete || bar.runtime?.standing.lowerEstimate === true;
}

/**
 * "506 KiB / 512 KiB", and " · 5.00 KiB over" when the region holds more than its limit; "≥ 160 B / 512 KiB" when
 * some size is unknown or TensorFlow Lite Micro's arena is a lower estimate, "80.4 KiB (estimate) / 512 KiB" when it
 * rests on its tail's estimated parts (each as Details writes it, declaredArenaText); "none works / 512
 * KiB · TFLite Micro refuses the model" for a tensor arena no size of which TFLite Micro accepts.
 */
export function barUsedText(bar: MapBar): string {
  const least = barLowerEstimate(bar) ? '≥ ' : '';
  const limit = bar.sizeLimit === undefined ? '' : ` / ${formatBytes(bar.sizeLimit)}`;
  if (bar.runtime?.standing.refused === true) return `${declaredArenaText(bar.used, bar.runtime.standing)}${limit} · TFLite Micro refuses the model`;
  // TensorFlow Lite Micro's arena is written as Details writes it, an estimate said so
  const used = bar.runtime === undefined ? `${least}${formatBytes(bar.used)}` : declaredArenaText(bar.used, { ...bar.runtime.standing, lowerEstimate: least !== '' });
  return `${used}${limit}${bar.overBy > 0 ? ` · ${least}${formatBytes(bar.overBy)} over` : ''}`;
}

/** "at its fullest step 18: weights 232 KiB · I/O 300 KiB · KV cache 240 KiB · activations 200 KiB · scratch 8.00 KiB": the parts live at the fullest step (weights, KV cache and scratch when there are some), which the words name so a part absent there (an output written later) does not read as absent from the region. */
export function barPartsText(bar: MapBar): string {
  const weights = bar.weights > 0 ? `weights ${formatBytes(bar.weights)} · ` : '';
  const at = bar.step === undefined ? '' : `at its fullest step ${bar.step}: `;
  const kv = bar.kv > 0 ? ` · KV cache ${formatBytes(bar.kv)}` : '';
  const tail = bar.tail > 0 ? ` · TFLite Micro's tail and planning ${formatBytes(bar.tail)}` : '';
  return `${at}${weights}I/O ${formatBytes(bar.io)}${kv} · activations ${formatBytes(bar.activations)}${bar.scratch > 0 ? ` · scratch ${formatBytes(bar.scratch)}` : ''}${tail}${runtimeText(bar)}`;
}

/**
 * " · the tensor arena to declare with heapscope's plan written in: ≥ 3.55 MiB (≥ 4.05 MiB for the file as it is)",
 * each arena as Details writes it (declaredArenaText); the head of the plan written when it is not the one drawn.
 */
function runtimeText(bar: MapBar): string {
  const r = bar.runtime;
  if (r === undefined) return '';
  const accepted = { ...r.standing, refused: false };
  const asIs = r.asIs === r.arena ? ', as for the file as it is' : ` (${declaredArenaText(r.asIs, accepted)} for the file as it is)`;
  const head = r.drawn ? '' : `; the plan written peaks at ${formatBytes(r.head)}, not the plan drawn`;
  const arena = `the tensor arena to declare with the plan written in: ${declaredArenaText(r.arena, accepted)}${asIs}${head}`;
  if (!r.standing.refused) return ` · ${arena}`;
  return ` · TFLite Micro refuses the model: no tensor arena works, AllocateTensors() fails whatever its size (Details says why); were it accepted, ${arena}`;
}

/** "moved 10.6 MiB written, 11.0 MiB read per inference"; undefined when the plan does not give bytes moved. */
export function barMovedText(bar: MapBar): string | undefined {
  if (bar.moved === undefined) return undefined;
  return `moved ${formatBytes(bar.moved.written)} written, ${formatBytes(bar.moved.read)} read per inference`;
}

/** "45 buffers spilled here, 11.1 MiB of them in all over the run": a total over every step, not bytes held at once; undefined when nothing spilled to the region. */
export function barSpilledText(bar: MapBar): string | undefined {
  if (bar.spilled === undefined || bar.spilled === 0) return undefined;
  const count = bar.spilledBuffers;
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'buffer' : 'buffers'} spilled here, ${formatBytes(bar.spilled)} of ${count === 1 ? 'it' : 'them'} in all over the run`;
}

/**
 * "weights 232 KiB in 57 tensors, in flash (not in a region)", "…, outside the planned regions (loaded or mapped by the
 * runtime)" on a host, which has no flash, "…, in sram below its arena, copied from flash at start"; "weights at least
 * 64 B in 2 tensors (1 of unknown size, counted as 0 bytes), …" where a weight's size is unknown.
 */
export function weightsText(map: MemoryMap): string {
  const outside = map.weights.home === 'runtime' ? 'outside the planned regions (loaded or mapped by the runtime)' : 'in flash (not in a region)';
  const from = map.weights.home === 'runtime' ? 'copied there at start' : 'copied from flash at start';
  const where = map.weights.in === 'flash' ? outside : `in ${map.weights.in} below its arena${map.weights.copied ? `, ${from}` : ''}`;
  // a weight of unknown size is counted as 0 bytes: the figure is at least so many, as plan's weights line says
  const unknown = map.weights.unknownSizes;
  const least = unknown > 0 ? 'at least ' : '';
  const left = unknown > 0 ? ` (${unknown.toLocaleString('en-US')} of unknown size, counted as 0 bytes)` : '';
  return `weights ${least}${formatBytes(map.weights.bytes)} in ${map.weights.tensors.toLocaleString('en-US')} tensors${left}, ${where}`;
}

/**
 * "graph I/O 300 KiB in all over the run, planned in the arena", "graph I/O 9.00 KiB of data (9.02 KiB as placed, with
 * alignment) in all over the run, …" (the bars' I/O is as placed), "graph I/O 45.2 KiB in all over the run, 40.5 KiB of
 * it KV cache, …" or "…, the application's own buffers, outside the arena"; "graph I/O at least 16.0 KiB … (1 of unknown
 * size, planned as 0 bytes), …" when some are of unknown size. A total over the run, not bytes held at once: it may pass
 * the region's peak, and the words say so.
 */
export function ioText(map: MemoryMap): string {
  // the figure as placed only where it reads apart from the data's: "2.45 MiB of data (2.45 MiB as placed)" said nothing
  const apart = map.io.placed > map.io.bytes && formatBytes(map.io.placed) !== formatBytes(map.io.bytes);
  const placed = map.io.owner === 'arena' && apart ? ` of data (${formatBytes(map.io.placed)} as placed, with alignment)` : '';
  const kv = map.io.kv > 0 ? `, ${formatBytes(map.io.kv)} of it KV cache` : '';
  // never the unknown counted as zero: a total of the sizes known is a lower estimate
  const least = map.io.unknown > 0 ? 'at least ' : '';
  const left = map.io.unknown > 0 ? ` (${map.io.unknown} of unknown size, planned as 0 bytes)` : '';
  return `graph I/O ${least}${formatBytes(map.io.bytes)}${placed} in all over the run${kv}${left}, ${map.io.owner === 'application' ? "the application's own buffers, outside the arena" : 'planned in the arena'}`;
}
