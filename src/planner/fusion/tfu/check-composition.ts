// The independent checker's composition rules for a template fusion unit
// (METHODS.md M2): tiling support, shared weights, WRAM, single output, main
// layers, the two sequences and stride redundancy, all recounted from the
// unit's node set. Shares no code with the builder. Depends only on the
// model's IR types and the planner.

import type { InferredNode, InferredValue } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import type { FusionUnitCore } from '../fusion-types';
import { windowOf, type CheckGraph, CONV_OPS, CONVERT_OPS, MAIN_OPS as MAIN, POOL_OPS as POOLS, SCALAR_OPS as SCALAR, storedWeightBytes, TILING_OPS, VECTOR_OPS as VECTOR } from './check-ops';
import { mapDims, weightChannelDim } from './check-tflite';

const isConv = (n: InferredNode): boolean => CONV_OPS.includes(n.opType);

type Found = { rule: string; message: string };

const isWeight = (v: InferredValue | undefined): boolean => v !== undefined && (v.kind === 'initializer' || v.kind === 'constant');

/** Composition and weight rules of one unit. */
export function checkComposition(g: CheckGraph, u: FusionUnitCore, s: FusionSettings): Found[] {
  const nodes = u.nodeIndices.map((n) => g.graph.nodes[n]!);
  const out: Found[] = [];
  for (const node of nodes) {
    if (!TILING_OPS.includes(node.opType)) {
      out.push({ rule: 'tileable', message: `${node.opType} '${node.name}' cannot pass a tile` });
    }
    const oneElement = (n: string): boolean => (g.values.get(n)!.shape ?? []).reduce((a, b) => a * b, 1) === 1;
    const readers = node.inputs.filter((n) => isWeight(g.values.get(n)) && !oneElement(n)).map((n) => new Set(g.values.get(n)!.consumers).size);
    if (s.rules.skipSharedWeights && isConv(node) && readers.some((r) => r > 1)) {
      out.push({ rule: 'shared-weights', message: `'${node.name}' shares its weights` });
    }
  }
  const wram = nodes.reduce((sum, n) => sum + weightBytesPerCore(g, n, s.coresPerCluster), 0);
  if (wram > s.wramBytes) out.push({ rule: 'wram', message: `weights need ${wram} B per core > WRAM ${s.wramBytes} B` });
  const members = new Set(u.nodeIndices);
  const leaving = nodes.flatMap((n) => n.outputs).filter((name) => {
    const v = g.values.get(name);
    return v !== undefined && (g.graph.outputs.includes(name) || v.consumers.some((c) => !members.has(c)));
  });
  const last = nodes[nodes.length - 1]!.outputs[0];
  if (g.values.get(last ?? '')?.shape?.length !== 4) out.push({ rule: 'map-output', message: `the unit ends at '${last}', not a 4-D feature map` });
  if (s.rules.singleOutput && (leaving.length !== 1 || leaving[0] !== last || u.output !== last)) {
    out.push({ rule: 'single-output', message: `tensors leaving the unit: ${leaving.join(', ')}` });
  }
  const mains = nodes.filter((n) => MAIN.includes(n.opType)).length;
  if (mains < s.rules.minMainLayers) out.push({ rule: 'main-layers', message: `${mains} main layers < ${s.rules.minMainLayers}` });
  const nonMain = (n: InferredNode): boolean => !MAIN.includes(n.opType) && !CONVERT_OPS.includes(n.opType);
  if (s.rules.mainMainNonMain && !hasSequence(nodes, [(n) => MAIN.includes(n.opType), (n) => MAIN.includes(n.opType), nonMain])) {
    out.push({ rule: 'main-main-non-main', message: 'no main -> main -> non-main sequence' });
  }
  if (s.rules.scalarThenVector && !hasSequence(nodes, [(n) => SCALAR.includes(n.opType), (n) => VECTOR.includes(n.opType)])) {
    out.push({ rule: 'scalar-then-vector', message: 'no scalar -> vector sequence' });
  }
  out.push(...checkStride(g, nodes, s));
  return out;
}

/** Weight bytes of a node on one core, each weight split by its channel dim (the leading one, a TFLite depthwise filter's last) when it equals the output channels. */
export function weightBytesPerCore(g: CheckGraph, node: InferredNode, cores: number): number {
  const channels = g.values.get(node.outputs[0] ?? '')?.shape?.[mapDims(node).c];
  let bytes = 0;
  for (const name of node.inputs) {
    const v = g.values.get(name);
    if (!isWeight(v)) continue;
    const lead = v!.shape?.[weightChannelDim(node, v!)];
    const stored = storedWeightBytes(g.graph, g.values, v!);
    bytes += lead !== undefined && lead === channels && lead > 0 ? (Math.ceil(lead / cores) * stored) / lead : stored;
  }
  return Math.ceil(bytes);
}

/** True when nodes matching `tests` in turn each read the previous one's output (directly or through conversions). */
function hasSequence(nodes: readonly InferredNode[], tests: readonly ((n: InferredNode) => boolean)[]): boolean {
  const seen = (node: InferredNode): string[] => {
    const out = [node.outputs[0]!];
    for (let i = 0; i < out.length; i++) {
      for (const m of nodes) if (CONVERT_OPS.includes(m.opType) && m.inputs.includes(out[i]!)) out.push(m.outputs[0]!);
    }
    return out;
  };
  const extend = (node: InferredNode, k: number): boolean =>
    k === tests.length || nodes.some((m) => tests[k]!(m) && seen(node).some((t) => m.inputs.includes(t)) && extend(m, k + 1));
  return nodes.some((n) => tests[0]!(n) && extend(n, 1));
}

function checkStride(g: CheckGraph, nodes: readonly InferredNode[], s: FusionSettings): Found[] {
  let h = 0;
  let w = 0;
  for (const node of nodes) {
    if (!isConv(node) && !POOLS.includes(node.opType)) continue;
    const a = windowOf(g, node, 2);
    const b = windowOf(g, node, 3);
    h += (a.k - 1) * a.d + 1 - a.s;
    w += (b.k - 1) * b.d + 1 - b.s;
  }
  if (Math.max(h, w) <= s.rules.strideRedundancy || containsJoinedBranches(g, nodes)) return [];
  return [{ rule: 'stride-redundancy', message: `kernel - stride sums H ${h}, W ${w} > ${s.rules.strideRedundancy} with no whole block inside` }];
}

/**
 * True when the nodes hold a whole multi-branch block: a tensor read by two
 * or more of them whose branches all meet again at one of them (every
 * feature-map input of the join descends from the tensor inside the unit).
 */
function containsJoinedBranches(g: CheckGraph, nodes: readonly InferredNode[]): boolean {
  const producer = new Map(nodes.map((n) => [n.outputs[0]!, n]));
  const activations = (n: InferredNode): string[] => n.inputs.filter((name) => name !== '' && !isWeight(g.values.get(name)));
  const memo = new Map<string, boolean>();
  const descends = (name: string, source: string): boolean => {
    if (name === source) return true;
    const key = `${name}\u0000${source}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const p = producer.get(name);
    const result = p !== undefined && activations(p).some((i) => descends(i, source));
    memo.set(key, result);
    return result;
  };
  const forks = new Set<string>();
  const seen = new Set<string>();
  for (const n of nodes) for (const i of activations(n)) (seen.has(i) ? forks : seen).add(i);
  return nodes.some((join) => {
    const ins = activations(join);
    return ins.length > 1 && [...forks].some((f) => ins.every((i) => descends(i, f)));
  });
}
