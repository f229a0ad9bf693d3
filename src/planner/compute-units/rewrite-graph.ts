// The graph the compute-unit plan lays out: every tensor re-typed and re-sized
// by its home view (M3 level sizes) and one copy node per copied boundary,
// whose output the reading function reads instead. Depends only on the
// model's IR types and the planner.
//
// - A copy node ('Copy' in the 'heapscope' domain) runs right before the
//   reading function's first node that reads the tensor (in the execution
//   order the partition was made on, which the rewritten graph keeps, and
//   in the file order); it belongs to that function, and its output has the
//   reader's view.
// - Producers and consumers follow the new node indices; readers of a copied
//   tensor in the reading function read the copy instead.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { stepsOf } from '../problem/schedule';
import type { Boundary } from './boundaries';
import { dtypeCode } from './dtypes';
import type { TensorView } from './level-sizes';

/** The domain of the copy nodes the plan inserts. */
export const COPY_DOMAIN = 'heapscope';

/** The rewritten graph, the function of each of its nodes and its execution order. */
export interface RewrittenGraph {
  readonly graph: InferredGraph;
  readonly functionOf: Int32Array; // node index of the new graph -> function index; -1 when unscheduled
  readonly order: readonly number[]; // new node indices in execution order: the given order with the copies
}

/**
 * Rewrites `graph` with level sizes and copy nodes; `homes` maps tensor names
 * to their home view, `order` is the execution order the partition was made
 * on (original node indices).
 */
export function withCopies(
  graph: InferredGraph,
  functionOf: Int32Array,
  homes: ReadonlyMap<string, TensorView>,
  boundaries: readonly Boundary[],
  order: readonly number[],
): RewrittenGraph {
  const byName = new Map(graph.values.map((v) => [v.name, v]));
  const stepOf = stepsOf(graph, order);
  const copies = boundaries.filter((b) => b.copy !== undefined);
  const copiesBefore = new Map<number, Boundary[]>(); // by the first reader in the file
  const copiesAt = new Map<number, Boundary[]>(); // by the first reader in the execution order
  const readersOf = new Map<Boundary, number[]>();
  const renamed = new Map<string, string>(); // `${node index}\n${tensor}` -> copy name
  for (const b of copies) {
    const readers = byName.get(b.tensor)!.consumers.filter((c) => functionOf[c] === b.toFunction);
    const first = Math.min(...readers);
    const firstRun = readers.reduce((a, c) => (stepOf[c]! < stepOf[a]! ? c : a));
    copiesBefore.set(first, [...(copiesBefore.get(first) ?? []), b]);
    copiesAt.set(firstRun, [...(copiesAt.get(firstRun) ?? []), b]);
    readersOf.set(b, readers);
    for (const c of readers) renamed.set(`${c}\n${b.tensor}`, b.copy!);
  }
  const nodes: InferredNode[] = [];
  const fnOf: number[] = [];
  const newIndex = new Int32Array(graph.nodes.length);
  const copyNode = new Map<Boundary, number>();
  graph.nodes.forEach((node, n) => {
    for (const b of copiesBefore.get(n) ?? []) {
      copyNode.set(b, nodes.length);
      nodes.push({ name: `copy:${b.copy!}`, opType: 'Copy', domain: COPY_DOMAIN, inputs: [b.tensor], outputs: [b.copy!], subgraphs: [], constant: false });
      fnOf.push(b.toFunction);
    }
    newIndex[n] = nodes.length;
    nodes.push({ ...node, inputs: node.inputs.map((name) => renamed.get(`${n}\n${name}`) ?? name) });
    fnOf.push(functionOf[n]!);
  });
  const extraReaders = new Map<string, number[]>();
  for (const b of copies) extraReaders.set(b.tensor, [...(extraReaders.get(b.tensor) ?? []), copyNode.get(b)!]);
  const values: InferredValue[] = graph.values.map((v) => ({
    ...retyped(v, homes.get(v.name)),
    producer: v.producer === undefined ? undefined : newIndex[v.producer]!,
    consumers: [
      ...v.consumers.filter((c) => !renamed.has(`${c}\n${v.name}`)).map((c) => newIndex[c]!),
      ...(extraReaders.get(v.name) ?? []),
    ].sort((a, b) => a - b),
  }));
  for (const b of copies) {
    const source = retyped(byName.get(b.tensor)!, b.reader);
    const consumers = readersOf.get(b)!.map((c) => newIndex[c]!);
    values.push({ ...source, name: b.copy!, kind: 'activation', producer: copyNode.get(b)!, consumers });
  }
  const newOrder = order.flatMap((n) => [...(copiesAt.get(n) ?? []).map((b) => copyNode.get(b)!), newIndex[n]!]);
  return { graph: { ...graph, nodes, values }, functionOf: Int32Array.from(fnOf), order: newOrder };
}

/** A value with the type and bytes of a view. */
function retyped(value: InferredValue, view: TensorView | undefined): InferredValue {
  if (view === undefined || (view.dtype === value.dtypeName && view.bytes === (value.bytes ?? 0))) return value;
  return { ...value, dtype: dtypeCode(view.dtype) ?? value.dtype, dtypeName: view.dtype, bytes: view.bytes };
}
