// What the user said about values (--shape NAME=DIMS, --input NAME=VALUES):
// applied to the facts inference holds, refused when a value cannot be the
// tensor's, and reported when the name matches nothing. Works on the IR and
// TensorFacts only; no DOM.

import { shortName } from '../../shared/short-name';
import { dataTypeBits, dataTypeName, DT } from '../dtype';
import type { DataTypeCode, DeclaredDim, IrGraph } from '../ir';
import type { DimBinding, ModelDiagnostic } from '../inferred';
import { nodeSubgraphs } from '../check-graph';
import { didYouMean } from '../../shared/close-names';
import { isIntegerType } from '../shape-rules/elementwise';
import type { TensorFact } from '../shape-rules/types';

/** What the user said about values, as inference holds it. */
export interface UserBindings {
  readonly shapes?: ReadonlyMap<string, readonly number[]>; // by tensor name
  readonly inputValues?: ReadonlyMap<string, readonly number[]>; // by graph-input name
  readonly report: (diagnostic: ModelDiagnostic) => void;
}

const UINT2 = 25;
const UNSIGNED: ReadonlySet<DataTypeCode> = new Set([DT.UINT8, DT.UINT16, DT.UINT32, DT.UINT64, DT.UINT4, UINT2]);

/** Why `v` cannot be an element of a `dtype` tensor, or undefined when it can. */
function elementProblem(dtype: DataTypeCode | undefined, v: number): string | undefined {
  if (dtype === DT.BOOL) return v === 0 || v === 1 ? undefined : 'is not 0 or 1';
  if (dtype === undefined || !isIntegerType(dtype)) return undefined;
  if (!Number.isInteger(v)) return 'is not an integer';
  const unsigned = UNSIGNED.has(dtype);
  const bits = dataTypeBits(dtype) ?? 64;
  // 64-bit integers past 2^53 are not exact in a JavaScript number.
  const [low, high] = bits >= 53 ? [unsigned ? 0 : -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] : unsigned ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
  return v < low || v > high ? `is out of range for ${dataTypeName(dtype)}` : undefined;
}

/** The given value, or why it cannot be the value of a tensor with `fact`. */
function valueProblem(name: string, fact: TensorFact, value: readonly number[]): string | undefined {
  const count = fact.shape?.reduce<number>((a, d) => a * (d ?? NaN), 1);
  if (count !== undefined && count !== value.length && !Number.isNaN(count)) {
    return `input '${shortName(name)}' has ${count} element(s); the given value has ${value.length}, so it is ignored`;
  }
  for (const v of value) {
    const problem = elementProblem(fact.dtype, v);
    if (problem !== undefined) {
      return `input '${shortName(name)}' is ${dataTypeName(fact.dtype)}; the given value ${v} ${problem}, so the value is ignored`;
    }
  }
  return undefined;
}

/**
 * A fact with what the user said about the value: a shape that replaces the
 * inferred one (a disagreement with a known shape is reported; an unknown
 * dtype becomes that of the node's first typed input), and for a
 * graph input a value, which rules fold like a constant's (the input stays a
 * run-time value). A value of the wrong size or type is reported and ignored.
 */
