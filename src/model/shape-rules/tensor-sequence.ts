// Shape rules for sequence and optional ops. A sequence has no single shape, so
// its fact has an unknown shape and a note; what is known about its elements
// lives in a side table keyed by that fact object, so SequenceAt,
// SequenceLength and ConcatFromSequence can recover exact shapes whenever the
// engine hands the producer's fact object on unchanged. Pure; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import { concatFacts } from './tensor-combine';
import {
  fail,
  inputFact,
  inputScalar,
  inputValue,
  makeFact,
  MAX_LISTED_ELEMENTS,
  mergeFacts,
  normalizeAxis,
  requireInput,
  requireShape,
} from './tensor-facts';

/** What is known about a sequence: its elements in order, or one fact covering every element. */
interface SequenceInfo {
  readonly elements: readonly TensorFact[] | undefined; // undefined: length unknown
  readonly element: TensorFact | undefined; // merged over all elements, when length is unknown
}

const sequences = new WeakMap<TensorFact, SequenceInfo>();
const optionals = new WeakMap<TensorFact, { readonly hasElement: boolean }>();

/** Builds a sequence fact and records what is known about its elements. */
export function sequenceFact(dtype: DataTypeCode | undefined, info: SequenceInfo): TensorFact {
  const length = info.elements === undefined ? 'an unknown number of' : String(info.elements.length);
  const fact: TensorFact = { dtype, shape: undefined, note: `a sequence of ${length} tensors` };
  sequences.set(fact, info);
  return fact;
}

/** How many elements a sequence fact lists (0 for any other fact): what a rule reading it may walk. */
export function listedLength(fact: TensorFact | undefined): number {
  return fact === undefined ? 0 : sequences.get(fact)?.elements?.length ?? 0;
}

/** A sequence fact with a known list of elements. */
function knownSequence(dtype: DataTypeCode | undefined, elements: readonly TensorFact[]): TensorFact {
  return sequenceFact(dtype, { elements, element: undefined });
}

/** A sequence fact whose length is unknown and whose elements all fit `element`. */
function openSequence(dtype: DataTypeCode | undefined, element: TensorFact | undefined): TensorFact {
  return sequenceFact(dtype, { elements: undefined, element });
}

/** The merged fact of every element of a sequence, when one is known. */
function elementOf(info: SequenceInfo | undefined): TensorFact | undefined {
  if (info === undefined) return undefined;
  if (info.elements === undefined) return info.element;
  if (info.elements.length === 0) return undefined;
  return info.elements.reduce<TensorFact | undefined>((merged, fact) => mergeFacts(merged, fact), info.elements[0]);
}

/**
 * What is known about a sequence fact. A fact this module did not build comes
 * from a declaration (a graph input, or a value_info merged in by the engine),
 * where ONNX types a sequence by its element: its shape then describes every element.
 */
function infoOf(fact: TensorFact | undefined): SequenceInfo | undefined {
  if (fact === undefined) return undefined;
  const info = sequences.get(fact);
  if (info !== undefined || fact.shape === undefined) return info;
  return { elements: undefined, element: makeFact(fact.dtype, fact.shape) };
}

function sequenceInfo(ctx: RuleContext): SequenceInfo | undefined {
  return infoOf(inputFact(ctx, 0));
}

/** Position input normalised against a known length; undefined when not a constant. */
function position(ctx: RuleContext, index: number, length: number, insert: boolean): number | undefined {
  if (inputFact(ctx, index) === undefined) return insert ? length : length - 1;
  const at = inputScalar(ctx, index);
  if (at === undefined) return undefined;
  const limit = insert ? length + 1 : length;
  if (at < -length || at >= limit) fail(`sequence position ${at} is out of range for length ${length}`);
  return at < 0 ? at + length : at;
}

function sequenceAtRule(ctx: RuleContext): RuleResult {
  const info = sequenceInfo(ctx);
  if (info?.elements !== undefined) {
    const at = position(ctx, 1, info.elements.length, false);
    if (at !== undefined) return [info.elements[at] ?? fail('empty sequence')];
  }
  const element = elementOf(info);
  if (element === undefined) return { unknown: 'the element shapes of the sequence are unknown' };
  return [element];
}

function sequenceInsertRule(ctx: RuleContext): RuleResult {
  const seq = requireInput(ctx, 0, 'input_sequence');
  const tensor = requireInput(ctx, 1, 'tensor');
  const info = infoOf(seq);
  const at = info?.elements === undefined ? undefined : position(ctx, 2, info.elements.length, true);
  if (info?.elements !== undefined && at !== undefined) {
    return [knownSequence(seq.dtype ?? tensor.dtype, [...info.elements.slice(0, at), tensor, ...info.elements.slice(at)])];
  }
  const element = info?.elements?.length === 0 ? tensor : mergeFacts(elementOf(info), tensor);
  return [openSequence(seq.dtype ?? tensor.dtype, element)];
}

