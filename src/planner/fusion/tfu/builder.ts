// Template fusion units (METHODS.md M2): merges runs of consecutive layers so
// that intermediate feature maps stay on chip, sized to the target's SRAM,
// NRAM and WRAM. Depends only on the model's IR types and the planner.
//
// - Steps already in other units (M5's) count as fused.
// - Start rule: the first unfused layer, or the first unfused Conv/Pool.
// - Backward-then-forward: from a Conv/Pool start, first pull in the unfused
//   layers just before it while the capacity rules hold.
// - Forward: at each step, try the whole block (single entry, single exit)
//   that starts next, then the next single layer; keep the first whose
//   capacity rules (tileable, weights, WRAM, SRAM tile, NRAM, small maps,
//   redundancy, stride redundancy) hold; stop when neither does. Growth only
//   asks whether they hold (rulesHold); the verdicts are written for the run
//   it stops at.
// - Shrink: drop layers from the end (then the backward pull) until every
//   rule holds (single output, main layers, sequences), asked of rulesHold;
//   only the kept run's verdicts are written. No such run: no unit
//   starts there, and the search moves one layer on.
// - A unit holds at most MAX_UNIT_STEPS layers: assessing a unit costs its
//   length, so without a cap a long chain of tiny maps grows one unit for
//   thousands of layers and fusion turns quadratic in the model.
// - Every decision is written down per layer, for the fusion explanations
//   (find-units.ts).

import type { InferredGraph } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import { findBlocks, indexBlocks } from '../blocks';
import { redundancyPercent, tileBuffers, tiledBytesOf } from '../feature-map';
import type { FusionUnitCore, OnChipBuffer } from '../fusion-types';
import { graphLayers } from '../layer-geometry';
import { assess, capacityFailures, failures, rulesHold, type Assessment, type UnitContext } from './candidate';
import { nramPerCore, tileSramBytes } from './rules';
import { layerWeightsPerCore } from './verdict';
import { onChipElementBytes } from '../stored-sizes';
import { planTile } from '../tile-plan';
import { axisExtent } from '../unit-ranges';

/** The most layers one unit holds; far above real units (the corpus's longest has 41). */
export const MAX_UNIT_STEPS = 128;

/** Units found and why each layer is where it is (by step). */
export interface TfuResult {
  readonly units: readonly FusionUnitCore[];
  readonly notes: ReadonlyMap<number, string>; // step -> why the layer is not in a unit
}

/** Options of buildTfus. */
export interface TfuOptions {
  readonly firstId?: number; // id of the first unit
  readonly taken?: ReadonlySet<number>; // steps already in other units (M5)
}

/** Builds the template fusion units of a graph in execution order `order`. */
export function buildTfus(graph: InferredGraph, order: readonly number[], settings: FusionSettings, options: TfuOptions = {}): TfuResult {
  const firstId = options.firstId ?? 0;
  const ctx = unitContext(graph, order, settings);
  const fused = new Uint8Array(order.length);
  for (const step of options.taken ?? []) fused[step] = 1;
  const notes = new Map<number, string>();
  const units: FusionUnitCore[] = [];
  for (let step = nextStart(ctx, fused, 0, notes); step < order.length; step = nextStart(ctx, fused, step, notes)) {
    const grown = growFrom(ctx, fused, step, notes);
    if (grown === undefined) {
      step++;
      continue;
    }
    units.push(unitRecord(ctx, grown.assessment, grown.boundary, firstId + units.length));
    for (let s = grown.assessment.first; s <= grown.assessment.last; s++) fused[s] = 1;
    step = grown.assessment.last + 1;
  }
  return { units, notes };
}

