// Inference over one graph (the main graph or an If/Loop/Scan body): seeds facts
// from inputs and initializers, runs each node's shape rule in topological order,
// fills gaps from declared shapes and classifies constants. No DOM.
//
// How it works:
// - A Scope maps value names to TensorFacts; a subgraph's scope falls back to
//   its parent's, which is how bodies read outer-scope values.
// - Each node's rule gets its inputs' facts; its outputs' facts are merged with
//   the file's value_info / graph output declarations (declared dims fill what
//   the rule left unknown; a disagreement with a fully numeric declaration is a
//   diagnostic and the inferred shape wins).
// - A value is constant when its node reads only constants (or is Shape/Size
//   of a tensor whose shape is static, i.e. independent of symbolic dims);
//   "dynamic" marks values whose shape may depend on the bound symbolic dims.
// - Every body a rule asks for is paid from the model's body budget
//   (infer/budget.ts); past it the rule gets unknown outputs, so nesting
//   cannot multiply the work without end.

import { MAX_FOLD_ELEMENTS } from '../shape-rules/broadcast';
import type { IrGraph, IrNode, IrTensor, IrValueInfo } from '../ir';
import type { InferredGraph } from '../inferred';
import { SHAPE_RULES } from '../shape-rules/index';
import { ruleKey, type BranchChoice, type Dim, type RuleResult, type TensorFact } from '../shape-rules/types';
import { ruleContext } from './context';
import { nodeReads, nodeSubgraphs, topologicalOrder } from '../check-graph';
import { tensorValues } from '../tensor-values';
import { mergeDeclared } from './merge';
import { buildInferredGraph, type GraphFacts, type NodeBranch } from './values';
import { possibleFact } from './limits';
import { chargeBody, chargeNode, takeBody, takeOptionalBody } from './budget';
import { dimsOfInputs, withUserFacts } from './bindings';
import { Scope, type InferEnv } from './scope';
import { shortName } from '../../shared/short-name';

/** Ops whose outputs change from run to run, so they are never constants. */
const NONDETERMINISTIC = new Set(['RandomNormal', 'RandomUniform', 'RandomNormalLike', 'RandomUniformLike', 'Bernoulli', 'Multinomial']);

/** Result of inferring a graph. */
export interface GraphResult {
  readonly graph: InferredGraph;
  readonly outputs: readonly (TensorFact | undefined)[];
}

/** Small constant values of an initializer, for shape arithmetic. */
function initializerValue(tensor: IrTensor): readonly number[] | undefined {
  return tensorValues(tensor, MAX_FOLD_ELEMENTS);
}

/**
 * Execution order of the graph. The decoder has already rejected cycles in
 * files; a hand-built graph with one is inferred in file order, with a diagnostic.
 */
function executionOrder(graph: IrGraph, env: InferEnv): readonly number[] {
  try {
    return topologicalOrder(graph);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    env.report({ code: 'cycle', message: `${message}; nodes are inferred in file order` });
    return graph.nodes.map((_, i) => i);
  }
}

function sameShape(a: readonly (number | undefined)[], b: readonly (number | undefined)[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);
}

function seedGraph(graph: IrGraph, env: InferEnv, scope: Scope, main: boolean, given?: readonly (TensorFact | undefined)[]): void {
  graph.inputs.forEach((input, i) => {
    const fact = given?.[i] ?? declaredFact(input, env, main ? input.name : undefined);
    // a shape the user gave replaces the declared one: the dims it names size nothing here
    if (given?.[i] === undefined && !(main && env.shapes?.has(input.name) === true)) env.dims.noteSizing(input.shape, main ? input.name : undefined);
    const seeded = main ? withUserFacts(input.name, fact, env, [], input.shape ?? []) : fact;
    scope.facts.set(input.name, seeded);
    if (seeded !== fact && fact.shape !== undefined && !sameShape(fact.shape, seeded.shape)) scope.unlikeFile.add(input.name);
    const symbolic = input.shape === undefined || input.shape.some((d) => typeof d !== 'number' || d < 0);
    if (!main || symbolic) scope.dynamic.add(input.name);
    if (main) scope.graphInputs.add(input.name);
  });
  for (const t of graph.initializers) {
    const value = initializerValue(t);
    scope.facts.set(t.name, value ? { dtype: t.dtype, shape: t.dims, value } : { dtype: t.dtype, shape: t.dims });
    scope.constant.add(t.name);
    scope.dynamic.delete(t.name);
  }
}

