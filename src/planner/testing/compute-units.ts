// Test helpers of the compute-unit tests: targets with compute units, the
// partition, sizes and boundaries of a small graph, and the node attributes
// and value types the tiny-graph builder does not write. Imported by tests only.

import type { InferredGraph, NodeAttribute } from '../../model/inferred';
import { scheduleGraph } from '../problem/schedule';
import type { TargetProfile } from '../targets/target';
import { testTarget } from './tiny-graph';
import { decideBoundaries } from '../compute-units/boundaries';
import { bytesOf, dtypeBits, dtypeCode } from '../compute-units/dtypes';
import { LevelSizes } from '../compute-units/level-sizes';
import { partitionGraph } from '../compute-units/partition';

/** A unit document: name, op types, activation type, alignment, fake quantization. */
export function unitDoc(name: string, opTypes: readonly string[], activations = 'model', alignment = 1, fakeQuantization = false) {
  return { name, opTypes, dtype: { activations, fakeQuantization }, alignment };
}

/** NPU (int8, fake quantization, 64-byte alignment) running `ops`, with a float32 CPU (16) falling back. */
export function npuCpu(ops: readonly string[], regionAlignment = 1): TargetProfile {
  return testTarget({
    alignment: regionAlignment,
    computeUnits: [unitDoc('npu', ops, 'int8', 64, true), unitDoc('cpu', ['*'], 'float32', 16)],
  });
}

/** Partition, level sizes and boundary decisions of `graph` for `target`. */
export function analyse(graph: InferredGraph, target: TargetProfile, copyAll = false) {
  const schedule = scheduleGraph(graph, 'file', 'whole-run');
  const diagnostics: { code: string; message: string }[] = [];
  const partition = partitionGraph(graph, schedule, target.computeUnits, diagnostics);
  const sizes = new LevelSizes(graph, target.regions[0]!.alignment);
  const boundaries = decideBoundaries(graph, partition, schedule.stepOf, sizes, { copyAll, opKinds: target.planning.opKinds });
  const unit = (name: string) => target.computeUnits.find((u) => u.name === name)!;
  const value = (name: string) => graph.values.find((v) => v.name === name)!;
  return { schedule, partition, sizes, boundaries, diagnostics, unit, value };
}

/** `graph` with attributes set on the node named `node` (the tiny-graph builder writes none). */
export function withAttributes(graph: InferredGraph, node: string, attributes: Readonly<Record<string, NodeAttribute>>): InferredGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.name === node ? { ...n, attributes: { ...n.attributes, ...attributes } } : n)) };
}

/** `graph` with the value `name` stored as `dtype` (the builder gives all outputs of a node one type). */
export function withDtype(graph: InferredGraph, name: string, dtype: string): InferredGraph {
  const values = graph.values.map((v) => {
    if (v.name !== name || v.shape === undefined) return v;
    const bytes = bytesOf(v.shape.reduce((a, b) => a * b, 1), dtypeBits(dtype)!);
    return { ...v, dtype: dtypeCode(dtype)!, dtypeName: dtype, bytes };
  });
  return { ...graph, values };
}