/** What the builder and the rules know of a graph in execution order `order`. */
export function unitContext(graph: InferredGraph, order: readonly number[], settings: FusionSettings): UnitContext {
  return {
    graph,
    order,
    layers: graphLayers(graph),
    blocks: indexBlocks(findBlocks(graph, order), order.length),
    settings,
    values: new Map(graph.values.map((v) => [v.name, v])),
    stepOf: new Map(order.map((n, s) => [n, s])),
    onChipElement: onChipElementBytes(graph),
  };
}

const isConvPool = (base: string | undefined): boolean => base === 'Conv' || base?.endsWith('Pool') === true;

/** The next step at or after `from` where a unit may start (a tileable layer, so one with an output); notes the layers the start rule passes over. */
function nextStart(ctx: UnitContext, fused: Uint8Array, from: number, notes: Map<number, string>): number {
  for (let s = from; s < ctx.order.length; s++) {
    const layer = ctx.layers[ctx.order[s]!]!;
    if (fused[s]) continue;
    if (layer.tileable !== undefined) {
      notes.set(s, `cannot be in a unit: ${layer.tileable}`);
      continue;
    }
    if (ctx.settings.rules.start === 'first-conv-pool' && !isConvPool(layer.base)) {
      if (!notes.has(s)) notes.set(s, 'not a start layer (units start at a Conv or Pool) and no unit grew over it');
      continue;
    }
    return s;
  }
  return ctx.order.length;
}

interface Grown {
  readonly assessment: Assessment;
  readonly boundary: string[];
}

/** Grows a unit from `start` (see the module header); undefined when no run from it satisfies every rule. */
function growFrom(ctx: UnitContext, fused: Uint8Array, start: number, notes: Map<number, string>): Grown | undefined {
  const boundary: string[] = [];
  let first = start;
  if (ctx.settings.rules.direction === 'backward-then-forward' && isConvPool(ctx.layers[ctx.order[start]!]!.base)) {
    while (first > 0 && !fused[first - 1]) {
      if (start - first + 2 > MAX_UNIT_STEPS) {
        boundary.push(`backward growth stopped before '${nodeName(ctx, first - 1)}': ${TOO_LONG}`);
        break;
      }
      if (!rulesHold(ctx, first - 1, start)) {
        boundary.push(`backward growth stopped before '${nodeName(ctx, first - 1)}': ${capacityFailures(ctx, first - 1, start)}`);
        break;
      }
      first--;
    }
  }
  const last = growForward(ctx, fused, first, start, boundary, notes);
  for (const from of first === start ? [first] : [first, start]) {
    for (let end = last; end > from; end--) {
      if (hasOutput(ctx, end) && rulesHold(ctx, from, end, true)) {
        const a = assess(ctx, from, end);
        if (end < last) boundary.push(`shrunk to end at '${nodeName(ctx, end)}': ${failures(assess(ctx, from, last))}`);
        if (from > first) boundary.push(`backward layers dropped: ${failures(assess(ctx, first, end))}`);
        return { assessment: a, boundary };
      }
    }
  }
  const best = assess(ctx, start, Math.max(start, last));
  const stopped = boundary.filter((b) => b.includes('stopped'));
  const why = `no unit can start here: ${failures(best) || 'a unit needs two layers or more'}${stopped.length > 0 ? ` (${stopped.join('; ')})` : ''}`;
  const earlier = notes.get(start);
  notes.set(start, earlier === undefined ? why : `${earlier}; ${why}`);
  return undefined;
}