export function withUserFacts(
  name: string,
  fact: TensorFact,
  env: UserBindings,
  nodeInputs: readonly (TensorFact | undefined)[] = [],
  declared?: readonly DeclaredDim[], // a graph input's declared shape: its symbolic axes are what a given shape fixes
  upstream: readonly DimBinding[] = [], // a node output's: the dims of the graph inputs it is computed from, which its inferred shape rests on
): TensorFact {
  const shape = env.shapes?.get(name);
  const value = env.inputValues?.get(name);
  let out = fact;
  if (shape !== undefined) {
    if (contradicts(fact.shape, shape, declared)) {
      // a graph input's symbolic axes are named, not shown as the default values the given shape replaces
      const said = declared === undefined ? `is inferred as ${fact.shape!.join('×')}${fromDims(upstream)}` : `is declared as ${declaredText(declared)}`;
      const used = `the given shape ${shape.length === 0 ? '[] (a scalar)' : shape.join('×')} is used`;
      // a node output's shape propagates to what it feeds, while the dims its inputs hold keep their values
      const where = declared !== undefined ? '' : ` for '${shortName(name)}' and what it feeds${upstream.length > 0 ? `; ${keptText(upstream)} elsewhere in the plan` : ''}`;
      env.report({ code: 'shape-override', message: `'${shortName(name)}' ${said}; ${used}${where}` });
    }
    // An op without a rule leaves the dtype unknown too: its first typed input's is the likely one.
    const dtype = fact.dtype ?? nodeInputs.find((f) => f?.dtype !== undefined)?.dtype;
    out = { dtype, shape, note: 'shape given by the user' };
  }
  if (value !== undefined) {
    const problem = valueProblem(name, out, value);
    if (problem !== undefined) env.report({ code: 'bad-input-value', message: problem });
    else out = { ...out, value };
  }
  return out;
}

/**
 * True when a given shape differs from what the model itself says of the
 * tensor: its inferred shape, all of it known; for a graph input only its rank
 * and the axes the file declares as numbers, since a symbolic axis holds the
 * value of a dim (a default, or one bound) that the given shape replaces.
 */
function contradicts(inferred: TensorFact['shape'], given: readonly number[], declared: readonly DeclaredDim[] | undefined): boolean {
  if (inferred === undefined || !inferred.every((d) => d !== undefined)) return false;
  if (inferred.length !== given.length) return true;
  return inferred.some((d, i) => d !== given[i] && (declared === undefined || typeof declared[i] === 'number'));
}

/** Where a dim's value came from, in words, as the shape-override of a graph input says it. */
export function dimSourceText(binding: DimBinding): string {
  return binding.source === 'user' ? 'given' : binding.source === 'default' ? 'a default' : 'from the dims given';
}

/** The dims an inferred shape rests on, in words: ` from N=1 (a default)`; empty for none. */
function fromDims(upstream: readonly DimBinding[]): string {
  return upstream.length === 0 ? '' : ` from ${upstream.map((b) => `${shortName(b.name)}=${b.value.toLocaleString('en-US')} (${dimSourceText(b)})`).join(', ')}`;
}

/** That those dims keep their values: `N stays 1`, `N and C stay 1 and 8`. */
function keptText(upstream: readonly DimBinding[]): string {
  const names = upstream.map((b) => shortName(b.name));
  const values = upstream.map((b) => b.value.toLocaleString('en-US'));
  return upstream.length === 1 ? `${names[0]} stays ${values[0]}` : `${names.join(', ')} stay ${values.join(', ')}`;
}

/**
 * The dims of the graph inputs `inputs` (names of the model's graph inputs) by
 * the axes they size: what a tensor computed from those inputs rests on.
 */
export function dimsOfInputs(inputs: readonly string[], bindings: readonly DimBinding[]): DimBinding[] {
  const names = new Set(inputs);
  return bindings.filter((b) => b.axes.some((axis) => names.has(axis.slice(0, axis.lastIndexOf(':')))));
}

/** A declared shape in words: `N×16`, an unnamed axis `?`, a scalar `[] (a scalar)`. */
function declaredText(declared: readonly DeclaredDim[]): string {
  return declared.length === 0 ? '[] (a scalar)' : declared.map((d) => (d === undefined ? '?' : typeof d === 'number' ? String(d) : shortName(d))).join('×');
}

/** The names of a model, by the role that decides whether a binding applies. */
interface ModelNames {
  readonly inputs: ReadonlySet<string>; // the main graph's inputs
  readonly computed: ReadonlySet<string>; // node outputs of every graph
  readonly initializers: ReadonlySet<string>; // of every graph
  readonly bodyInputs: ReadonlySet<string>; // inputs of subgraphs
}

