// The names of a decoder's KV-cache tensors (the past inputs and the present
// outputs, planner/problem/kv-cache.ts), found once per model or saved plan,
// for the views that draw the cache as a class of its own: the graph folds
// them, the heap (the page's, the comparison's and a saved plan's) and the
// live-bytes chart colour them.

import type { InferredGraph } from '../model/inferred';
import type { PlanFile } from '../planner/assembly/plan-file';
import { kvCaches, kvCachesOf, kvNamesOf, type KvCaches } from '../planner/problem/kv-cache';

const NONE: ReadonlySet<string> = new Set();
const found = new WeakMap<InferredGraph | PlanFile, ReadonlySet<string>>();

/** Every KV-cache input and output of `graph` by name; empty without a model or a cache. */
export function kvCacheNames(graph: InferredGraph | undefined): ReadonlySet<string> {
  return graph === undefined ? NONE : namesOnce(graph, () => kvCaches(graph));
}

/**
 * The same for a plan file (a saved plan, or a side of a comparison): its
 * graph inputs and outputs are its buffers of those kinds, the Concat that
 * writes an output is among its nodes; a file records no dtypes or shapes,
 * so a past read by that Concat is taken as alike.
 */
export function planKvCacheNames(file: PlanFile): ReadonlySet<string> {
  return namesOnce(file, () => {
    const ofKind = (kind: 'input' | 'output') => file.plan.buffers.filter((b) => b.kind === kind).map((b) => b.name);
    const writers = new Map(file.nodes.flatMap((node) => node.outputs.map((out) => [out, node] as const)));
    return kvCachesOf({
      inputs: ofKind('input'),
      outputs: ofKind('output'),
      concatInputs: (output) => {
        const writer = writers.get(output);
        return writer?.opType === 'Concat' ? writer.inputs : undefined;
      },
      alike: () => true,
    });
  });
}

/**
 * The title of a folded KV-cache box: "past KV cache · layer 3", so a
 * decoder's many cache boxes (GPT-2's five, read by Attention nodes outside
 * any layer's scope) tell apart; without the layer when the names carry none.
 */
export function kvBoxTitle(role: 'input' | 'output', layer: number | undefined): string {
  const title = role === 'input' ? 'past KV cache' : 'present KV cache';
  return layer === undefined ? title : `${title} · layer ${layer}`;
}

/**
 * The layer number a KV-cache tensor's name carries: its first number set off
 * by separators ("past_0", "past_key_values.3.key", "/model/layers.3/…/Concat_key_out"),
 * not one inside a word ("fp16"); undefined when it has none.
 */
export function kvLayerOf(name: string): number | undefined {
  const m = /(?:^|[._\-/:])(\d+)(?=$|[._\-/:])/.exec(name);
  return m === null ? undefined : Number(m[1]);
}

function namesOnce(key: InferredGraph | PlanFile, caches: () => KvCaches): ReadonlySet<string> {
  let names = found.get(key);
  if (names === undefined) {
    const all = caches();
    names = all.byPast.size === 0 ? NONE : kvNamesOf(all);
    found.set(key, names);
  }
  return names;
}
