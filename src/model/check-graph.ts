// Structural checks of a decoded graph (every tensor a node reads is defined, the
// nodes form a DAG) and the execution order the planner and inference follow.
// Works on the IR only; no ONNX types, no DOM.

import { MinHeap } from '../shared/min-heap';
import { InputError } from '../shared/errors';
import { shortName } from '../shared/short-name';
import type { IrAttribute, IrGraph, IrModel, IrNode } from './ir';
import { MAIN_GRAPH, nestedWhere, type GraphWhere } from './graph-where';

/** The subgraphs held by a node's attributes (If branches, Loop and Scan bodies). */
export function nodeSubgraphs(node: IrNode): IrGraph[] {
  return Object.values(node.attributes).flatMap((a: IrAttribute) =>
    a.kind === 'graph' ? [a.value] : a.kind === 'graphs' ? [...a.value] : [],
  );
}

const outerCache = new WeakMap<IrGraph, readonly string[]>();

/**
 * Names a graph reads without defining them itself (nor in its own subgraphs):
 * the values a subgraph takes from its enclosing graphs, in first-use order.
 */
export function outerNames(graph: IrGraph): readonly string[] {
  const cached = outerCache.get(graph);
  if (cached !== undefined) return cached;
  const defined = new Set<string>([...graph.inputs.map((v) => v.name), ...graph.initializers.map((t) => t.name)]);
  for (const node of graph.nodes) for (const output of node.outputs) defined.add(output);
  const result = new Set<string>();
  for (const node of graph.nodes) {
    for (const name of nodeReads(node)) if (!defined.has(name)) result.add(name);
  }
  const names = [...result];
  outerCache.set(graph, names);
  return names;
}

/**
 * Every tensor a node reads: its inputs (optional inputs left out as '' are
 * skipped) and, for nodes with subgraphs, the outer names those subgraphs read.
 */
export function nodeReads(node: IrNode): string[] {
  const reads = node.inputs.filter((name) => name !== '');
  for (const graph of nodeSubgraphs(node)) reads.push(...outerNames(graph));
  return reads;
}

/**
 * Node indices in a valid execution order: the file's order when it already is
 * one, otherwise Kahn's algorithm, always taking the ready node that comes first
 * in the file. Throws InputError('bad-graph') naming the nodes of a cycle.
 */
export function topologicalOrder(graph: IrGraph): number[] {
  return executionOrder(graph, '');
}

function executionOrder(graph: IrGraph, where: string): number[] {
  const deps = nodeDependencies(graph);
  if (deps.every((list, i) => list.every((d) => d < i))) return graph.nodes.map((_, i) => i);
  const order = kahnOrder(deps);
  if (order.length < graph.nodes.length) throw cycleError(graph, deps, order, where);
  return order;
}

/**
 * Checks a decoded model's graph and its subgraphs. Throws InputError('bad-graph')
 * for a tensor read but never defined (a subgraph may read its enclosing graphs'
 * names), a tensor written by two nodes, an ONNX node writing a graph input or
 * an initializer (ONNX graphs are in single static assignment form; a TFLite
 * operator may write a subgraph input, which is then one tensor), or a cycle.
 * Names in messages are cut by shortName.
 */
export function checkGraph(model: IrModel): void {
  checkScope(model.graph, [], MAIN_GRAPH, model.format !== 'tflite');
}

const q = (name: string): string => shortName(name);

function checkScope(graph: IrGraph, outer: readonly ReadonlySet<string>[], place: GraphWhere, ssa: boolean): void {
  const where = place.text;
  const local = definedNames(graph, where, ssa);
  const scopes = [local, ...outer];
  const visible = (name: string): boolean => scopes.some((scope) => scope.has(name));
  for (const node of graph.nodes) {
    const missing = node.inputs.find((name) => name !== '' && !visible(name));
    if (missing !== undefined) {
      throw new InputError(
        'bad-graph',
        `node '${q(node.name)}' (${q(node.opType)})${where} reads tensor '${q(missing)}', ` +
          'which is not a graph input, an initializer or any node’s output',
      );
    }
  }
  const missingOutput = graph.outputs.find((v) => !visible(v.name));
  if (missingOutput !== undefined) {
    throw new InputError('bad-graph', `graph output '${q(missingOutput.name)}'${where} is not computed by any node`);
  }
  for (const node of graph.nodes) {
    for (const sub of nodeSubgraphs(node)) {
      checkScope(sub, scopes, nestedWhere(place, ` in subgraph '${q(sub.name)}' of node '${q(node.name)}'`), ssa);
    }
  }
  executionOrder(graph, where);
}

