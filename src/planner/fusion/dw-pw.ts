// Depthwise + pointwise fusion (METHODS.md M5): each depthwise module whose
// result feeds only a pointwise Conv becomes one fused unit; its result never
// reaches DRAM, a cache window of it does. Depends only on the model's IR
// types, src/shared and the planner's fusion modules.
//
// - Module and reader: dw-pw-module.ts.
// - The module and its pointwise Conv run at consecutive steps (the fused
//   operator replaces them), none already in a unit; a scalar side
//   computation between them that only the unit reads (the product of two
//   scales in a dynamically quantized graph) runs inside the fused operator.
// - QDQ graphs: the DequantizeLinear before the depthwise Conv and the
//   QuantizeLinear after the pointwise one join the fused operator
//   (dw-pw-module.ts), so it reads and writes int8 in DRAM.
// - Window: as many whole rows (W × C × the widest element of the module's
//   tensors, as held on chip: stored-sizes.ts) as the cache holds, at most
//   the map's height; passes: windows slid over every map, N × ceil(H / rows).
//   N, C, H and W are read where the depthwise Conv's layout keeps them
//   (layout.ts): a TFLite map is NHWC, so a row of W × C is contiguous.

import type { InferredGraph, InferredValue } from '../../model/inferred';
import { formatBytes } from '../../shared/format';
import type { FusionSettings } from '../targets/target';
import { depthwiseModule, qdqEdges, type DepthwiseModule, type ModuleGraph, type QdqEdges } from './dw-pw-module';
import type { CacheWindow, FusionUnitCore } from './fusion-types';
import { graphLayers, isDepthwise, isScalarValue, type Layer } from './layer-geometry';
import { nchw, type Layout } from './layout';
import { fileElementBytes, onChipElementBytes } from './stored-sizes';
import { verdict, type RuleVerdict } from './tfu/verdict';

/** Units found and why each depthwise Conv left out is left out (by step). */
export interface DwPwResult {
  readonly units: readonly FusionUnitCore[];
  readonly notes: ReadonlyMap<number, string>;
}

/** Options of buildDwPwUnits. */
export interface DwPwOptions {
  readonly firstId?: number;
  readonly taken?: ReadonlySet<number>; // steps already in other units
}

/** The cache window of a module's tensors (stored in `layout`) for a cache of `capacity` bytes; undefined when not one row fits. */
export function cacheWindow(
  capacity: number,
  tensors: readonly InferredValue[],
  element: (v: InferredValue) => number = fileElementBytes,
  layout: Layout = 'NCHW',
): CacheWindow | undefined {
  const [n, , h] = nchw(tensors[0]!, layout);
  const rowBytes = rowBytesOf(tensors, element, layout);
  const rows = Math.min(h, Math.floor(capacity / rowBytes));
  if (rows < 1) return undefined;
  return { capacity, rowBytes, rows, bytes: rows * rowBytes, passes: n * Math.ceil(h / rows) };
}

/** One row of the module's result: W × C × the widest element of its tensors. */
function rowBytesOf(tensors: readonly InferredValue[], element: (v: InferredValue) => number, layout: Layout): number {
  const [, c, , w] = nchw(tensors[0]!, layout);
  return Math.ceil(w * c * Math.max(...tensors.map(element)));
}

/** Finds and fuses the depthwise + pointwise blocks of `graph` in execution order `order`. */
export function buildDwPwUnits(graph: InferredGraph, order: readonly number[], settings: FusionSettings, options: DwPwOptions = {}): DwPwResult {
  const capacity = settings.dwPwCacheBytes;
  const layers = graphLayers(graph);
  const g: ModuleGraph = { layers, values: new Map(graph.values.map((v) => [v.name, v])), outputs: new Set(graph.outputs) };
  const stepOf = new Map(order.map((n, s) => [n, s]));
  const onChip = onChipElementBytes(graph);
  const element = (v: InferredValue): number => onChip.get(v.name) ?? fileElementBytes(v);
  const taken = new Set(options.taken ?? []);
  const units: FusionUnitCore[] = [];
  const notes = new Map<number, string>();
  if (capacity === undefined) return { units, notes };
  order.forEach((node, step) => {
    if (taken.has(step) || !isDepthwise(layers[node]!)) return;
    const found = depthwiseModule(g, node);
    if ('reason' in found) {
      notes.set(step, `not fused with a pointwise Conv: ${found.reason}`);
      return;
    }
    const edges = qdqEdges(g, found.module, node);
    const members = [...found.module.members, found.module.pointwise, ...[edges.entry, edges.exit].filter((n): n is number => n !== undefined)];
    const steps = withSideSteps(layers, order, members.map((n) => stepOf.get(n)!).sort((a, b) => a - b));
    const why = placementProblem(graph, order, steps, taken);
    const layout = layers[node]!.layout;
    const window = cacheWindow(capacity, found.module.tensors, element, layout);
    if (why !== undefined || window === undefined) {
      const row = rowBytesOf(found.module.tensors, element, layout);
      notes.set(step, `not fused with a pointwise Conv: ${why ?? `one row of its result (${formatBytes(row)}) exceeds the cache of ${formatBytes(capacity)}`}`);
      return;
    }
    for (const s of steps) taken.add(s);
    const nodeIndices = order.slice(steps[0], steps[steps.length - 1]! + 1);
    const unit = { module: found.module, edges, inputs: unitInputs(layers, nodeIndices), nodeIndices };
    units.push(unitRecord(graph, unit, steps, window, (options.firstId ?? 0) + units.length));
  });
  return { units, notes };
}

