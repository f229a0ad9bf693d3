// Depthwise + pointwise fusion (METHODS.md M5): each depthwise module whose
// result feeds only a pointwise Conv becomes one fused unit; its result never
// reaches DRAM, a cache window of it does. Depends only on the model's IR
// types, src/shared and the planner's fusion modules.
//
// - Module and reader: dw-pw-module.ts.
// - The module and its pointwise Conv run at consecutive steps (the fused
//   operator replaces them), none already in a unit.
// - Window: as many whole rows (W × C × the widest element of the module's
//   tensors) as the cache holds, at most the map's height; passes: windows
//   slid over every map, N × ceil(H / rows).

import type { InferredGraph, InferredValue } from '../../model/inferred';
import { formatBytes } from '../../shared/format';
import type { FusionSettings } from '../target';
import { depthwiseModule, type DepthwiseModule, type ModuleGraph } from './dw-pw-module';
import type { CacheWindow, FusionUnitCore } from './fusion-types';
import { elementBytes, graphLayers, isDepthwise, nchw } from './layer-geometry';
import { verdict, type RuleVerdict } from './tfu-verdict';

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

/** The cache window of a module's tensors for a cache of `capacity` bytes; undefined when not one row fits. */
export function cacheWindow(capacity: number, tensors: readonly InferredValue[]): CacheWindow | undefined {
  const [n, c, h, w] = nchw(tensors[0]!);
  const elem = Math.max(...tensors.map(elementBytes));
  const rowBytes = Math.ceil(w * c * elem);
  const rows = Math.min(h, Math.floor(capacity / rowBytes));
  if (rows < 1) return undefined;
  return { capacity, rowBytes, rows, bytes: rows * rowBytes, passes: n * Math.ceil(h / rows) };
}

/** Finds and fuses the depthwise + pointwise blocks of `graph` in execution order `order`. */
export function buildDwPwUnits(graph: InferredGraph, order: readonly number[], settings: FusionSettings, options: DwPwOptions = {}): DwPwResult {
  const capacity = settings.dwPwCacheBytes;
  const layers = graphLayers(graph);
  const g: ModuleGraph = { layers, values: new Map(graph.values.map((v) => [v.name, v])), outputs: new Set(graph.outputs) };
  const stepOf = new Map(order.map((n, s) => [n, s]));
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
    const steps = [...found.module.members, found.module.pointwise].map((n) => stepOf.get(n)!).sort((a, b) => a - b);
    const why = placementProblem(graph, order, steps, taken);
    const window = cacheWindow(capacity, found.module.tensors);
    if (why !== undefined || window === undefined) {
      const row = Math.ceil(nchw(found.module.tensors[0]!)[3] * nchw(found.module.tensors[0]!)[1] * elementBytes(found.module.tensors[0]!));
      notes.set(step, `not fused with a pointwise Conv: ${why ?? `one row of its result (${formatBytes(row)}) exceeds the cache of ${formatBytes(capacity)}`}`);
      return;
    }
    for (const s of steps) taken.add(s);
    const unit = { module: found.module, inputs: layers[node]!.inputs, nodeIndices: order.slice(steps[0], steps[steps.length - 1]! + 1) };
    units.push(unitRecord(graph, unit, steps, window, (options.firstId ?? 0) + units.length));
  });
  return { units, notes };
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

/** A module with its depthwise Conv's run-time inputs and its nodes in step order. */
interface FusedModule {
  readonly module: DepthwiseModule;
  readonly inputs: readonly InferredValue[];
  readonly nodeIndices: readonly number[];
}

function unitRecord(graph: InferredGraph, { module, inputs, nodeIndices }: FusedModule, steps: readonly number[], window: CacheWindow, id: number): FusionUnitCore {
  const firstStep = steps[0]!;
  const lastStep = steps[steps.length - 1]!;
  return {
    id,
    kind: 'dw-pw',
    nodes: nodeIndices.map((n) => graph.nodes[n]!.name),
    nodeIndices,
    firstStep,
    lastStep,
    inputs: inputs.map((v) => v.name),
    inputLoads: inputs.map((v) => ({ name: v.name, bytes: v.bytes ?? 0 })),
    output: graph.nodes[module.pointwise]!.outputs[0]!,
    internal: module.tensors.map((t) => t.name),
    cache: window,
    onChip: { sram: 0, nram: 0, wram: 0, cache: window.bytes },
    onChipBuffers: [{ name: 'cache', offset: 0, size: window.bytes, firstStep, lastStep }],
    rules: verdicts(graph, module, steps, window),
    boundary: [`the depthwise module ends where only the pointwise Conv '${graph.nodes[module.pointwise]!.name}' reads it`],
  };
}
