// An independent checker of fusion units: re-verifies every enabled M2 rule
// on the units the builder made, and the M5 cache of each depthwise+pointwise
// unit, from the graph itself. It shares no code with the builder: its own
// attribute reading, row sets instead of range hulls, its own weight split and
// plan validation. Depends only on the model's IR types and the planner.
//
// - Row sets: for each tile of the unit's output, walk the unit's nodes
//   backwards and collect, row by row, every input row a window reads; the
//   same for columns. A tile buffer the builder sized must hold at least that.
// - The unit's on-chip plan must be a valid placement (validatePlan) whose
//   peak fits SRAM; sub-maps per core must fit NRAM; weights per core WRAM.
// - Composition rules are recounted from the node set (not the step range).
// - Quantized graphs (check-ops.ts): a Resize's rows come from its
//   coordinate mapping row by row; a tensor that stays on chip is sized in
//   its folded quantized type, one the unit reads or writes as in DRAM; a
//   scalar (scale, zero point) is one row and one column.
// - TFLite units (check-tflite.ts): C, H and W are read where NHWC keeps
//   them, windows from the builtin options.

import type { InferredGraph, InferredNode, InferredValue } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import { validatePlan } from '../../assembly/validate-plan';
import type { FusionUnitCore } from '../fusion-types';
import { checkComposition, weightBytesPerCore } from './check-composition';
import { fileElement, onChipElement, resampledRows, storedWeightBytes, windowOf, type CheckGraph } from './check-ops';
import { mapDims, type MapDims } from './check-tflite';

/** A rule a unit breaks. */
export interface CheckViolation {
  readonly unit: number;
  readonly rule: string;
  readonly message: string;
}


/** Checks every unit; an empty list means every enabled rule holds. */
export function checkUnits(graph: InferredGraph, units: readonly FusionUnitCore[], settings: FusionSettings): CheckViolation[] {
  const g: CheckGraph = { graph, values: new Map(graph.values.map((v) => [v.name, v])) };
  const out: CheckViolation[] = [];
  const owner = new Map<number, number>();
  for (const u of units) {
    for (const n of u.nodeIndices) {
      if (owner.has(n)) out.push({ unit: u.id, rule: 'disjoint', message: `'${graph.nodes[n]!.name}' is also in unit ${owner.get(n)}` });
      owner.set(n, u.id);
    }
    const found = u.kind === 'tfu' ? checkTfu(g, u, settings) : checkDwPwUnit(g, u, settings);
    out.push(...found.map((f) => ({ unit: u.id, ...f })));
  }
  return out;
}

type Found = { rule: string; message: string };

function checkTfu(g: CheckGraph, u: FusionUnitCore, s: FusionSettings): Found[] {
  const out = checkComposition(g, u, s);
  const tile = u.tile;
  if (tile === undefined) return [...out, { rule: 'sram', message: 'the unit has no tile' }];
  const nodes = u.nodeIndices.map((n) => g.graph.nodes[n]!);
  const dims = mapDims(nodes[0]!);
  const rows = rowSets(g, nodes, u.output, 2, tile.rows);
  const cols = rowSets(g, nodes, u.output, 3, tile.cols);
  const members = new Set(u.nodeIndices);
  const stays = (v: InferredValue): boolean => !g.graph.outputs.includes(v.name) && v.producer !== undefined && members.has(v.producer) && v.consumers.every((c) => members.has(c));
  const elem = (v: InferredValue): number => (stays(v) ? onChipElement(g.graph, g.values, v) : fileElement(v));
  const need = (name: string): number => {
    const v = g.values.get(name)!;
    return tile.maps * (v.shape?.[dims.c] ?? 1) * maxSize(rows, name) * maxSize(cols, name) * elem(v);
  };
  for (const b of u.onChipBuffers) {
    if (b.size < need(b.name)) out.push({ rule: 'sram', message: `tile of '${b.name}' holds ${b.size} B, needs ${need(b.name)} B` });
  }
  const problem = {
    buffers: u.onChipBuffers.map((b, id) => ({ id, name: b.name, size: b.size, start: b.firstStep, end: b.lastStep + 1 })),
  };
  const offsets = u.onChipBuffers.map((b) => b.offset);
  const peak = Math.max(0, ...u.onChipBuffers.map((b) => b.offset + b.size));
  const valid = validatePlan(problem, { offsets, peak });
  if (!valid.valid) out.push({ rule: 'sram', message: `the on-chip plan is invalid: ${valid.violations[0]!.message}` });
  if (peak >= s.sramBytes) out.push({ rule: 'sram', message: `the on-chip plan needs ${peak} B, not under SRAM ${s.sramBytes} B` });
  if (tile.mode === 'large-map') {
    const unsplit = u.inputs.reduce((sum, n) => sum + (g.values.get(n)!.bytes ?? 0), 0);
    const loaded = u.inputs.reduce((sum, n) => sum + loadedBytes(g.values.get(n)!, rows, cols, dims), 0);
    const percent = unsplit === 0 ? 0 : ((loaded - unsplit) / unsplit) * 100;
    if (percent > s.rules.redundancyPercent + 1e-9) out.push({ rule: 'redundancy', message: `halo redundancy ${percent.toFixed(1)} % > ${s.rules.redundancyPercent} %` });
  } else {
    if (tile.maps > s.rules.maxSmallMaps) out.push({ rule: 'small-maps', message: `${tile.maps} maps > ${s.rules.maxSmallMaps}` });
    out.push(...checkPipeline(g, u, nodes, need, s));
  }
  out.push(...checkNram(g, nodes, rows, cols, tile.maps, s, elem, dims));
  return out;
}