/** Infers a graph. `given` holds facts for a subgraph's inputs (from the op's rule). */
export function inferGraph(graph: IrGraph, env: InferEnv, parent: Scope | undefined, given?: readonly (TensorFact | undefined)[]): GraphResult {
  const scope = new Scope(parent);
  seedGraph(graph, env, scope, parent === undefined, given);
  const declared = declarations(graph);
  const order = executionOrder(graph, env);
  const facts: GraphFacts = { scope, reasons: new Map(), subgraphs: new Map(), branches: new Map(), report: env.report };
  for (const i of order) {
    const node = graph.nodes[i];
    if (node !== undefined) inferNode(node, env, declared, facts);
  }
  const outputs = graph.outputs.map((o) => scope.lookup(o.name) ?? declaredOutput(o, env));
  return { graph: buildInferredGraph(graph, order, facts), outputs };
}

/** Declared types by value name: value_info, and graph outputs where they say more. */
function declarations(graph: IrGraph): Map<string, IrValueInfo> {
  const declared = new Map<string, IrValueInfo>();
  for (const info of graph.valueInfo) declared.set(info.name, info);
  for (const info of graph.outputs) {
    const known = declared.get(info.name);
    if (known === undefined || (info.shape !== undefined && known.shape === undefined)) declared.set(info.name, info);
  }
  return declared;
}

/** The fact a graph output nothing computes takes from its declaration, whose dims then size it. */
function declaredOutput(info: IrValueInfo, env: InferEnv): TensorFact {
  env.dims.noteSizing(info.shape);
  return declaredFact(info, env);
}

/**
 * The fact a declaration gives. A sequence or map has no single shape (the
 * decoder reports a sequence's element type; it is not the value's shape).
 */
function declaredFact(info: IrValueInfo, env: InferEnv, inputName?: string): TensorFact {
  if (info.kind === 'sequence' || info.kind === 'map') {
    return { dtype: info.dtype, shape: undefined, note: `a ${info.kind}, which has no single shape` };
  }
  const shape = env.dims.resolve(info.shape, inputName);
  if (info.invalidDims === undefined || info.invalidDims.length === 0) return { dtype: info.dtype, shape };
  const declared = info.invalidDims.map((d) => `axis ${d.axis} as ${d.value}`).join(', ');
  return { dtype: info.dtype, shape, note: `the file declares ${declared}, which is no size` };
}

/** Runs the node's rule (reporting a missing rule or an unknown answer) and stores its outputs' facts. */
function inferNode(node: IrNode, env: InferEnv, declared: ReadonlyMap<string, IrValueInfo>, facts: GraphFacts): void {
  const { scope } = facts;
  const inputs = node.inputs.map((name) => (name === '' ? undefined : scope.lookup(name)));
  if (scope.parent !== undefined) chargeNode(env.budget, inputs);
  const inferred = new Map<IrGraph, InferredGraph>();
  const result = runRule(node, inputs, env, scope, inferred, (choice) => facts.branches.set(node, branchRecord(node, choice, scope)));
  for (const g of nodeSubgraphs(node)) {
    if (inferred.has(g)) continue;
    chargeBody(env.budget, g);
    inferred.set(g, inferGraph(g, env, scope).graph);
  }
  facts.subgraphs.set(node, nodeSubgraphs(node).map((g) => inferred.get(g) as InferredGraph));
  const answer = 'unknown' in result ? undefined : result;
  const reason = 'unknown' in result ? result.unknown : undefined;
  const constant = isConstantNode(node, inputs, scope);
  const reads = nodeReads(node);
  const dynamic = !constant && reads.some((n) => scope.isDynamic(n));
  // Below a graph input given another shape than the file's, the file's declarations describe other shapes.
  const unlikeFile = reads.some((n) => n !== '' && scope.isUnlikeFile(n));
  node.outputs.forEach((name, i) => {
    if (name === '') return;
    const merged = mergeDeclared(answer?.[i], declared.get(name), env, { node: node.name, name, fillShape: !unlikeFile, reason, onMismatch: () => scope.unlikeFile.add(name) });
    if (unlikeFile) scope.unlikeFile.add(name);
    const given = env.shapes?.has(name) ? withUserFacts(name, merged ?? { dtype: undefined, shape: undefined }, env, inputs, undefined, upstreamDims(node, scope, env)) : merged;
    const fact = given === undefined ? undefined : possibleFact(given, { node: node.name, op: opName(node), value: name }, env.report);
    scope.facts.set(name, fact ?? { dtype: undefined, shape: undefined, note: reason ?? `${node.opType} did not say` });
    scope.producers.set(name, node);
    if (reason !== undefined) facts.reasons.set(name, reason);
    if (constant) scope.constant.add(name);
    if (dynamic || fact?.upperBound === true) scope.dynamic.add(name);
  });
}