/**
 * The names a graph defines: inputs, initializers and node outputs. Throws when
 * a node writes a name that already holds a value (with `ssa`, also a graph
 * input or an initializer), which would make two values one buffer, or drop
 * the node from the plan.
 */
function definedNames(graph: IrGraph, where: string, ssa: boolean): Set<string> {
  const inputs = new Set(graph.inputs.map((v) => v.name));
  const initializers = new Set(graph.initializers.map((t) => t.name));
  const producers = new Map<string, IrNode>();
  for (const node of graph.nodes) {
    for (const output of node.outputs) {
      if (output === '') continue;
      const first = producers.get(output);
      const held = !ssa ? undefined : initializers.has(output) ? 'an initializer' : inputs.has(output) ? 'a graph input' : undefined;
      const writer = `node '${q(node.name)}' (${q(node.opType)})${where}`;
      if (held !== undefined) {
        throw new InputError('bad-graph', `${writer} writes '${q(output)}', which is ${held}: an ONNX graph gives each name one value`);
      }
      if (first === node) throw new InputError('bad-graph', `${writer} writes tensor '${q(output)}' twice`);
      if (first !== undefined) {
        throw new InputError('bad-graph', `tensor '${q(output)}'${where} is written by two nodes, '${q(first.name)}' and '${q(node.name)}'`);
      }
      producers.set(output, node);
    }
  }
  return new Set([...inputs, ...initializers, ...producers.keys()]);
}

/** For each node, the indices of the nodes of the same graph whose outputs it reads. */
function nodeDependencies(graph: IrGraph): number[][] {
  const producer = new Map<string, number>();
  graph.nodes.forEach((node, i) => node.outputs.forEach((o) => o !== '' && producer.set(o, i)));
  return graph.nodes.map((node) => {
    const deps = new Set<number>();
    for (const name of nodeReads(node)) {
      const p = producer.get(name);
      if (p !== undefined) deps.add(p);
    }
    return [...deps];
  });
}

/** Kahn's algorithm with a min-heap of ready nodes; leaves out nodes on or behind a cycle. */
function kahnOrder(deps: readonly (readonly number[])[]): number[] {
  const waiting = deps.map((list) => list.length);
  const successors: number[][] = deps.map(() => []);
  deps.forEach((list, i) => list.forEach((d) => successors[d]?.push(i)));
  const ready = new MinHeap<number>((a, b) => a < b);
  waiting.forEach((count, i) => count === 0 && ready.push(i));
  const order: number[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    order.push(next);
    for (const s of successors[next] ?? []) {
      const left = (waiting[s] ?? 0) - 1;
      waiting[s] = left;
      if (left === 0) ready.push(s);
    }
  }
  return order;
}

/** Names one cycle among the nodes Kahn's algorithm could not order. */
function cycleError(graph: IrGraph, deps: readonly (readonly number[])[], order: readonly number[], where: string): InputError {
  const ordered = new Set(order);
  const stuck = (i: number): boolean => !ordered.has(i);
  // Every unordered node waits on an unordered node, so walking back from one must revisit a node.
  const start = graph.nodes.findIndex((_, i) => stuck(i));
  const seen = new Map<number, number>();
  const path: number[] = [];
  let current = start;
  while (!seen.has(current)) {
    seen.set(current, path.length);
    path.push(current);
    current = deps[current]?.find(stuck) ?? start;
  }
  // The walk went against the data flow; reverse it and start at the node that comes first in the file.
  const cycle = path.slice(seen.get(current)).reverse();
  const first = cycle.indexOf(Math.min(...cycle));
  const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
  const names = [...rotated, rotated[0] ?? start].map((i) => `'${q(graph.nodes[i]?.name ?? String(i))}'`);
  const shown = names.length > 12 ? [...names.slice(0, 11), '…', names.at(-1)] : names;
  return new InputError('bad-graph', `the graph${where} has a cycle: ${shown.join(' -> ')}`);
}
