// KV caches of decoders: the graph inputs that bring a past key or value in
// and the graph outputs that hand the present one back. They are live because
// they are graph I/O (a past input from the start of the run to its last
// reader, a present output to the end), not because of how the graph reads
// them, and the words for them say so. Depends only on the model's IR types.
//
// - By name: an output and an input whose names are equal once the first
//   `present…` of the output and the first `past…` of the input are dropped
//   (present.3.key / past_key_values.3.key, present_key_3 / past_key_3,
//   present.0.decoder.value / past_key_values.0.decoder.value).
// - By structure: an output that a Concat writes from a graph input (the past)
//   and a computed tensor, of one dtype and rank, as every decoder exported
//   with a growing cache does, whatever the two are called. The computed
//   tensor is the new entries, read off the tokens, not off the past: an input
//   concatenated with a result computed from that input (an image beside its
//   filtered copy) is no cache.

import type { InferredGraph } from '../../model/inferred';
import { computedFrom } from '../../shared/computed-from';

/** A past/present pair of one KV cache. */
export interface KvCachePair {
  readonly past: string; // the graph input
  readonly present: string; // the graph output
}

/** The KV caches of `graph`, keyed both by past (input) and by present (output) name. */
export interface KvCaches {
  readonly byPast: ReadonlyMap<string, KvCachePair>;
  readonly byPresent: ReadonlyMap<string, KvCachePair>;
}

const PAST = /past(_key_values?|_key|_value)?/i;
const PRESENT = /present(_key_values?|_key|_value)?/i;

/** The name with its first past/present word dropped; undefined when it has none. */
function cacheKey(name: string, word: RegExp): string | undefined {
  const m = word.exec(name);
  if (m === null) return undefined;
  // Keep which half the word itself named: past_key_3 pairs with present_key_3, not present_value_3.
  const suffix = m[1]?.toLowerCase();
  const half = suffix === '_key' ? 'k' : suffix === '_value' ? 'v' : '';
  return `${half}|${name.slice(0, m.index)}${name.slice(m.index + m[0].length)}`;
}

/** What the search for KV caches reads of a graph: a model's IR or a saved plan's records (kvCachesOf). */
export interface KvGraphFacts {
  readonly inputs: readonly string[]; // graph inputs, in order
  readonly outputs: readonly string[]; // graph outputs, in order
  concatInputs(output: string): readonly string[] | undefined; // the inputs of the Concat (default domain) that writes `output`; undefined for another writer
  alike(past: string, present: string): boolean; // `past` can hold `present`'s data: one dtype and rank, as far as known
  reads?(tensor: string, input: string): boolean; // `tensor` is computed, at any depth, from graph input `input` (unknown: taken as not)
}

/** The past/present pairs of `graph`; see the module header. */
export function kvCaches(graph: InferredGraph): KvCaches {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  return kvCachesOf({
    inputs: graph.inputs,
    outputs: graph.outputs,
    concatInputs: (output) => {
      const out = values.get(output);
      const writer = out?.producer === undefined ? undefined : graph.nodes[out.producer];
      return writer === undefined || writer.opType !== 'Concat' || writer.domain !== '' ? undefined : writer.inputs;
    },
    alike: (past, present) => values.get(past)?.dtypeName === values.get(present)?.dtypeName && values.get(past)?.shape?.length === values.get(present)?.shape?.length,
    reads: (tensor, input) => computedFrom(tensor, input, (t) => {
      const producer = values.get(t)?.producer;
      return producer === undefined ? undefined : graph.nodes[producer]!.inputs;
    }),
  });
}

/** The past/present pairs of any graph described by `facts`; see the module header. */
export function kvCachesOf(facts: KvGraphFacts): KvCaches {
  const byPast = new Map<string, KvCachePair>();
  const byPresent = new Map<string, KvCachePair>();
  const add = (past: string, present: string): void => {
    if (byPast.has(past) || byPresent.has(present)) return;
    const pair = { past, present };
    byPast.set(past, pair);
    byPresent.set(present, pair);
  };
  const inputs = new Set(facts.inputs);
  const pastByKey = new Map<string, string>();
  for (const name of facts.inputs) {
    const key = cacheKey(name, PAST);
    if (key !== undefined && !pastByKey.has(key)) pastByKey.set(key, name);
  }
  for (const present of facts.outputs) {
    const key = cacheKey(present, PRESENT);
    const past = key === undefined ? undefined : pastByKey.get(key);
    if (past !== undefined) {
      add(past, present);
      continue;
    }
    const written = facts.concatInputs(present);
    if (written === undefined) continue;
    const computed = written.filter((n) => n !== '' && !inputs.has(n));
    const pasts = written.filter((n) => inputs.has(n) && facts.alike(n, present));
    if (pasts.length === 1 && computed.some((n) => facts.reads?.(n, pasts[0]!) !== true)) add(pasts[0]!, present);
  }
  return { byPast, byPresent };
}

/** Every KV-cache input and output of `caches` by name. */
export function kvNamesOf(caches: KvCaches): ReadonlySet<string> {
  return new Set([...caches.byPast.keys(), ...caches.byPresent.keys()]);
}
