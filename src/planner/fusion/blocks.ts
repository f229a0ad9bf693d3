// Blocks for template fusion units (METHODS.md M2, "prefer whole blocks"):
// runs of consecutive steps that form a single-entry, single-exit sub-network
// with more than one branch, such as a residual or an inception block.
// Depends only on the model's IR types.
//
// - Scan every start step s; extend the end step e one at a time.
// - The run [s, e] is a block when its nodes read exactly one run-time tensor
//   produced before s (the entry), exactly one tensor produced inside is read
//   after e or is a graph output (the exit, written by the node at e), and a
//   tensor of the run (the entry included) is read by two or more of its nodes.
// - For each start only the shortest block is kept; longer ones are found
//   from later starts or by growing unit by unit.
// - Linear in steps: each tensor's last reader and each step's reads are
//   found once; a start from which no tensor has two readers within
//   MAX_BLOCK_STEPS is skipped unscanned (a long chain has none); a scan keeps
//   the number of exits as it goes (tensors leave it at their last reader)
//   rather than counting them again at every end step.

import type { InferredGraph } from '../../model/inferred';

/** A single-entry single-exit multi-branch run of steps. */
export interface Block {
  readonly first: number; // step
  readonly last: number; // step, inclusive
  readonly entry: string; // the tensor it reads from outside
  readonly exit: string; // the tensor it writes for later steps
}

/** Longest run scanned for a block, in steps. */
export const MAX_BLOCK_STEPS = 96;

/** What the scans read of the graph, found once. */
interface StepFacts {
  readonly reads: readonly (readonly string[])[]; // per step: the run-time tensors its node reads, once each
  readonly outputs: readonly (readonly string[])[]; // per step: its node's outputs
  readonly lastUse: (name: string) => number; // step of the last reader; +Infinity for a graph output
}

/** Blocks of the graph in the execution order `order` (node indices), by first step. */
export function findBlocks(graph: InferredGraph, order: readonly number[]): Block[] {
  const facts = stepFacts(graph, order);
  const branchy = firstBranchyEnds(facts.reads);
  const blocks: Block[] = [];
  for (let s = 0; s < order.length; s++) {
    if (branchy[s]! >= s + MAX_BLOCK_STEPS) continue;
    const block = shortestBlock(facts, s);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

function stepFacts(graph: InferredGraph, order: readonly number[]): StepFacts {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const stepOf = new Map(order.map((node, step) => [node, step]));
  const outputs = new Set(graph.outputs);
  const last = new Map<string, number>();
  for (const v of graph.values) {
    if (outputs.has(v.name)) continue;
    let use = -1;
    for (const c of v.consumers) use = Math.max(use, stepOf.get(c) ?? -1);
    last.set(v.name, use);
  }
  const runTime = (name: string): boolean => {
    const kind = values.get(name)?.kind;
    return kind === 'input' || kind === 'activation' || kind === 'output';
  };
  const nodes = order.map((n) => graph.nodes[n]!);
  return {
    reads: nodes.map((node) => [...new Set(node.inputs.filter((n) => n !== '' && runTime(n)))]),
    outputs: nodes.map((node) => node.outputs.filter((n) => n !== '')),
    lastUse: (name) => last.get(name) ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * Per start step s, the first end step e at which some tensor has two readers
 * in [s, e] (+Infinity when none): a run ending earlier has no branch. Two
 * consecutive readers p < e of a tensor give e to every start up to p.
 */
function firstBranchyEnds(reads: readonly (readonly string[])[]): Float64Array {
  const ends = new Float64Array(reads.length + 1).fill(Number.POSITIVE_INFINITY);
  const previous = new Map<string, number>();
  reads.forEach((names, e) => {
    for (const name of names) {
      const p = previous.get(name);
      if (p !== undefined) ends[p] = Math.min(ends[p]!, e);
      previous.set(name, e);
    }
  });
  for (let s = reads.length - 1; s >= 0; s--) ends[s] = Math.min(ends[s]!, ends[s + 1]!);
  return ends;
}

/** The shortest block starting at step s, if any; see the module header. */
function shortestBlock(facts: StepFacts, s: number): Block | undefined {
  const { reads, outputs, lastUse } = facts;
  const produced = new Map<string, number>(); // tensor -> producing step
  const entries = new Set<string>();
  const readers = new Map<string, number>(); // tensor -> readers inside the run
  const leaving = new Map<number, number>(); // step -> exits whose last reader runs then
  let branchy = false;
  let exits = 0; // tensors produced in the run and read after the current step (or graph outputs)
  for (let e = s; e < reads.length && e < s + MAX_BLOCK_STEPS; e++) {
    for (const name of reads[e]!) {
      if (!produced.has(name)) entries.add(name);
      const count = (readers.get(name) ?? 0) + 1;
      readers.set(name, count);
      if (count > 1) branchy = true;
    }
    if (entries.size > 1) return undefined;
    exits -= leaving.get(e) ?? 0;
    let exit: string | undefined;
    for (const name of outputs[e]!) {
      const use = lastUse(name);
      if (!produced.has(name) && use > e) {
        exits++;
        leaving.set(use, (leaving.get(use) ?? 0) + 1);
      }
      produced.set(name, e);
      if (use > e) exit = name;
    }
    if (e === s) continue;
    if (exits === 1 && exit !== undefined && branchy && entries.size === 1) {
      return { first: s, last: e, entry: [...entries][0]!, exit };
    }
  }
  return undefined;
}

/** The blocks of a graph, looked up in constant time. */
export interface BlockIndex {
  readonly startingAt: (step: number) => Block | undefined; // the block whose first step is `step`
  readonly holdsWhole: (first: number, last: number) => boolean; // some block lies within steps [first, last]
}

/** Indexes `blocks` (findBlocks' answer: by first step, one per step at most) of a graph of `steps` steps. */
export function indexBlocks(blocks: readonly Block[], steps: number): BlockIndex {
  const byFirst = new Map(blocks.map((b) => [b.first, b]));
  // least last step of a block starting at or after each step
  const leastLast = new Float64Array(steps + 1).fill(Number.POSITIVE_INFINITY);
  for (const b of blocks) leastLast[b.first] = Math.min(leastLast[b.first]!, b.last);
  for (let s = steps - 1; s >= 0; s--) leastLast[s] = Math.min(leastLast[s]!, leastLast[s + 1]!);
  return {
    startingAt: (step) => byFirst.get(step),
    holdsWhole: (first, last) => first >= 0 && first <= steps && leastLast[first]! <= last,
  };
}