function modelNames(graph: IrGraph): ModelNames {
  const names = { inputs: new Set(graph.inputs.map((v) => v.name)), computed: new Set<string>(), initializers: new Set<string>(), bodyInputs: new Set<string>() };
  const stack = [graph];
  for (let g = stack.pop(); g !== undefined; g = stack.pop()) {
    if (g !== graph) for (const v of g.inputs) names.bodyInputs.add(v.name);
    for (const t of g.initializers) names.initializers.add(t.name);
    for (const node of g.nodes) {
      for (const output of node.outputs) if (output !== '') names.computed.add(output);
      stack.push(...nodeSubgraphs(node));
    }
  }
  return names;
}

/** What a name that no binding of its kind applies to is, in words; undefined for nothing at all. */
function roleOf(name: string, names: ModelNames): string | undefined {
  if (names.initializers.has(name)) return 'an initializer, stored in the file';
  if (names.bodyInputs.has(name)) return 'an input of a subgraph, which its node feeds';
  if (names.computed.has(name)) return 'computed by a node, not a graph input';
  return undefined;
}

/**
 * The --shape and --input bindings that apply (a shape to a graph input or a
 * node's output, a value to a graph input): what the model records as given,
 * so an ignored one is not echoed as if it had shaped the plan.
 */
export function appliedBindings(
  graph: IrGraph,
  shapes: ReadonlyMap<string, readonly number[]>,
  inputValues: ReadonlyMap<string, readonly number[]>,
): { readonly shapes: Map<string, readonly number[]>; readonly inputValues: Map<string, readonly number[]> } {
  if (shapes.size === 0 && inputValues.size === 0) return { shapes: new Map(shapes), inputValues: new Map(inputValues) };
  const names = modelNames(graph);
  return {
    shapes: new Map([...shapes].filter(([name]) => names.inputs.has(name) || names.computed.has(name))),
    inputValues: new Map([...inputValues].filter(([name]) => names.inputs.has(name))),
  };
}

/**
 * Diagnostics for --shape and --input bindings that name no value they can
 * apply to (a shape: a graph input or a node's output; a value: a graph
 * input), each naming the binding, saying why, and listing close names.
 */
export function unusedBindings(
  graph: IrGraph,
  shapes: ReadonlyMap<string, readonly number[]>,
  inputValues: ReadonlyMap<string, readonly number[]>,
): ModelDiagnostic[] {
  if (shapes.size === 0 && inputValues.size === 0) return [];
  const names = modelNames(graph);
  const diagnostics: ModelDiagnostic[] = [];
  for (const [name, shape] of shapes) {
    if (names.inputs.has(name) || names.computed.has(name)) continue;
    const binding = `--shape ${shortName(name)}=${shape.join('x')}`;
    const role = roleOf(name, names);
    const why = role === undefined ? `no tensor is named '${shortName(name)}'${didYouMean(name, [...names.inputs, ...names.computed])}` : `'${shortName(name)}' is ${role}`;
    diagnostics.push({ code: 'unused-binding', message: `${binding} is ignored: ${why}`, binding: { kind: 'shape', name } });
  }
  for (const [name, value] of inputValues) {
    if (names.inputs.has(name)) continue;
    const shown = value.length > 8 ? `${value.slice(0, 8).join(',')},…` : value.join(',');
    const role = roleOf(name, names);
    const listed = names.inputs.size > 0 && names.inputs.size <= 8 ? `; the graph inputs are ${[...names.inputs].map((n) => `'${shortName(n)}'`).join(', ')}` : '';
    const why = role === undefined ? `no graph input is named '${shortName(name)}'${didYouMean(name, names.inputs) || listed}` : `'${shortName(name)}' is ${role}`;
    diagnostics.push({ code: 'unused-binding', message: `--input ${shortName(name)}=${shown} is ignored: ${why}`, binding: { kind: 'input', name } });
  }
  return diagnostics;
}