/**
 * The steps with the scalar side computations between them added: a step
 * whose layer writes only scalars, all read by the unit's layers.
 */
function withSideSteps(layers: readonly Layer[], order: readonly number[], steps: readonly number[]): number[] {
  const inUnit = new Set(steps.map((s) => order[s]!));
  const out = [...steps];
  for (let s = steps[steps.length - 1]! - 1; s > steps[0]!; s--) {
    const layer = layers[order[s]!]!;
    if (inUnit.has(layer.node) || layer.output === undefined) continue;
    const written = [layer.output, ...layer.sideOutputs];
    if (written.every((v) => isScalarValue(v) && v.consumers.length > 0 && v.consumers.every((c) => inUnit.has(c)))) {
      inUnit.add(layer.node);
      out.push(s);
    }
  }
  return out.sort((a, b) => a - b);
}

/** Run-time tensors the unit's layers read that none of them writes, in order of first read. */
function unitInputs(layers: readonly Layer[], nodes: readonly number[]): InferredValue[] {
  const written = new Set(nodes.flatMap((n) => [layers[n]!.output, ...layers[n]!.sideOutputs].map((v) => v?.name)));
  const inputs: InferredValue[] = [];
  for (const n of nodes) for (const v of layers[n]!.inputs) if (!written.has(v.name) && !inputs.includes(v)) inputs.push(v);
  return inputs;
}

/** Why the fused steps cannot become one operator: a foreign step between them, or one already fused. */
function placementProblem(graph: InferredGraph, order: readonly number[], steps: readonly number[], taken: ReadonlySet<number>): string | undefined {
  const first = steps[0]!;
  const last = steps[steps.length - 1]!;
  for (let s = first; s <= last; s++) {
    const name = graph.nodes[order[s]!]!.name;
    if (!steps.includes(s)) return `'${name}' runs between the depthwise Conv and the pointwise Conv`;
    if (taken.has(s)) return `'${name}' is already in another unit`;
  }
  return undefined;
}

/** The rules that decided an accepted unit, as verdicts. */
function verdicts(graph: InferredGraph, module: DepthwiseModule, steps: readonly number[], window: CacheWindow): RuleVerdict[] {
  const name = (n: number): string => graph.nodes[n]!.name;
  const tail = module.members.slice(1).map((n) => graph.nodes[n]!.opType);
  return [
    verdict('depthwise-module', true, `'${name(module.members[0]!)}'${tail.length > 0 ? ` with ${tail.join(', ')}` : ''}: nothing but the pointwise Conv reads its result`),
    verdict('pointwise-reader', true, `'${name(module.pointwise)}' is a 1×1 Conv reading '${module.result.name}'`),
    verdict('consecutive', true, `steps ${steps[0]}–${steps[steps.length - 1]} run as one fused operator`),
    verdict(
      'cache-window',
      true,
      `window of ${window.rows} row(s) × ${formatBytes(window.rowBytes)} = ${formatBytes(window.bytes)} <= cache ${formatBytes(window.capacity)}, ${window.passes} pass(es)`,
    ),
  ];
}

/** A module with its QDQ edges, the unit's run-time inputs and its nodes in step order. */
interface FusedModule {
  readonly module: DepthwiseModule;
  readonly edges: QdqEdges;
  readonly inputs: readonly InferredValue[];
  readonly nodeIndices: readonly number[];
}

function unitRecord(graph: InferredGraph, { module, edges, inputs, nodeIndices }: FusedModule, steps: readonly number[], window: CacheWindow, id: number): FusionUnitCore {
  const firstStep = steps[0]!;
  const lastStep = steps[steps.length - 1]!;
  const result = graph.nodes[module.pointwise]!.outputs[0]!;
  const edgeTensors = [edges.entry === undefined ? undefined : graph.nodes[edges.entry]!.outputs[0]!, edges.exit === undefined ? undefined : result];
  return {
    id,
    kind: 'dw-pw',
    nodes: nodeIndices.map((n) => graph.nodes[n]!.name),
    nodeIndices,
    firstStep,
    lastStep,
    inputs: inputs.map((v) => v.name),
    inputLoads: inputs.map((v) => ({ name: v.name, bytes: v.bytes ?? 0 })),
    output: edges.exit === undefined ? result : graph.nodes[edges.exit]!.outputs[0]!,
    internal: [...module.tensors.map((t) => t.name), ...edgeTensors.filter((t): t is string => t !== undefined)],
    cache: window,
    onChip: { sram: 0, nram: 0, wram: 0, cache: window.bytes },
    onChipBuffers: [{ name: 'cache', offset: 0, size: window.bytes, firstStep, lastStep }],
    rules: verdicts(graph, module, steps, window),
    boundary: [`the depthwise module ends where only the pointwise Conv '${graph.nodes[module.pointwise]!.name}' reads it`],
  };
}
