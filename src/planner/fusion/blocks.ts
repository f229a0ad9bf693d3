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

import type { InferredGraph } from '../../model/inferred';

/** A single-entry single-exit multi-branch run of steps. */
export interface Block {
  readonly first: number; // step
  readonly last: number; // step, inclusive
  readonly entry: string; // the tensor it reads from outside
  readonly exit: string; // the tensor it writes for later steps
}

/** Longest run scanned for a block, in steps. */
const MAX_BLOCK_STEPS = 96;

/** Blocks of the graph in the execution order `order` (node indices), by first step. */
export function findBlocks(graph: InferredGraph, order: readonly number[]): Block[] {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const stepOf = new Map(order.map((node, step) => [node, step]));
  const outputs = new Set(graph.outputs);
  const lastUse = (name: string): number => {
    const v = values.get(name);
    if (v === undefined || outputs.has(name)) return Number.POSITIVE_INFINITY;
    return Math.max(-1, ...v.consumers.map((c) => stepOf.get(c) ?? -1));
  };
  const runTime = (name: string): boolean => {
    const kind = values.get(name)?.kind;
    return kind === 'input' || kind === 'activation' || kind === 'output';
  };
  const blocks: Block[] = [];
  for (let s = 0; s < order.length; s++) {
    const block = shortestBlock(graph, order, s, { lastUse, runTime });
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

interface Lookups {
  readonly lastUse: (name: string) => number;
  readonly runTime: (name: string) => boolean;
}

function shortestBlock(graph: InferredGraph, order: readonly number[], s: number, look: Lookups): Block | undefined {
  const produced = new Map<string, number>(); // tensor -> producing step
  const entries = new Set<string>();
  const reads = new Map<string, number>(); // tensor -> readers inside the run
  for (let e = s; e < order.length && e < s + MAX_BLOCK_STEPS; e++) {
    const node = graph.nodes[order[e]!]!;
    for (const name of new Set(node.inputs.filter((n) => n !== '' && look.runTime(n)))) {
      if (!produced.has(name)) entries.add(name);
      reads.set(name, (reads.get(name) ?? 0) + 1);
    }
    if (entries.size > 1) return undefined;
    for (const name of node.outputs) if (name !== '') produced.set(name, e);
    if (e === s) continue;
    const exits = [...produced.keys()].filter((name) => look.lastUse(name) > e);
    const branchy = [...reads.values()].some((count) => count > 1);
    if (exits.length === 1 && produced.get(exits[0]!) === e && branchy && entries.size === 1) {
      return { first: s, last: e, entry: [...entries][0]!, exit: exits[0]! };
    }
  }
  return undefined;
}
