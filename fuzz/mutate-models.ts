// Mutations of real models: structural (dims, op types, attributes, inputs,
// initializer shapes, node order, names that are Object.prototype members) on
// the decoded ModelProto, and byte-level (flips, cuts, inserts). Depends on
// onnx-proto and the model/ testing writer.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { encodeModel } from '../src/model/testing/onnx-writer';
import { randomDim, randomInt } from './pools';
import type { Rng } from './random';
import { RULE_OPS } from './random-models';

const { onnx } = onnxProto;

/** A real model to mutate: its file name and bytes. */
export interface SeedModel {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The .onnx and .tflite files under `dir` (one level of folders), smallest first; none when the folder is absent. */
export function loadSeedModels(dir: string, maxBytes = 4 << 20): SeedModel[] {
  const found: SeedModel[] = [];
  const visit = (path: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(path);
    } catch {
      return;
    }
    for (const entry of entries.sort()) {
      const full = join(path, entry);
      const stat = statSync(full);
      if (stat.isDirectory() && depth === 0) visit(full, 1);
      else if ((entry.endsWith('.onnx') || entry.endsWith('.tflite')) && stat.size <= maxBytes) found.push({ name: full.slice(dir.length + 1), bytes: new Uint8Array(readFileSync(full)) });
    }
  };
  visit(dir, 0);
  return found.sort((a, b) => a.bytes.length - b.bytes.length);
}

const HOSTILE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '', 'a\nb', '\u0000'];

type Mutation = (rng: Rng, graph: Onnx.IGraphProto) => string;

function randomNode(rng: Rng, graph: Onnx.IGraphProto): Onnx.INodeProto | undefined {
  const nodes = graph.node ?? [];
  return nodes.length === 0 ? undefined : rng.pick(nodes);
}

const MUTATIONS: readonly Mutation[] = [
  (rng, graph) => {
    const values = [...(graph.input ?? []), ...(graph.valueInfo ?? []), ...(graph.output ?? [])];
    const dims = values.length === 0 ? [] : (rng.pick(values).type?.tensorType?.shape?.dim ?? []);
    if (dims.length === 0) return 'dim: none';
    const dim = rng.pick(dims);
    const value = randomDim(rng);
    if (typeof value === 'number') Object.assign(dim, { dimValue: value, dimParam: undefined });
    else Object.assign(dim, { dimValue: undefined, dimParam: value ?? '' });
    return `dim ${String(value)}`;
  },
  (rng, graph) => {
    const node = randomNode(rng, graph);
    if (node === undefined) return 'op: none';
    const [domain, op] = rng.chance(0.1) ? ['', rng.pick(HOSTILE_NAMES)] : rng.pick(RULE_OPS);
    Object.assign(node, { opType: op, domain });
    return `op ${op}`;
  },
  (rng, graph) => {
    const node = randomNode(rng, graph);
    const attribute = node?.attribute?.length ? rng.pick(node.attribute) : undefined;
    if (attribute === undefined) return 'attr: none';
    if (attribute.ints?.length) attribute.ints = attribute.ints.map((v) => (rng.chance(0.5) ? randomInt(rng) : v));
    else attribute.i = randomInt(rng);
    return `attr ${attribute.name ?? ''}`;
  },
  (rng, graph) => {
    const node = randomNode(rng, graph);
    const names = (graph.node ?? []).flatMap((n) => n.output ?? []);
    if (node === undefined || names.length === 0) return 'input: none';
    const inputs = [...(node.input ?? [])];
    if (rng.chance(0.5) && inputs.length > 0) inputs.splice(rng.int(0, inputs.length - 1), 1);
    else inputs.splice(rng.int(0, inputs.length), 0, rng.chance(0.2) ? '' : rng.pick(names));
    node.input = inputs;
    return 'input rewired';
  },
  (rng, graph) => {
    const tensors = graph.initializer ?? [];
    if (tensors.length === 0) return 'init: none';
    const t = rng.pick(tensors);
    t.dims = (t.dims ?? []).map((d) => (rng.chance(0.5) ? randomInt(rng) : d));
    return 'init dims';
  },
  (rng, graph) => {
    const node = randomNode(rng, graph);
    if (node === undefined) return 'name: none';
    const name = rng.pick(HOSTILE_NAMES);
    if (rng.chance(0.5)) node.name = name;
    else if (node.output?.length) node.output = node.output.map((o, i) => (i === 0 ? name : o));
    return `name ${JSON.stringify(name)}`;
  },
  (rng, graph) => {
    const nodes = graph.node ?? [];
    if (nodes.length < 2) return 'dup: none';
    nodes.splice(rng.int(0, nodes.length), 0, { ...rng.pick(nodes) });
    return 'node duplicated';
  },
];

/** The model with 1–4 structural mutations; undefined when it does not decode as a ModelProto. */
export function mutateStructure(rng: Rng, seed: SeedModel): { readonly bytes: Uint8Array; readonly label: string } | undefined {
  let model: Onnx.ModelProto;
  try {
    model = onnx.ModelProto.decode(seed.bytes);
  } catch {
    return undefined;
  }
  const graph = model.graph;
  if (graph === null || graph === undefined) return undefined;
  const done: string[] = [];
  for (let i = rng.int(1, 4); i > 0; i--) done.push(rng.pick(MUTATIONS)(rng, graph));
  return { bytes: encodeModel(model), label: `${seed.name}: ${done.join(', ')}` };
}

/** The model's bytes with random flips, cuts or inserted bytes. */
export function mutateBytes(rng: Rng, seed: SeedModel): { readonly bytes: Uint8Array; readonly label: string } {
  const bytes = new Uint8Array(seed.bytes);
  const how = rng.int(0, 2);
  if (how === 0) {
    const flips = rng.int(1, 16);
    for (let i = 0; i < flips; i++) bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255);
    return { bytes, label: `${seed.name}: ${flips} bytes changed` };
  }
  if (how === 1) {
    const at = rng.int(0, bytes.length);
    return { bytes: bytes.slice(0, at), label: `${seed.name}: cut at ${at}` };
  }
  const at = rng.int(0, bytes.length);
  const extra = Uint8Array.from({ length: rng.int(1, 12) }, () => rng.int(0, 255));
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes.subarray(0, at));
  out.set(extra, at);
  out.set(bytes.subarray(at), at + extra.length);
  return { bytes: out, label: `${seed.name}: ${extra.length} bytes inserted at ${at}` };
}