function sequenceEraseRule(ctx: RuleContext): RuleResult {
  const seq = requireInput(ctx, 0, 'input_sequence');
  const info = infoOf(seq);
  const at = info?.elements === undefined ? undefined : position(ctx, 1, info.elements.length, false);
  if (info?.elements !== undefined && at !== undefined) {
    return [knownSequence(seq.dtype, info.elements.filter((_, i) => i !== at))];
  }
  return [openSequence(seq.dtype, elementOf(info))];
}

function sequenceLengthRule(ctx: RuleContext): RuleResult {
  const length = sequenceInfo(ctx)?.elements?.length;
  return [makeFact(DT.INT64, [], length === undefined ? undefined : [length])];
}

/**
 * Sizes of the SplitToSequence chunks: one per element, a fixed chunk size, or
 * explicit sizes; undefined when they are not constant. `uniform` holds the
 * one size of every chunk when there are too many to list (past MAX_LISTED_ELEMENTS).
 */
function chunkSizes(ctx: RuleContext, dim: number): { readonly sizes?: readonly number[]; readonly uniform?: Dim } | undefined {
  const listed = (count: number, size: (i: number) => number, uniform: Dim) =>
    count > MAX_LISTED_ELEMENTS ? { uniform } : { sizes: Array.from({ length: count }, (_, i) => size(i)) };
  if (inputFact(ctx, 1) === undefined) return listed(dim, () => 1, 1);
  const split = inputValue(ctx, 1);
  if (split === undefined) return undefined;
  if (inputFact(ctx, 1)?.shape?.length === 0) {
    const chunk = split[0] ?? 1;
    if (!(chunk > 0) || !Number.isInteger(chunk)) fail(`SplitToSequence chunk size ${chunk} is not a positive integer`);
    const count = Math.ceil(dim / chunk);
    return listed(count, (i) => Math.min(chunk, dim - i * chunk), dim % chunk === 0 ? chunk : undefined);
  }
  if (split.reduce((a, b) => a + b, 0) !== dim) fail(`SplitToSequence sizes [${split.join(', ')}] do not add up to ${dim}`);
  return { sizes: split };
}

function splitToSequenceRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const shape = requireShape(data, 'SplitToSequence input');
  const axis = normalizeAxis(ctx.int('axis', 0), shape.length, 'SplitToSequence axis');
  const dropAxis = inputFact(ctx, 1) === undefined && ctx.int('keepdims', 1) === 0;
  const piece = (size: Dim): TensorFact =>
    makeFact(data.dtype, dropAxis ? shape.filter((_, i) => i !== axis) : shape.map((d, i) => (i === axis ? size : d)));
  const dim = shape[axis];
  const chunks = dim === undefined ? undefined : chunkSizes(ctx, dim);
  if (chunks?.sizes === undefined) return [openSequence(data.dtype, piece(chunks?.uniform))];
  return [knownSequence(data.dtype, chunks.sizes.map(piece))];
}

function concatFromSequenceRule(ctx: RuleContext): RuleResult {
  const info = sequenceInfo(ctx);
  const newAxis = ctx.int('new_axis', 0) !== 0;
  const axis = ctx.int('axis', 0);
  const stack = (fact: TensorFact): TensorFact => {
    if (!newAxis || fact.shape === undefined) return fact;
    const at = normalizeAxis(axis, fact.shape.length + 1, 'ConcatFromSequence axis');
    return makeFact(fact.dtype, [...fact.shape.slice(0, at), 1, ...fact.shape.slice(at)], fact.value);
  };
  if (info?.elements !== undefined && info.elements.length > 0) return [concatFacts(info.elements.map(stack), axis)];
  const element = elementOf(info);
  if (element?.shape === undefined) return { unknown: 'the element shapes of the sequence are unknown' };
  const stacked = stack(element).shape ?? [];
  const at = normalizeAxis(axis, stacked.length, 'ConcatFromSequence axis');
  const shape = stacked.map((d, i) => (i === at ? undefined : d));
  return [{ ...makeFact(element.dtype, shape), note: 'the sequence length is unknown' }];
}

/** Distinct per-element inputs SequenceMap infers its body for; past this many, once on the merged elements. */
export const MAX_MAPPED_BODIES = 16;

const factIds = new WeakMap<TensorFact, string>();
let nextFactId = 0;

/**
 * A key equal for facts a body cannot tell apart: dtype, shape, value, bound
 * and note, or the object itself for a sequence or an optional, whose side
 * tables say more. Memoised per object, so a fact shared by every element is
 * read once.
 */
function factKey(fact: TensorFact | undefined): string {
  if (fact === undefined) return '';
  let key = factIds.get(fact);
  if (key === undefined) {
    key = sequences.has(fact) || optionals.has(fact) ? `#${nextFactId++}` : JSON.stringify([fact.dtype, fact.shape, fact.value, fact.upperBound, fact.note]);
    factIds.set(fact, key);
  }
  return key;
}

/**
 * The body runs each element needs: positions whose inputs have equal facts
 * share one run. Undefined when more than MAX_MAPPED_BODIES runs differ.
 */
