// DRAM traffic of a plan: bytes written and read of the tensors that live in
// slow regions. Ops that sharing turned into views (removable ops, Concats
// whose inputs are windows) move no data. Depends only on the model's IR
// types and the planner.
//
// - A tensor is written once by its producer (graph inputs by the host),
//   except a view (a removable output or a Split window) and a Concat output
//   whose inputs were written in place.
// - It is read once by every consumer that is not dropped, and graph outputs
//   once more by the host.

import type { InferredGraph } from '../model/inferred';
import type { BufferInfo } from './build-problem';
import type { PlacementProblem } from './problem';

/** Bytes moved to and from slow memory. */
export interface Traffic {
  readonly before: number; // without fusion
  readonly after: number; // with fusion units (M2/M5); equal to `before` until they exist
}

/** DRAM traffic of the tensor buffers placed in `slowRegions`. */
export function dramTraffic(
  graph: InferredGraph,
  problem: PlacementProblem,
  info: readonly BufferInfo[],
  slowRegions: ReadonlySet<string>,
): Traffic {
  const idOf = new Map(problem.buffers.map((b) => [b.name, b.id]));
  const concatParents = new Set<number>();
  for (const b of info) if (b.alias?.rule === 'concat') concatParents.add(b.alias.parent);
  const dropped = droppedNodes(graph, idOf, info, concatParents);
  const outputs = new Set(graph.outputs);
  let bytes = 0;
  for (const value of graph.values) {
    const id = idOf.get(value.name);
    if (id === undefined || !slowRegions.has(problem.buffers[id]!.region ?? '')) continue;
    const buffer = info[id]!;
    const view = buffer.alias?.rule === 'removable' || buffer.alias?.rule === 'window';
    if (!view && !concatParents.has(id)) bytes += buffer.bytes;
    const reads = new Set(value.consumers.filter((c) => !dropped.has(c))).size + (outputs.has(value.name) ? 1 : 0);
    bytes += reads * buffer.bytes;
  }
  return { before: bytes, after: bytes };
}

/** Nodes whose every output became a view or whose inputs were written into its output. */
function droppedNodes(
  graph: InferredGraph,
  idOf: ReadonlyMap<string, number>,
  info: readonly BufferInfo[],
  concatParents: ReadonlySet<number>,
): Set<number> {
  const dropped = new Set<number>();
  graph.nodes.forEach((node, n) => {
    const ids = node.outputs.filter((o) => o !== '').map((o) => idOf.get(o));
    if (ids.length === 0 || ids.some((id) => id === undefined)) return;
    const views = ids.every((id) => info[id!]!.alias?.rule === 'removable' || info[id!]!.alias?.rule === 'window');
    if (views || (ids.length === 1 && concatParents.has(ids[0]!))) dropped.add(n);
  });
  return dropped;
}
