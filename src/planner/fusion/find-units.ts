// The fusion units of a graph for a target: depthwise + pointwise units (M5)
// first, then template fusion units (M2) over the steps left, numbered in
// execution order; and, for every layer the methods looked at, a sentence
// saying why it is or is not in a unit. Depends only on the model's IR types,
// src/shared and the planner.

import type { InferredGraph } from '../../model/inferred';
import { formatBytes } from '../../shared/format';
import { baseOpOf } from '../problem/quantized-ops';
import { activationRegionOf, type TargetProfile } from '../targets/target';
import { buildDwPwUnits } from './dw-pw';
import type { FusionExplanation, FusionUnitCore, FusionUnitRecord } from './fusion-types';
import { buildTfus } from './tfu/builder';

/** The units of a graph and the explanation of every layer considered. */
export interface FoundUnits {
  readonly units: readonly FusionUnitCore[]; // by id, ids in execution order
  readonly explanations: readonly FusionExplanation[]; // in execution order
  readonly region: string; // the region their on-chip buffers go to
}

/** The name the plan and the views give a unit: 'tfu0', 'dwpw3'. */
export function unitName(unit: Pick<FusionUnitCore, 'id' | 'kind'>): string {
  return `${unit.kind === 'tfu' ? 'tfu' : 'dwpw'}${unit.id}`;
}

/** The region on-chip buffers are planned in: the fusion settings', else the first fast region, else the activations'. */
export function onChipRegionOf(target: TargetProfile): string {
  return target.fusion?.onChipRegion ?? target.regions.find((r) => r.fast)?.name ?? activationRegionOf(target).name;
}

/** Finds the units of `graph` in execution order `order`; undefined when the target has fusion off or none. */
export function findFusionUnits(graph: InferredGraph, order: readonly number[], target: TargetProfile): FoundUnits | undefined {
  const s = target.fusion;
  if (s === undefined || !s.enabled) return undefined;
  const dw = buildDwPwUnits(graph, order, s);
  const taken = new Set(dw.units.flatMap((u) => stepsOf(u)));
  const tfu = s.templateUnits ? buildTfus(graph, order, s, { taken }) : { units: [], notes: new Map<number, string>() };
  const units = [...dw.units, ...tfu.units].sort((a, b) => a.firstStep - b.firstStep).map((u, id) => ({ ...u, id }));
  const unitAt = new Map(units.flatMap((u) => stepsOf(u).map((step) => [step, u] as const)));
  const explanations: FusionExplanation[] = [];
  order.forEach((node, step) => {
    const name = graph.nodes[node]!.name;
    const unit = unitAt.get(step);
    if (unit !== undefined) {
      explanations.push({ node: name, unit: unitName(unit), reason: memberReason(graph, unit, node) });
      return;
    }
    const why = [dw.notes.get(step), tfu.notes.get(step)].filter((w): w is string => w !== undefined);
    if (why.length > 0) explanations.push({ node: name, reason: why.join('; ') });
  });
  return { units, explanations, region: onChipRegionOf(target) };
}

function stepsOf(unit: FusionUnitCore): number[] {
  return Array.from({ length: unit.lastStep - unit.firstStep + 1 }, (_, i) => unit.firstStep + i);
}

/** Why a layer of a unit is there, in one sentence. */
function memberReason(graph: InferredGraph, unit: FusionUnitCore, node: number): string {
  const name = unitName(unit);
  const out = graph.nodes[node]!.outputs[0] ?? '';
  if (unit.kind === 'dw-pw') return dwPwMemberReason(graph, unit, node);
  const t = unit.tile!;
  const tile = t.mode === 'small-map' ? `small-map tile of ${t.maps} whole map(s)` : `large-map tile of ${t.rows}×${t.cols}, ${t.tiles} tiles`;
  const size = `${unit.nodes.length} layers, ${tile}`;
  if (out === unit.output) return `last layer of ${name} (${size}): writes '${out}' to DRAM`;
  return `in ${name} (${size}): its output '${out}' stays on chip`;
}

/** Why a layer of a depthwise + pointwise unit is there, by its part in the fused operator. */
function dwPwMemberReason(graph: InferredGraph, unit: FusionUnitCore, node: number): string {
  const name = unitName(unit);
  const n = graph.nodes[node]!;
  const out = n.outputs[0] ?? '';
  const c = unit.cache!;
  const window = `a ${formatBytes(c.bytes)} cache window of ${c.rows} row(s), slid in ${c.passes} pass(es)`;
  if (out === unit.internal[0]) return `depthwise Conv of ${name}: its result '${out}' never reaches DRAM, ${window} holds it`;
  const shape = graph.values.find((v) => v.name === out)?.shape;
  if (shape !== undefined && shape.every((d) => d === 1)) return `scalar side computation of ${name}: the fused operator computes '${out}' (a scale or zero point) as it runs`;
  if (baseOpOf(n) === 'DequantizeLinear' && graph.values.find((v) => v.name === out)?.consumers.includes(unit.nodeIndices[1]!)) {
    return `dequantizes the input '${n.inputs[0]}' of ${name} as its depthwise Conv reads it: '${out}' never reaches DRAM`;
  }
  if (out === unit.output && baseOpOf(n) === 'QuantizeLinear') return `quantizes the pointwise result of ${name} as it is written: writes '${out}' to DRAM`;
  if (baseOpOf(n) === 'Conv') return `pointwise Conv of ${name}: reads the depthwise result from the cache, writes '${out}' ${out === unit.output ? 'to DRAM' : 'to its QuantizeLinear'}`;
  return `element-wise op of the depthwise module of ${name}: runs in place in the cache`;
}

/** The plan's record of a unit, given its DRAM traffic. */
export function unitRecord(unit: FusionUnitCore, traffic: { readonly before: number; readonly after: number }, region: string): FusionUnitRecord {
  const { sram, nram, wram, cache } = unit.onChip;
  return {
    kind: unit.kind,
    nodes: unit.nodes,
    onChipBytes: unit.kind === 'tfu' ? sram : cache,
    trafficSaved: traffic.before - traffic.after,
    id: unit.id,
    name: unitName(unit),
    firstStep: unit.firstStep,
    lastStep: unit.lastStep,
    mode: unit.tile?.mode ?? 'cache-window',
    ...(unit.tile !== undefined && { tile: unit.tile }),
    ...(unit.cache !== undefined && { cache: unit.cache }),
    onChip: { sram, nram, wram },
    region,
    inputs: unit.inputs,
    output: unit.output,
    internal: unit.internal,
    traffic: { before: traffic.before, after: traffic.after },
    rules: [...unit.boundary, ...unit.rules.filter((v) => v.holds).map((v) => `${v.rule}: ${v.detail}`)],
  };
}
