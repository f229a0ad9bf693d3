// The names of a decoder's KV-cache tensors (the past inputs and the present
// outputs, planner/problem/kv-cache.ts), found once per model, for the views
// that draw the cache as a class of its own: the graph folds them, the heap
// and the live-bytes chart colour them.

import type { InferredGraph } from '../model/inferred';
import { kvCaches } from '../planner/problem/kv-cache';

const NONE: ReadonlySet<string> = new Set();
const found = new WeakMap<InferredGraph, ReadonlySet<string>>();

/** Every KV-cache input and output of `graph` by name; empty without a model or a cache. */
export function kvCacheNames(graph: InferredGraph | undefined): ReadonlySet<string> {
  if (graph === undefined) return NONE;
  let names = found.get(graph);
  if (names === undefined) {
    const caches = kvCaches(graph);
    names = new Set([...caches.byPast.keys(), ...caches.byPresent.keys()]);
    found.set(graph, names);
  }
  return names;
}