/** The dims of the graph inputs `node` is computed from, but those inputs given a shape (their dims size nothing there). */
function upstreamDims(node: IrNode, scope: Scope, env: InferEnv): ReturnType<typeof dimsOfInputs> {
  const inputs = new Set(nodeReads(node).flatMap((r) => (r === '' ? [] : scope.inputsBehind(r))));
  return dimsOfInputs([...inputs].filter((i) => env.shapes?.has(i) !== true), env.dims.bindings);
}

function runRule(
  node: IrNode,
  inputs: readonly (TensorFact | undefined)[],
  env: InferEnv,
  scope: Scope,
  inferred: Map<IrGraph, InferredGraph>,
  assume: (choice: BranchChoice) => void,
): RuleResult {
  const key = ruleKey(node.domain, node.opType);
  const rule = Object.hasOwn(SHAPE_RULES, key) ? SHAPE_RULES[key] : undefined;
  const op = opName(node);
  if (rule === undefined && node.domain.startsWith('tflite')) {
    // TensorFlow Lite files state every tensor's shape, which the runtime allocates as stated.
    return { unknown: `${op} has no shape in the file` };
  }
  if (rule === undefined) {
    env.report({ code: 'no-shape-rule', message: `no shape rule for ${shortName(op)}; its outputs keep their declared shapes`, node: node.name });
    return { unknown: `no shape rule for ${op}` };
  }
  const ctx = ruleContext(node, inputs, env.opsets.get(node.domain) ?? 1, (g, ins) => {
    if (!takeBody(env.budget, g, node.name, env.report)) return g.outputs.map(() => undefined);
    const r = inferGraph(g, env, scope, ins);
    inferred.set(g, r.graph);
    return r.outputs;
  }, assume, {
    kept: (g) => {
      const graph = inferred.get(g);
      return graph === undefined ? undefined : unsizedValues(graph);
    },
    lookWith: (g, ins) => (takeOptionalBody(env.budget, g) ? unsizedValues(inferGraph(g, { ...env, report: () => {} }, scope, ins).graph) : undefined),
  });
  let result: RuleResult;
  try {
    result = rule(ctx);
  } catch (error) {
    result = { unknown: `the ${op} rule failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if ('unknown' in result) env.report({ code: 'unknown-shape', message: `${shortName(op)} '${shortName(node.name)}': ${result.unknown}`, node: node.name });
  return result;
}

/** The run-time values of a body, and of the bodies nested in it, that have no size. */
function unsizedValues(graph: InferredGraph): string[] {
  const own = graph.values.filter((v) => v.kind !== 'initializer' && v.kind !== 'constant' && v.bytes === undefined).map((v) => v.name);
  return [...own, ...graph.nodes.flatMap((n) => n.subgraphs.flatMap(unsizedValues))];
}

/** The op as messages name it: `Tile`, or `com.microsoft::BiasSplitGelu` outside the ONNX domain. */
function opName(node: IrNode): string {
  return node.domain === '' ? node.opType : `${node.domain}::${node.opType}`;
}

/** The node's record of a control-flow choice: the body that runs, and the assumption when it was not known. */
function branchRecord(node: IrNode, choice: BranchChoice, scope: Scope): NodeBranch {
  const index = choice.graph === undefined ? -1 : nodeSubgraphs(node).indexOf(choice.graph);
  const record: NodeBranch = index < 0 ? {} : { takenBranch: index };
  if (choice.reason === undefined) return record;
  const behind = node.opType === 'If' ? scope.inputsBehind(node.inputs[0] ?? '') : [];
  const hint = behind.length === 0 ? '' : `; it depends on graph input ${behind.map((n) => `'${shortName(n)}'`).join(', ')}: give its value to decide`;
  return { ...record, branch: { node: node.name, taken: choice.taken, reason: choice.reason + hint } };
}

/** True when every output of the node is computable from constants alone. */
function isConstantNode(node: IrNode, inputs: readonly (TensorFact | undefined)[], scope: Scope): boolean {
  if (node.domain === '' && NONDETERMINISTIC.has(node.opType)) return false;
  if (node.domain === '' && node.opType === 'Constant') return true;
  const reads = nodeReads(node);
  if (node.domain === '' && (node.opType === 'Shape' || node.opType === 'Size')) {
    const source = node.inputs[0] ?? '';
    return source !== '' && isStatic(inputs[0]?.shape) && !scope.isDynamic(source);
  }
  return reads.length > 0 && reads.every((n) => scope.isConstant(n));
}

function isStatic(shape: readonly Dim[] | undefined): boolean {
  return shape !== undefined && shape.every((d) => d !== undefined);
}