/** For each tile (of `size` output rows along `axis`, 2: H, 3: W), the set of rows each tensor of the unit needs. */
function rowSets(g: CheckGraph, nodes: readonly InferredNode[], output: string, axis: 2 | 3, size: number): Map<string, number>[] {
  const dims = mapDims(nodes[0]!);
  const dim = axis === 2 ? dims.h : dims.w;
  const total = g.values.get(output)!.shape![dim]!;
  const tiles: Map<string, number>[] = [];
  for (let lo = 0; lo < total; lo += size) {
    const sets = new Map<string, Set<number>>([[output, new Set(range(lo, Math.min(total, lo + size)))]]);
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      const out = sets.get(node.outputs[0]!);
      if (out === undefined) continue;
      const read = rowReader(g, node, axis);
      for (const name of node.inputs) {
        const v = g.values.get(name);
        if (v === undefined || v.kind === 'initializer' || v.kind === 'constant') continue;
        const extent = v.shape?.[dim] ?? 1;
        const set = sets.get(name) ?? new Set<number>();
        for (const r of out) {
          if (extent === 1) set.add(0);
          else for (const row of read(r, extent)) if (row >= 0 && row < extent) set.add(row);
        }
        sets.set(name, set);
      }
    }
    tiles.push(new Map([...sets].map(([n, set]) => [n, set.size])));
  }
  return tiles;
}

/** The input rows a node reads for output row r: its window's, or a resampling's coordinate mapping. */
function rowReader(g: CheckGraph, node: InferredNode, axis: 2 | 3): (r: number, extent: number) => number[] {
  if (node.opType === 'Resize' || node.opType === 'Upsample') {
    const outSize = g.values.get(node.outputs[0]!)!.shape![axis]!;
    return (r, extent) => resampledRows(node, r, extent, outSize);
  }
  const win = windowOf(g, node, axis);
  return (r) => Array.from({ length: win.k }, (_, j) => r * win.s - win.p + j * win.d);
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a }, (_, i) => a + i);
}

function maxSize(tiles: readonly Map<string, number>[], name: string): number {
  return Math.max(0, ...tiles.map((t) => t.get(name) ?? 0));
}

function loadedBytes(v: InferredValue, rows: readonly Map<string, number>[], cols: readonly Map<string, number>[], dims: MapDims): number {
  const shape = v.shape!;
  const sum = (tiles: readonly Map<string, number>[]): number => tiles.reduce((s, t) => s + (t.get(v.name) ?? 0), 0);
  return (shape[dims.n] ?? 1) * (shape[dims.c] ?? 1) * sum(rows) * sum(cols) * fileElement(v);
}

