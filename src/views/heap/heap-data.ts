// The heap diagram's view model: a plan's buffers as flat typed arrays (one
// entry per buffer, in plan order), one lane per memory region that holds
// bytes (the others named in a line instead, empty-regions.ts), live bytes per
// step and a spatial index per lane for hit testing. Built once per plan, so
// drawing and hovering never walk the plan's objects.

import type { InferredModel } from '../../model/inferred';
import type { IrQuantization } from '../../model/ir-tflite';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { bufferClass, KIND_CLASSES } from './buffer-classes';
import { quantizationOf } from '../quantization';
import { liveBytes, sharingGroups } from './live-bytes';
import { laneLimit, type LaneLimit } from './lane-limit';
import { RectIndex } from './rect-index';
import { emptyRegionsText, laneRegions } from './empty-regions';

const CLASS_INDEX: ReadonlyMap<string, number> = new Map(KIND_CLASSES.map((k, i) => [k, i]));

/** One memory region of the plan, drawn as a horizontal lane. */
export interface HeapLane {
  readonly name: string;
  readonly peak: number; // bytes
  readonly lowerBound: number; // bytes
  readonly limit: LaneLimit | undefined; // the size limit on the lane's arena addresses (weights at the region's base taken off); undefined without one
  readonly peakStep: number | undefined; // the first step a buffer reaches the peak (the peak marker), else the step where the bound is reached
  readonly extent: number; // bytes the lane's address axis spans
  readonly live: Float64Array; // bytes live at each step (shared bytes counted once)
  readonly index: RectIndex; // buffers of the lane, in (step, address) space
  readonly buffers: number; // how many buffers the lane holds
}

/** The whole diagram's data. */
export interface HeapData {
  readonly plan: ModelPlan;
  readonly steps: number; // the step axis spans [0, steps)
  readonly count: number;
  readonly start: Int32Array; // by buffer index
  readonly end: Int32Array;
  readonly offset: Float64Array;
  readonly size: Float64Array;
  readonly lane: Uint16Array; // NO_LANE for a buffer of no bytes in a region that holds nothing
  readonly kindClass: Uint8Array; // index into KIND_CLASSES
  readonly shared: Uint8Array; // 1 when the buffer shares its bytes with a parent (alias, window)
  readonly spilled: Uint8Array; // 1 when the buffer wanted a faster region of the memory map and spilled here
  readonly drawOrder: Uint32Array; // buffer indices: owners before sharers, then by colour class
  readonly lanes: readonly HeapLane[]; // none when no region holds a byte
  readonly laneOf: ReadonlyMap<string, number>;
  readonly regions: readonly string[]; // the regions of the lanes, then those of buffers without one (of no bytes)
  readonly emptyRegions: string | undefined; // the line naming the plan's regions without a lane (empty-regions.ts)
  readonly indexOfId: ReadonlyMap<number, number>; // plan buffer id -> index
}

/** The lane of a buffer of no bytes in a region that holds nothing, and so has no lane. */
export const NO_LANE = 0xffff;

/** Builds the view model of `plan`, the tensors named in `kv` coloured as KV cache; see the module header. */
export function heapData(plan: ModelPlan, kv: ReadonlySet<string> = new Set()): HeapData {
  const buffers = plan.buffers;
  const count = buffers.length;
  // One lane per region that holds bytes, in the target's order; a region of no buffers or only empty ones gets none
  // (an axis of 0 B to a made-up 1 B said nothing true), and the line of emptyRegions says so.
  // a region over its limit gets its lane even when it holds no buffer (its weights alone overflow it)
  const laneOf = new Map(laneRegions(plan).map((name, index) => [name, index]));
  const regions = [...laneOf.keys()];
  for (const b of buffers) if (!regions.includes(b.region)) regions.push(b.region);
  let steps = plan.steps.length;
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  const offset = new Float64Array(count);
  const size = new Float64Array(count);
  const lane = new Uint16Array(count);
  const kindClass = new Uint8Array(count);
  const shared = new Uint8Array(count);
  const spilled = new Uint8Array(count);
  buffers.forEach((b, i) => {
    start[i] = b.start;
    end[i] = Math.max(b.end, b.start + 1);
    offset[i] = b.offset;
    size[i] = b.size;
    lane[i] = laneOf.get(b.region) ?? NO_LANE;
    kindClass[i] = CLASS_INDEX.get(bufferClass(b, kv))!;
    shared[i] = b.alias === undefined ? 0 : 1;
    spilled[i] = b.wanted === undefined ? 0 : 1;
    steps = Math.max(steps, end[i]!);
  });
  steps = Math.max(steps, 1);
  const drawOrder = Uint32Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => shared[a]! - shared[b]! || kindClass[a]! - kindClass[b]! || a - b,
  );
  const sharing = sharingGroups(buffers);
  const lanes = [...laneOf.keys()].map((name, index) => {
    const live = liveBytes(sharing, (root) => root.region === name, steps);
    return buildLane(plan, name, index, live, { steps, start, end, offset, size, lane });
  });
  const indexOfId = new Map(buffers.map((b, i) => [b.id, i]));
  const emptyRegions = emptyRegionsText(plan, [...laneOf.keys()]);
  return { plan, steps, count, start, end, offset, size, lane, kindClass, shared, spilled, drawOrder, lanes, laneOf, regions, emptyRegions, indexOfId };
}

