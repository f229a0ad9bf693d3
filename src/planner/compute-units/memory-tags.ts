// Memory tags (METHODS.md M3, step 3 and the operator level of step 4): a tag
// for every expression of the laid-out graph, with the memory it lives in and
// how often it is reused. Depends only on the model's IR types and the planner.
//
// - Every tensor expression (graph input, weight or constant read at run
//   time, node output, copy) gets a tensor tag: memory id, reuse count
//   (starting at 0), tensor bytes and allocated bytes (after alignment).
//   A node with several outputs is a tuple-valued expression: it gets a tuple
//   tag merging one tensor tag per element, and a reader of one output (a
//   tuple-element expression) takes that element's tag.
// - Graph inputs, weights and constants bump their tag by 1 when created,
//   graph outputs by 1 when the run ends; every node bumps the tags of the
//   inputs it reads (once per input slot).
// - Reuse: an output that takes over an input's bytes whole (a removable
//   view or an in-place result, as the M1 sharing rules decided for the
//   plan) reuses that input's tag and bumps it; a boundary the reading
//   function shares bumps the tag once more. Otherwise the output gets a
//   fresh tag.
// - The memory id is the plan buffer that holds the tag's bytes: the root of
//   its alias group (Split and Concat windows get their own tags inside their
//   parent's memory). Weights have none: they are not planned.

import type { InferredGraph } from '../../model/inferred';
import type { BufferInfo } from '../problem/build-problem';
import { aliasRoots, type PlacementProblem } from '../problem/problem';
import type { Boundary } from './boundaries';
import type { GraphFunction } from './partition';

/** A tensor tag. */
export interface TensorTag {
  readonly id: number;
  readonly tensors: readonly string[]; // expressions using it, the first one created it
  readonly memory: number | undefined; // plan buffer id holding its bytes; undefined for weights
  readonly reuseCount: number;
  readonly tensorBytes: number;
  readonly allocatedBytes: number;
  readonly dtype: string;
  readonly function: string | undefined; // the function that created it; undefined for graph inputs and weights
}

/** The tag of a tuple-valued expression (a node with several outputs). */
export interface TupleTag {
  readonly node: string;
  readonly elements: readonly number[]; // tensor tag ids, by output slot
}

/** Every tag of a plan. */
export interface MemoryTags {
  readonly tensors: readonly TensorTag[];
  readonly tuples: readonly TupleTag[];
}

/** What the tags are read from. */
export interface TagInput {
  readonly graph: InferredGraph; // the laid-out graph (with copy nodes)
  readonly order: readonly number[]; // its execution order
  readonly functionOf: Int32Array; // its node index -> function index
  readonly functions: readonly GraphFunction[];
  readonly problem: PlacementProblem;
  readonly info: readonly BufferInfo[];
  readonly boundaries: readonly Boundary[];
}

type MutableTag = { -readonly [K in keyof TensorTag]: TensorTag[K] } & { tensors: string[] };

/** Computes the memory tags; see the module header. */
export function memoryTags(input: TagInput): MemoryTags {
  const { graph, problem, info } = input;
  const bufferOf = new Map(problem.buffers.map((b) => [b.name, b.id]));
  const roots = aliasRoots(problem);
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const tags: MutableTag[] = [];
  const tagOf = new Map<string, MutableTag>();
  const create = (name: string, fn: string | undefined): MutableTag => {
    const value = values.get(name)!;
    const id = bufferOf.get(name);
    const tag: MutableTag = {
      id: tags.length,
      tensors: [name],
      memory: id === undefined ? undefined : roots[id]!,
      reuseCount: 0,
      tensorBytes: id === undefined ? (value.bytes ?? 0) : info[id]!.bytes,
      allocatedBytes: id === undefined ? (value.bytes ?? 0) : problem.buffers[id]!.size,
      dtype: value.dtypeName,
      function: fn,
    };
    tags.push(tag);
    tagOf.set(name, tag);
    return tag;
  };
  const tuples: TupleTag[] = [];
  for (const value of graph.values) {
    if (value.producer === undefined && value.consumers.length > 0) create(value.name, undefined).reuseCount++;
  }
  for (const n of input.order) {
    const node = graph.nodes[n]!;
    const fn = input.functions[input.functionOf[n]!]?.name;
    for (const name of node.inputs) {
      const tag = name === '' ? undefined : (tagOf.get(name) ?? (values.has(name) ? create(name, undefined) : undefined));
      if (tag !== undefined) tag.reuseCount++;
    }
    const elements = node.outputs.filter((o) => o !== '' && values.has(o)).map((o) => outputTag(o, fn));
    if (elements.length > 1) tuples.push({ node: node.name, elements: elements.map((t) => t.id) });
  }
  function outputTag(name: string, fn: string | undefined): MutableTag {
    const id = bufferOf.get(name);
    const alias = id === undefined ? undefined : info[id]!.alias;
    const whole = alias !== undefined && (alias.rule === 'removable' || alias.rule === 'in-place') && alias.offset === 0;
    const parent = whole ? tagOf.get(problem.buffers[alias.parent]!.name) : undefined;
    if (parent === undefined) return create(name, fn);
    parent.tensors.push(name);
    parent.reuseCount++;
    tagOf.set(name, parent);
    return parent;
  }
  for (const b of input.boundaries) if (b.shared) tagOf.get(b.tensor)!.reuseCount++;
  for (const name of graph.outputs) {
    const tag = tagOf.get(name);
    if (tag !== undefined) tag.reuseCount++;
  }
  return { tensors: tags, tuples };
}
