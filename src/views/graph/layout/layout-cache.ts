// Placements kept per model and structure key (layout-input.ts), so a
// re-plan that leaves the structure alone (strategy, dims, most target changes)
// reuses the positions at once, and reopening a grouping seen before is instant.
// Plain data; no DOM.

import type { InferredModel } from '../../../model/inferred';
import type { GraphPlacement } from '../../../worker/layout/protocol';

/** Structures kept per model, the most recently used last. */
const PER_MODEL = 12;

// Keyed by the model's name and size of its node list as well as its identity: a re-inference
// (dims) makes a new InferredModel with the same structure.
const cache = new Map<string, Map<string, GraphPlacement>>();
const MODELS = 4;

/** The model part of a cache key: stable across re-inference of the same file. */
export function modelCacheKey(model: InferredModel): string {
  const first = model.nodes[0]?.name ?? '';
  const last = model.nodes.at(-1)?.name ?? '';
  return `${model.name}|${model.nodes.length}|${model.values.length}|${first}|${last}|${model.info.fileBytes}`;
}

/** The placement kept for `key` of `model`, if any. */
export function cachedPlacement(model: InferredModel, key: string): GraphPlacement | undefined {
  const entries = cache.get(modelCacheKey(model));
  const hit = entries?.get(key);
  if (entries !== undefined && hit !== undefined) {
    entries.delete(key);
    entries.set(key, hit);
  }
  return hit;
}

/** Keeps `placement` for `key` of `model`. */
export function keepPlacement(model: InferredModel, key: string, placement: GraphPlacement): void {
  const id = modelCacheKey(model);
  const entries = cache.get(id) ?? new Map<string, GraphPlacement>();
  cache.delete(id);
  cache.set(id, entries);
  entries.set(key, placement);
  if (entries.size > PER_MODEL) entries.delete(entries.keys().next().value!);
  if (cache.size > MODELS) cache.delete(cache.keys().next().value!);
}