/** Grows [first, start] forwards, blocks before single layers; returns the last step. */
function growForward(ctx: UnitContext, fused: Uint8Array, first: number, start: number, boundary: string[], notes: Map<number, string>): number {
  let last = start;
  for (;;) {
    const next = last + 1;
    if (next >= ctx.order.length || fused[next]) {
      boundary.push(next >= ctx.order.length ? 'the graph ends' : 'the next layer is already in a unit');
      return last;
    }
    if (next - first + 1 > MAX_UNIT_STEPS) {
      boundary.push(`growth stopped before '${nodeName(ctx, next)}': ${TOO_LONG}`);
      notes.set(next, `not added to the unit ending at '${nodeName(ctx, last)}': ${TOO_LONG}`);
      return last;
    }
    const ends: number[] = [];
    const block = ctx.settings.rules.preferBlocks ? ctx.blocks.startingAt(next) : undefined;
    const blockFits = block !== undefined && block.last < ctx.order.length && block.last - first + 1 <= MAX_UNIT_STEPS;
    // A block's exit may be a later output of its last node while the first is omitted (LSTM's Y_h without Y).
    if (blockFits && hasOutput(ctx, block.last) && !fused.subarray(next, block.last + 1).some((f) => f)) ends.push(block.last);
    if (hasOutput(ctx, next)) ends.push(next);
    if (ends.length === 0) {
      const why = `'${nodeName(ctx, next)}' has no output a unit could end on`;
      boundary.push(`growth stopped before '${nodeName(ctx, next)}': ${why}`);
      notes.set(next, `not added to the unit ending at '${nodeName(ctx, last)}': ${why}`);
      return last;
    }
    const taken = ends.find((end) => rulesHold(ctx, first, end));
    if (taken === undefined) {
      const why = capacityFailures(ctx, first, ends[ends.length - 1]!);
      boundary.push(`growth stopped before '${nodeName(ctx, next)}': ${why}`);
      notes.set(next, `not added to the unit ending at '${nodeName(ctx, last)}': ${why}`);
      return last;
    }
    last = taken;
  }
}

const TOO_LONG = `a unit holds at most ${MAX_UNIT_STEPS} layers`;

/** True when the layer at `step` has an output: a unit ends on a layer's output, so one without (a node whose outputs are all omitted) ends none. */
function hasOutput(ctx: UnitContext, step: number): boolean {
  return ctx.layers[ctx.order[step]!]!.output !== undefined;
}

function nodeName(ctx: UnitContext, step: number): string {
  return ctx.graph.nodes[ctx.order[step]!]!.name;
}

/** The unit record of an accepted assessment, with its on-chip tile plan. */
function unitRecord(ctx: UnitContext, a: Assessment, boundary: readonly string[], id: number): FusionUnitCore {
  const { unit, tile } = a.candidate;
  const t = tile!;
  const plan = planTile(tileBuffers(unit, t), 1);
  const onChipBuffers: OnChipBuffer[] = plan.problem.buffers.map((b) => ({
    name: b.name,
    offset: plan.offsets[b.id]!,
    size: b.size,
    firstStep: a.first + b.start,
    lastStep: a.first + b.end - 1,
  }));
  const s = ctx.settings;
  return {
    id,
    kind: 'tfu',
    nodes: unit.layers.map((l) => l.name),
    nodeIndices: unit.layers.map((l) => l.node),
    firstStep: a.first,
    lastStep: a.last,
    inputs: unit.inputs.map((v) => v.name),
    inputLoads: unit.inputs.map((v) => ({ name: v.name, bytes: tiledBytesOf(unit, t, v) })),
    output: unit.output.name,
    internal: unit.internal.map((v) => v.name),
    tile: { ...t, tiles: tilesOf(unit, t), redundancyPercent: redundancyPercent(unit, t) },
    onChip: {
      sram: tileSramBytes(unit, t),
      nram: nramPerCore(unit, t, s.coresPerCluster),
      wram: Math.ceil(unit.layers.reduce((sum, l) => sum + layerWeightsPerCore(l, s.coresPerCluster), 0)),
      cache: 0,
    },
    onChipBuffers,
    rules: a.verdicts,
    boundary,
  };
}

function tilesOf(unit: Parameters<typeof axisExtent>[0], t: { maps: number; rows: number; cols: number }): number {
  const n = unit.output.shape![0]!;
  return Math.ceil(n / t.maps) * axisExtent(unit, 2, t.rows).tiles * axisExtent(unit, 3, t.cols).tiles;
}