interface Columns {
  readonly steps: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly offset: Float64Array;
  readonly size: Float64Array;
  readonly lane: Uint16Array;
}

/** Lane `index` (region `name`) over its bytes `live` at each step. */
function buildLane(plan: ModelPlan, name: string, index: number, live: Float64Array, c: Columns): HeapLane {
  const region = plan.regions.find((r) => r.name === name);
  const members: number[] = [];
  let top = 0;
  let topStep: number | undefined; // the first step a buffer reaching `top` is live
  for (let i = 0; i < c.lane.length; i += 1) {
    if (c.lane[i] !== index) continue;
    members.push(i);
    const end = c.offset[i]! + c.size[i]!;
    if (c.size[i]! > 0 && (end > top || (end === top && (topStep === undefined || c.start[i]! < topStep)))) topStep = c.start[i]!;
    top = Math.max(top, end);
  }
  const peak = region?.peak ?? top;
  // the marker sits on the peak line where a buffer reaches it: at the region's fullest step (the one Details and the
  // CLI name) when a buffer reaching the line is live there, else the first step one is; above the bound, the line
  // may be reached elsewhere than where the most is live
  const fullest = region?.peakStep;
  const reachedAtFullest = fullest !== undefined && members.some((i) => c.size[i]! > 0 && c.offset[i]! + c.size[i]! === top && c.start[i]! <= fullest && fullest < c.end[i]!);
  const peakStep = top === peak && topStep !== undefined ? (reachedAtFullest ? fullest : topStep) : fullest;
  const limit = laneLimit(region);
  const extent = laneExtent(peak, top, limit);
  const index2 = RectIndex.build(
    members.length,
    (k, box) => {
      const i = members[k]!;
      box[0] = c.start[i]!;
      box[1] = c.offset[i]!;
      box[2] = c.end[i]!;
      box[3] = c.offset[i]! + c.size[i]!;
    },
    (k) => members[k]!,
  );
  return { name, peak, lowerBound: region?.lowerBound ?? 0, limit, peakStep, extent, live, index: index2, buffers: members.length };
}

/** A size limit at most this many times the lane's bytes is drawn on its axis; one further up is pointed at from the lane's top. */
export const LIMIT_REACH = 1.5;

/**
 * The bytes a lane's address axis spans: its peak and its buffers' top, and
 * its size limit when that is within LIMIT_REACH of them, so the limit line
 * and its label sit inside the lane rather than above it, under its title.
 */
export function laneExtent(peak: number, top: number, limit: LaneLimit | undefined): number {
  const used = Math.max(peak, top, 1);
  return limit !== undefined && limit.arena <= used * LIMIT_REACH ? Math.max(used, limit.arena) : used;
}

/** What the tooltip and the details panel say about one buffer. */
export interface BufferFacts {
  readonly buffer: PlannedBuffer;
  readonly op: string | undefined; // op type of the producing node
  readonly shape: readonly number[] | undefined;
  readonly dtype: string | undefined;
  readonly parent: PlannedBuffer | undefined; // the buffer whose bytes it shares
  readonly quantization: IrQuantization | undefined; // a TensorFlow Lite tensor's, when it has one
  readonly scratchOf?: string; // the op (type and name) whose scratch tensor this is, when no op writes it and the caller does not give it (a Vela ethos-u op's); absent otherwise
}

/** "ethos-u ethos-u_0": node `i` of `model` by its op type and name. */
function readerName(model: InferredModel, i: number | undefined): string {
  const node = i === undefined ? undefined : model.nodes[i];
  return node === undefined ? 'its op' : `${node.opType} ${node.name}`;
}

/** Facts of buffer `i` of `data`, looking its tensor up in `model`. */
export function bufferFacts(data: HeapData, model: InferredModel | undefined, lookup: ModelLookup | undefined, i: number): BufferFacts {
  const buffer = data.plan.buffers[i]!;
  const value = lookup?.values.get(buffer.name);
  const node = buffer.node === undefined ? undefined : lookup?.nodes.get(buffer.node);
  const parentIndex = buffer.alias === undefined ? undefined : data.indexOfId.get(buffer.alias.parent);
  const parent = parentIndex === undefined ? undefined : data.plan.buffers[parentIndex];
  return {
    buffer,
    op: node === undefined ? undefined : model?.nodes[node]?.opType,
    shape: value?.shape,
    dtype: value?.dtypeName,
    parent,
    quantization: quantizationOf(model, buffer.name),
    ...(model?.unfed?.includes(buffer.name) === true && { scratchOf: readerName(model, value?.consumers[0]) }),
  };
}

/** Values and nodes of a model by name. */
export interface ModelLookup {
  readonly values: ReadonlyMap<string, InferredModel['values'][number]>;
  readonly nodes: ReadonlyMap<string, number>; // node name -> index
}

const lookups = new WeakMap<InferredModel, ModelLookup>();

/** Name lookups of `model`, built once per model. */
export function modelLookup(model: InferredModel): ModelLookup {
  let found = lookups.get(model);
  if (found === undefined) {
    found = {
      values: new Map(model.values.map((v) => [v.name, v])),
      nodes: new Map(model.nodes.map((n, i) => [n.name, i])),
    };
    lookups.set(model, found);
  }
  return found;
}