/** Each core's share of every layer's tile (output rows split over the cores, with the input rows they read) fits NRAM. */
function checkNram(
  g: CheckGraph,
  nodes: readonly InferredNode[],
  rows: readonly Map<string, number>[],
  cols: readonly Map<string, number>[],
  maps: number,
  s: FusionSettings,
  elem: (v: InferredValue) => number,
  dims: MapDims,
): Found[] {
  for (const node of nodes) {
    const out = g.values.get(node.outputs[0]!)!;
    const win = windowOf(g, node, 2);
    const outRows = maxSize(rows, out.name);
    const sub = Math.ceil(outRows / s.coresPerCluster);
    let bytes = (out.shape?.[dims.c] ?? 1) * sub * maxSize(cols, out.name) * elem(out);
    for (const name of node.inputs) {
      const v = g.values.get(name);
      if (v === undefined || v.kind === 'initializer' || v.kind === 'constant') continue;
      const inRows = Math.min(maxSize(rows, name), (sub - 1) * win.s + (win.k - 1) * win.d + 1);
      bytes += (v.shape?.[dims.c] ?? 1) * inRows * maxSize(cols, name) * elem(v);
    }
    if (bytes * maps > s.nramBytes) return [{ rule: 'nram', message: `'${node.name}' needs ${bytes * maps} B per core > NRAM ${s.nramBytes} B` }];
  }
  return [];
}

/** Small-map pipelining (METHODS.md M2): the next maps load while the current ones compute. */
function checkPipeline(g: CheckGraph, u: FusionUnitCore, nodes: readonly InferredNode[], need: (name: string) => number, s: FusionSettings): Found[] {
  const activations = (n: InferredNode): string[] =>
    n.inputs.filter((name) => { const v = g.values.get(name); return v !== undefined && v.kind !== 'initializer' && v.kind !== 'constant'; });
  const weights = (n: InferredNode): number => n.inputs.reduce((sum, name) => {
    const v = g.values.get(name);
    return sum + (v !== undefined && (v.kind === 'initializer' || v.kind === 'constant') ? storedWeightBytes(g.graph, g.values, v) : 0);
  }, 0);
  const in1 = u.inputs.reduce((sum, name) => sum + need(name), 0);
  const in2 = Math.ceil(g.values.get(u.output)!.shape![0]! / u.tile!.maps) > 1 ? in1 : 0;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const w = weights(n);
    const next = i + 1 < nodes.length ? nodes[i + 1]! : undefined;
    const subin = activations(n).reduce((sum, name) => sum + need(name), 0);
    const sizes = [w + in1 + in2, subin + w + in2, need(n.outputs[0]!) + (next === undefined ? 0 : weights(next)) + in2];
    if (sizes.some((bytes) => bytes > s.sramBytes)) return [{ rule: 'small-map-pipeline', message: `'${n.name}' needs ${Math.max(...sizes)} B of SRAM > ${s.sramBytes} B` }];
    const perCore = weightBytesPerCore(g, n, s.coresPerCluster) + (next === undefined ? 0 : weightBytesPerCore(g, next, s.coresPerCluster));
    if (perCore > s.wramBytes) return [{ rule: 'small-map-pipeline', message: `'${n.name}' and the next layer need ${perCore} B of WRAM > ${s.wramBytes} B` }];
  }
  return [];
}

/** An M5 unit: the cache window fits the capacity, covers the output, and only the pointwise Conv reads the module. */
function checkDwPwUnit(g: CheckGraph, u: FusionUnitCore, s: FusionSettings): Found[] {
  const out: Found[] = [];
  const c = u.cache;
  if (c === undefined || s.dwPwCacheBytes === undefined) return [{ rule: 'cache', message: 'no cache window or no cache capacity' }];
  if (c.bytes > s.dwPwCacheBytes) out.push({ rule: 'cache', message: `window ${c.bytes} B > capacity ${s.dwPwCacheBytes} B` });
  const height = g.values.get(u.internal[0] ?? '')?.shape?.[mapDims(g.graph.nodes[u.nodeIndices[0]!]!).h] ?? 0;
  if (c.rows < 1 || c.rows * c.passes < height) out.push({ rule: 'cache', message: 'the windows do not cover the depthwise result' });
  const members = new Set(u.nodeIndices);
  for (const name of u.internal) {
    const readers = g.values.get(name)?.consumers ?? [];
    if (readers.some((r) => !members.has(r)) || g.graph.outputs.includes(name)) out.push({ rule: 'dw-pw-module', message: `'${name}' is read outside the unit` });
  }
  return out;
}
