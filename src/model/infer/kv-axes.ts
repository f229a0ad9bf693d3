// The axes a decoder's KV cache grows along, read off the graph before any
// shape is known, so the dims there get the past-length default whatever they
// are called. No DOM; reads the IR graph only.
//
// A cache input is found as the planner finds one by structure
// (planner/problem/kv-cache.ts): a Concat of the default domain writes a graph
// output from exactly one graph input (the past) and a tensor a node computes.
// Its growing axis is the Concat's axis on the past input. A cache has rank 3
// or more ([batch, past, hidden], [batch, heads, past, head]) and never grows
// along axis 0 (the batch): token ids [batch, seq] with a constant token
// appended, or an input stacked onto a result along the batch, are no cache.
// The new entries a cache appends are computed from the tokens, never from
// the past itself: an input concatenated with a result read off that same
// input (an image beside its filtered copy, a spectrogram with its deltas) is
// no cache, and its dim keeps its own default.

import type { IrGraph } from '../ir';
import { computedFrom } from '../../shared/computed-from';

/** The growing axes of `graph`'s KV-cache inputs, as "<input>:<axis>"; empty when it has no KV cache. */
export function kvPastAxes(graph: IrGraph): ReadonlySet<string> {
  const inputs = new Map(graph.inputs.map((v) => [v.name, v]));
  const outputs = new Set(graph.outputs.map((v) => v.name));
  const computed = new Set(graph.nodes.filter((n) => n.opType !== 'Constant').flatMap((n) => n.outputs));
  const producer = new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const axes = new Set<string>();
  for (const node of graph.nodes) {
    if (node.opType !== 'Concat' || node.domain !== '' || !node.outputs.some((o) => outputs.has(o))) continue;
    const pasts = node.inputs.filter((n) => inputs.has(n));
    const rank = pasts.length === 1 ? inputs.get(pasts[0]!)?.shape?.length : undefined;
    const attr = node.attributes['axis'];
    if (rank === undefined || rank < 3 || attr?.kind !== 'int') continue;
    if (!node.inputs.some((n) => computed.has(n) && !computedFrom(n, pasts[0]!, (t) => producer.get(t)?.inputs))) continue;
    const axis = attr.value < 0 ? attr.value + rank : attr.value;
    if (axis >= 1 && axis < rank) axes.add(`${pasts[0]!}:${axis}`);
  }
  return axes;
}