function distinctRuns(length: number, inputsAt: (at: number) => (TensorFact | undefined)[]): { runs: (TensorFact | undefined)[][]; runOf: number[] } | undefined {
  const ids = new Map<string, number>(); // one input's key -> a small number
  const byKey = new Map<string, number>(); // the numbers of all inputs -> run
  const runs: (TensorFact | undefined)[][] = [];
  const runOf: number[] = [];
  for (let at = 0; at < length; at++) {
    const inputs = inputsAt(at);
    const key = inputs.map((fact) => {
      const k = factKey(fact);
      let id = ids.get(k);
      if (id === undefined) ids.set(k, (id = ids.size));
      return id;
    }).join(',');
    let run = byKey.get(key);
    if (run === undefined) {
      if (runs.length === MAX_MAPPED_BODIES) return undefined;
      byKey.set(key, (run = runs.length));
      runs.push(inputs);
    }
    runOf.push(run);
  }
  return { runs, runOf };
}

/**
 * SequenceMap: the body runs once per element of the first input (and of the
 * other inputs that are sequences); each body output becomes a sequence.
 * Bound: the body is inferred once per distinct combination of element facts,
 * at most MAX_MAPPED_BODIES times per inference of the node; with more
 * distinct elements, or an unknown length, it is inferred once on the merged
 * elements. Nested bodies also share the model's body budget (infer/budget.ts).
 */
function sequenceMapRule(ctx: RuleContext): RuleResult {
  const body = ctx.attr('body');
  if (body?.kind !== 'graph') fail("SequenceMap has no 'body' graph");
  const facts = ctx.node.inputs.map((_, i) => inputFact(ctx, i));
  const infos = facts.map((fact, i) => (i === 0 ? infoOf(fact) : fact === undefined ? undefined : sequences.get(fact)));
  const length = infos[0]?.elements?.length;
  const pick = (i: number, at: number | undefined): TensorFact | undefined => {
    const info = infos[i];
    if (i > 0 && info === undefined) return facts[i];
    return at === undefined || info?.elements === undefined ? elementOf(info) : info.elements[at];
  };
  const outputs = ctx.node.outputs.length;
  const distinct = length === undefined ? undefined : distinctRuns(length, (at) => facts.map((_, i) => pick(i, at)));
  if (length === undefined || distinct === undefined) {
    const once = ctx.inferSubgraph(body.value, facts.map((_, i) => pick(i, undefined)));
    if (length === undefined) return Array.from({ length: outputs }, (_, k) => openSequence(once[k]?.dtype, once[k]));
    const element = (k: number): TensorFact => once[k] ?? { dtype: undefined, shape: undefined };
    return Array.from({ length: outputs }, (_, k) => knownSequence(once[k]?.dtype, new Array<TensorFact>(length).fill(element(k))));
  }
  const results = distinct.runs.map((inputs) => ctx.inferSubgraph(body.value, inputs));
  return Array.from({ length: outputs }, (_, k) => {
    const elements = distinct.runOf.map((run) => results[run]?.[k] ?? { dtype: undefined, shape: undefined });
    return knownSequence(elements[0]?.dtype, elements);
  });
}

function optionalRule(ctx: RuleContext): RuleResult {
  const element = inputFact(ctx, 0);
  const fact: TensorFact = element === undefined ? { dtype: undefined, shape: undefined, note: 'an empty optional' } : { ...element };
  optionals.set(fact, { hasElement: element !== undefined });
  return [fact];
}

function optionalHasElementRule(ctx: RuleContext): RuleResult {
  const input = inputFact(ctx, 0);
  const known = input === undefined ? false : optionals.get(input)?.hasElement;
  return [makeFact(DT.BOOL, [], known === undefined ? undefined : [known ? 1 : 0])];
}

function optionalGetElementRule(ctx: RuleContext): RuleResult {
  const input = requireInput(ctx, 0, 'input');
  if (optionals.get(input)?.hasElement === false) fail('OptionalGetElement on an empty optional');
  return [input];
}

/** Shape rules for sequence and optional ops. */
export const sequenceOpRules: Readonly<Record<string, ShapeRule>> = {
  '::SequenceEmpty': (ctx) => [knownSequence(ctx.int('dtype', DT.FLOAT), [])],
  '::SequenceConstruct': (ctx) => {
    const elements = ctx.node.inputs.map((_, i) => requireInput(ctx, i, `#${i}`));
    return [knownSequence(elements[0]?.dtype, elements)];
  },
  '::SequenceAt': sequenceAtRule,
  '::SequenceInsert': sequenceInsertRule,
  '::SequenceErase': sequenceEraseRule,
  '::SequenceLength': sequenceLengthRule,
  '::SplitToSequence': splitToSequenceRule,
  '::ConcatFromSequence': concatFromSequenceRule,
  '::SequenceMap': sequenceMapRule,
  '::Optional': optionalRule,
  '::OptionalHasElement': optionalHasElementRule,
  '::OptionalGetElement': optionalGetElementRule,
};
