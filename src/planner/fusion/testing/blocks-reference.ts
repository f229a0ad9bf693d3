// Test reference for fusion/blocks.ts: the plain scan, every start and every
// end step with the exits counted again each time (quadratic per start), as
// the module header describes it. findBlocks must give exactly its blocks.

import type { InferredGraph } from '../../../model/inferred';
import { MAX_BLOCK_STEPS, type Block } from '../blocks';

/** The blocks of `graph` in execution order `order`, found the plain way. */
export function referenceBlocks(graph: InferredGraph, order: readonly number[]): Block[] {
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
    const block = shortestBlock(graph, order, s, lastUse, runTime);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

function shortestBlock(graph: InferredGraph, order: readonly number[], s: number, lastUse: (name: string) => number, runTime: (name: string) => boolean): Block | undefined {
  const produced = new Map<string, number>();
  const entries = new Set<string>();
  const reads = new Map<string, number>();
  for (let e = s; e < order.length && e < s + MAX_BLOCK_STEPS; e++) {
    const node = graph.nodes[order[e]!]!;
    for (const name of new Set(node.inputs.filter((n) => n !== '' && runTime(n)))) {
      if (!produced.has(name)) entries.add(name);
      reads.set(name, (reads.get(name) ?? 0) + 1);
    }
    if (entries.size > 1) return undefined;
    for (const name of node.outputs) if (name !== '') produced.set(name, e);
    if (e === s) continue;
    const exits = [...produced.keys()].filter((name) => lastUse(name) > e);
    const branchy = [...reads.values()].some((count) => count > 1);
    if (exits.length === 1 && produced.get(exits[0]!) === e && branchy && entries.size === 1) {
      return { first: s, last: e, entry: [...entries][0]!, exit: exits[0]! };
    }
  }
  return undefined;
}
