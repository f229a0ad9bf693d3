// Symbolic dims of a model's graph inputs: collects them with the input axes
// each one sizes, binds each to the user's value or a default chosen by a
// named rule, and resolves declared shapes. No DOM.
//
// Defaults, when the user gives no value (each reported with its rule):
// - batch-like names (batch, batch_size, N, B, bs), and opaque or anonymous
//   dims on axis 0: 1;
// - axis 1 of a recurrent state ([layers, batch, hidden]: a float input of
//   rank 3 named like a state, hidden or cell, with fixed layers and hidden
//   sizes, as ONNX's LSTM/GRU/RNN take initial_h and initial_c): the batch
//   the state shares with the other inputs, 1, not a sequence; not in a
//   decoder with a KV cache, whose hidden states are [batch, tokens, hidden];
// - the axis a KV cache's Concat grows (kv-axes.ts), whatever its dim's name,
//   and past-like names (past_sequence_length, …): 0, the first step with no cache;
// - total-like names (total_sequence_length, …): sequence + past, as the graph requires;
// - sequence-like names (sequence, seq_len, …), and opaque dims on axis 1 of
//   token ids or of a [batch, time, features] input: 128;
// - image sizes: height/width names, and opaque dims on the spatial axes of a
//   4-D image input (NCHW with 1–4 channels, or NHWC): the size in the
//   model's metadata (imgsz, image_size, …) when it has one; else 640 for a
//   dense-prediction model (it resizes or suppresses boxes: detectors,
//   segmenters), else 224;
// - any other dim: 1.
// A later attempt (see shapes.ts) can raise the image, sequence and other
// defaults when the first choice makes a tensor empty or a shape impossible.

import type { DimBinding, ModelDiagnostic } from '../inferred';
import type { DataTypeCode, DeclaredDim, IrValueInfo } from '../ir';
import { DT } from '../dtype';
import type { Dim } from '../shape-rules/types';
import { shortName } from '../../shared/short-name';
import { didYouMean } from '../../shared/close-names';

/** Default for sequence-like dims. */
/** What a dim flagged `sizesNothing` is, in words; the axes follow in brackets where a line has room. */
export const SIZES_NOTHING = 'sizes nothing: every axis it names has the shape given';

export const DEFAULT_SEQUENCE = 128;
/** Default for past-like dims (prefill). */
export const DEFAULT_PAST = 0;
/** Default for image height/width dims of a classifier-like model. */
export const DEFAULT_SPATIAL = 224;
/** Default for image height/width dims of a dense-prediction model (detector, segmenter, OCR). */
export const DEFAULT_DENSE_SPATIAL = 640;

type DimRole = 'batch' | 'state-batch' | 'past' | 'total' | 'sequence' | 'spatial' | 'other';

/** What the model says about the sizes it expects, beyond its inputs' declarations. */
export interface DimHints {
  readonly imageSize?: { readonly value: number; readonly key: string }; // from metadata
  readonly densePrediction: boolean; // has Resize/Upsample/NonMaxSuppression
  readonly kvPastAxes?: ReadonlySet<string>; // "<input>:<axis>" a KV cache's Concat grows (kv-axes.ts); absent or empty without a cache
}

/** Raised defaults of a later attempt (undefined: the first choice). */
export interface DimLadder {
  readonly spatial?: number;
  readonly sequence?: number;
  readonly other?: number;
  readonly why?: string; // what went wrong with the first choice
  readonly otherRule?: string; // the words for `other` when a search (not a raise) chose it
}

/** Guesses what a dim name stands for; 'other' when the name says nothing. */
function roleOfName(name: string): DimRole {
  if (/past/i.test(name)) return 'past';
  if (/total|^(all|full)_?seq/i.test(name)) return 'total';
  if (/batch|^(n|b|bs)$/i.test(name)) return 'batch';
  if (/seq|token|length|len$|^s$|^t$/i.test(name)) return 'sequence';
  if (/height|width|^(h|w|img_?[hw])$/i.test(name)) return 'spatial';
  return 'other';
}

const isFloat = (dtype: DataTypeCode | undefined): boolean =>
  dtype === undefined || dtype === DT.FLOAT || dtype === DT.FLOAT16 || dtype === DT.DOUBLE || dtype === DT.BFLOAT16 || dtype === DT.UINT8;
const isChannels = (dim: DeclaredDim): boolean => typeof dim === 'number' && dim >= 1 && dim <= 4;
const isFixed = (dim: DeclaredDim): boolean => typeof dim === 'number' && dim >= 1;
/** Names recurrent states go by: state, hidden, cell, h0/c0, h/c, …_h/…_c. */
const STATE_NAME = /state|hidden|cell|^[hc]\d*$|^[hc]_?0$|[_.][hc]\d*$/i;

/** Axis 1 of [layers, batch, hidden]: a float input of rank 3 named as a state, its layers (at most 4) and hidden size fixed. */
function isStateBatchAxis(input: IrValueInfo, axis: number): boolean {
  const shape = input.shape ?? [];
  return axis === 1 && shape.length === 3 && isFloat(input.dtype) && isChannels(shape[0]) && isFixed(shape[2]) && STATE_NAME.test(input.name);
}

/** What an axis of a graph input is, judged by the input's rank, type and other dims. */
function roleOfAxis(input: IrValueInfo, axis: number, decoder: boolean): DimRole {
  const shape = input.shape ?? [];
  if (axis === 0) return 'batch';
  if (!decoder && isStateBatchAxis(input, axis)) return 'state-batch';
  if (shape.length === 4 && isFloat(input.dtype)) {
    if (isChannels(shape[1]) && (axis === 2 || axis === 3)) return 'spatial';
    if (isChannels(shape[3]) && (axis === 1 || axis === 2)) return 'spatial';
  }
  const integer = input.dtype === DT.INT64 || input.dtype === DT.INT32;
  if (axis === 1 && ((shape.length === 2 && integer) || (shape.length === 3 && !integer))) return 'sequence';
  return 'other';
}

/** A dim with no name: neither value nor name, or a negative value (exporters write -1). */
function isAnonymous(dim: DeclaredDim): boolean {
  return dim === undefined || dim === '' || (typeof dim === 'number' && dim < 0);
}

interface Collected {
  readonly name: string;
  readonly role: DimRole;
  readonly axes: string[];
}

/**
 * Symbolic dims of the graph inputs in first-appearance order ("<input>:<axis>" for anonymous ones); a dim that sizes
 * only axes a KV cache grows along (`kvPast`) is the past length, whatever its name.
 */
function collectDims(inputs: readonly IrValueInfo[], kvPast: ReadonlySet<string> = new Set()): Collected[] {
  const seen = new Map<string, Collected>();
  for (const input of inputs) {
    const invalid = new Set(input.invalidDims?.map((d) => d.axis));
    input.shape?.forEach((dim, axis) => {
      // a number that is no size is no symbolic dim either: no default may stand in for it
      if ((typeof dim === 'number' && dim >= 0) || invalid.has(axis)) return;
      const anonymous = isAnonymous(dim);
      const name = anonymous ? `${input.name}:${axis}` : (dim as string);
      let entry = seen.get(name);
      if (entry === undefined) {
        const byName = anonymous ? 'other' : roleOfName(name);
        // a lone N names the batch on axis 0; elsewhere it is a count the axis explains better (pcm [1, n])
        const ambiguous = byName === 'batch' && /^n$/i.test(name) && axis !== 0;
        entry = { name, role: byName === 'other' || ambiguous ? roleOfAxis(input, axis, kvPast.size > 0) : byName, axes: [] };
        seen.set(name, entry);
      }
      entry.axes.push(`${input.name}:${axis}`);
    });
  }
  return [...seen.values()].map((c) => (c.axes.every((a) => kvPast.has(a)) ? { ...c, role: 'past' } : c));
}

/**
 * The user's values for dims the model has, by dim name; a dim may also be
 * named by an input axis it sizes ("image:2"). Other names and invalid values
 * become diagnostics.
 */
function validUserValues(
  inputs: readonly IrValueInfo[],
  collected: readonly Collected[],
  user: Readonly<Record<string, number>>,
  diagnostics: ModelDiagnostic[],
  optionOf: (key: string) => string,
): { values: Map<string, number>; keys: Map<string, string> } {
  const keys = collected.flatMap((c) => [c.name, ...c.axes]);
  const given = new Map<string, number>();
  const givenAs = new Map<string, string>(); // dim name -> the key the user gave it by
  for (const key of Object.keys(user)) {
    const value = user[key] as number;
    const name = dimByKey(collected, key)?.name;
    if (name === undefined) {
      const why = noDimReason(key, inputs) ?? `no graph input has a dim named '${shortName(key)}'${didYouMean(key, keys) || dimList(collected)}`;
      diagnostics.push({ code: 'unknown-dim', message: `${optionOf(key)} ${shortName(key)}=${value} is ignored: ${why}` });
    } else if (!Number.isSafeInteger(value) || value < 0) {
      diagnostics.push({ code: 'bad-dim', message: `dim '${shortName(key)}' must be a non-negative integer, got ${value}` });
    } else {
      const earlier = givenAs.get(name);
      // one dim by two spellings (its name and an axis it sizes): the last applies, as for one spelling twice, and is never silent
      if (earlier !== undefined && given.get(name) !== value) {
        const both = `${optionOf(earlier)} ${shortName(earlier)}=${given.get(name)}, then ${optionOf(key)} ${shortName(key)}=${value}`;
        diagnostics.push({ code: 'dim-given-twice', message: `dim '${shortName(name)}' given twice with different values (${both}): the last applies` });
      }
      given.set(name, value);
      givenAs.set(name, key);
    }
  }
  return { values: given, keys: givenAs };
}

/**
 * The dim `key` names, as `--dim` takes it everywhere (plan, diff, sweep): the
 * dim's own name, or a graph-input axis it sizes ("image:2"); a name wins over
 * an axis spelled the same.
 */
export function dimByKey<D extends { readonly name: string; readonly axes: readonly string[] }>(dims: readonly D[], key: string): D | undefined {
  return dims.find((d) => d.name === key) ?? dims.find((d) => d.axes.includes(key));
}

/** "; the model's dims are 'a', 'b'" when there are a few, '' otherwise. */
function dimList(collected: readonly Collected[]): string {
  if (collected.length === 0) return '; the graph inputs have no symbolic dims';
  if (collected.length > 8) return '';
  return `; the model's dims are ${collected.map((c) => `'${shortName(c.name)}'`).join(', ')}`;
}

/**
 * Why "<input>:<axis>" names no symbolic dim of an input that exists ("input 'image' has rank 4, so it has no axis
 * 5"); undefined when it names no input of `inputs` (declared, or as inferred: shape undefined when unknown).
 */
export function noDimReason(key: string, inputs: readonly (Pick<IrValueInfo, 'name' | 'invalidDims'> & { readonly shape: readonly unknown[] | undefined })[]): string | undefined {
  const colon = key.lastIndexOf(':');
  const input = colon > 0 ? inputs.find((v) => v.name === key.slice(0, colon)) : undefined;
  const axisText = key.slice(colon + 1);
  if (input === undefined || !/^\d+$/.test(axisText)) return undefined;
  const axis = Number(axisText);
  const named = `input '${shortName(input.name)}'`;
  if (input.shape === undefined) return `${named} declares no shape, so its axes have no dims to bind`;
  if (axis >= input.shape.length) return `${named} has rank ${input.shape.length}, so it has no axis ${axisText}`;
  const invalid = input.invalidDims?.find((d) => d.axis === axis);
  if (invalid !== undefined) return `axis ${axis} of ${named} is declared as ${invalid.value}, which is no size: give the input's shape with --shape`;
  return `axis ${axis} of ${named} is fixed at ${String(input.shape[axis])}`;
}

/** The bound dims of a model. */
export interface DimTable {
  readonly bindings: readonly DimBinding[];
  readonly raisable: boolean; // some default (image, sequence or other) could be raised by a later attempt
  readonly defaultOther: boolean; // some dim is left to the 'other' rule (no name or axis says what it is)
  /** Resolves a declared shape; `inputName` names the anonymous dims of a graph input. */
  resolve(shape: readonly DeclaredDim[] | undefined, inputName?: string): Dim[] | undefined;
  /** Records that a declared shape sized a tensor, so the dims it names size something (a shape given by the user replaces its input's). */
  noteSizing(shape: readonly DeclaredDim[] | undefined, inputName?: string): void;
  /** The dims some declared shape that sized a tensor names. */
  readonly sizing: ReadonlySet<string>;
  /** Dims a total length left to its default is summed from (a sequence or past length, given or default), each to that total's name: they size what the total sizes. */
  readonly feeding: ReadonlyMap<string, string>;
}

/** The default value of each role and the words that say which rule chose it. */
function defaultsOf(
  collected: readonly Collected[],
  given: ReadonlyMap<string, number>,
  hints: DimHints,
  ladder: DimLadder,
): Record<DimRole, { value: number; rule: string }> {
  const valueOf = (role: DimRole, fallback: number): number => {
    const c = collected.find((d) => d.role === role);
    return c === undefined ? fallback : given.get(c.name) ?? fallback;
  };
  const raised = (value: number | undefined, rule: string): string | undefined =>
    value === undefined ? undefined : `${rule}, raised to ${value} because ${ladder.why ?? 'the first choice made a tensor empty'}`;
  const sequence = ladder.sequence ?? valueOf('sequence', DEFAULT_SEQUENCE);
  const past = valueOf('past', DEFAULT_PAST);
  const image = hints.imageSize
    ? { value: hints.imageSize.value, rule: `image size from the model's metadata ('${hints.imageSize.key}')` }
    : hints.densePrediction
      ? { value: DEFAULT_DENSE_SPATIAL, rule: 'image axis of a dense-prediction model (it resizes or suppresses boxes): a typical input size' }
      : { value: DEFAULT_SPATIAL, rule: 'image axis: a typical image size' };
  return {
    batch: { value: 1, rule: 'batch axis: one sample' },
    'state-batch': { value: 1, rule: "batch axis of a recurrent state [layers, batch, hidden]: one sample, as the other inputs' batch" },
    past: { value: past, rule: 'past length: the first step, with no cache yet' },
    total: { value: sequence + past, rule: 'total length: sequence plus past, as the graph requires' },
    sequence: { value: sequence, rule: raised(ladder.sequence, 'sequence axis') ?? 'sequence axis: a typical length' },
    spatial: { value: ladder.spatial ?? image.value, rule: raised(ladder.spatial, image.rule) ?? image.rule },
    other: { value: ladder.other ?? 1, rule: ladder.otherRule ?? raised(ladder.other, 'no rule applies') ?? 'no rule applies: 1' },
  };
}

/** The sequence and past dims a total length is the sum of, when the user gave both (the total is then no guess); undefined otherwise. */
function totalParts(
  collected: readonly Collected[],
  given: ReadonlyMap<string, number>,
  ladder: DimLadder,
): { readonly sequence: { name: string; value: number }; readonly past: { name: string; value: number } } | undefined {
  const sequence = collected.find((d) => d.role === 'sequence');
  const past = collected.find((d) => d.role === 'past');
  if (sequence === undefined || past === undefined || ladder.sequence !== undefined) return undefined;
  const [s, p] = [given.get(sequence.name), given.get(past.name)];
  return s === undefined || p === undefined ? undefined : { sequence: { name: sequence.name, value: s }, past: { name: past.name, value: p } };
}

/** The names of the sequence and past dims a total length is the sum of, when the model has both; undefined otherwise. */
function totalTerms(collected: readonly Collected[]): readonly [string, string] | undefined {
  const sequence = collected.find((d) => d.role === 'sequence');
  const past = collected.find((d) => d.role === 'past');
  return sequence === undefined || past === undefined ? undefined : [sequence.name, past.name];
}

/** A total length the user gave that is not the sum of the dims the graph requires it to be. */
export interface TotalMismatch {
  readonly total: DimBinding;
  readonly parts: readonly DimBinding[]; // sequence, past: given or default
  readonly sum: number;
}

/** The total lengths the user gave that are not the sum of the sequence and past lengths bound beside them (given or default): the graph's shapes will not agree. */
export function mismatchedTotals(bindings: readonly DimBinding[]): TotalMismatch[] {
  const byName = new Map(bindings.map((b) => [b.name, b]));
  return bindings.flatMap((total) => {
    const parts = total.sumOf?.map((name) => byName.get(name));
    if (total.source !== 'user' || parts === undefined || parts.some((t) => t === undefined)) return [];
    const sum = (parts as DimBinding[]).reduce((a, t) => a + t.value, 0);
    return sum === total.value ? [] : [{ total, parts: parts as DimBinding[], sum }];
  });
}

/** "seq_len + past_seq_len = 1 + 16 = 17", then which of them are defaults ("(seq_len=128 by default)"). */
export function mismatchSum(m: TotalMismatch): string {
  const defaults = m.parts.filter((t) => t.source === 'default');
  const byDefault = defaults.length === 0 ? '' : ` (${defaults.map((t) => `${shortName(t.name)}=${t.value}`).join(', ')} by default)`;
  return `${m.parts.map((t) => shortName(t.name)).join(' + ')} = ${m.parts.map((t) => t.value).join(' + ')} = ${m.sum}${byDefault}`;
}

/**
 * The `dim-mismatch` diagnostics of `bindings`, one per total length given otherwise than its parts' sum; `optionOf`
 * names the option that gave a dim (by its name), as the message words it.
 */
export function totalMismatch(bindings: readonly DimBinding[], optionOf: (name: string) => string = () => DIM_OPTION): ModelDiagnostic[] {
  return mismatchedTotals(bindings).map((m) => ({
    code: 'dim-mismatch',
    message: `${optionOf(m.total.name)} ${shortName(m.total.name)}=${m.total.value} is not ${mismatchSum(m)}, as the graph requires: shapes that combine them may not agree`,
  }));
}

/** The option a dim's value is given by, as diagnostics name it, unless InferOptions.dimOptions says otherwise. */
export const DIM_OPTION = '--dim';

/**
 * Binds every symbolic dim of `inputs`; unknown or invalid user names become diagnostics, which name the option each
 * value came by (`userOptions`, by the key the user gave: '--dim' when it has none).
 */
export function bindDims(
  inputs: readonly IrValueInfo[],
  user: Readonly<Record<string, number>>,
  diagnostics: ModelDiagnostic[],
  hints: DimHints = { densePrediction: false },
  ladder: DimLadder = {},
  userOptions: Readonly<Record<string, string>> = {},
): DimTable {
  const collected = collectDims(inputs, hints.kvPastAxes);
  const optionOf = (key: string): string => (Object.hasOwn(userOptions, key) ? userOptions[key]! : DIM_OPTION);
  const { values: given, keys: givenAs } = validUserValues(inputs, collected, user, diagnostics, optionOf);
  const defaults = defaultsOf(collected, given, hints, ladder);
  const parts = totalParts(collected, given, ladder);
  const terms = totalTerms(collected);
  const bindings: DimBinding[] = collected.map((c) => {
    const sumOf = c.role === 'total' && terms !== undefined ? { sumOf: terms } : {};
    const value = given.get(c.name);
    if (value !== undefined) {
      const key = givenAs.get(c.name);
      return { name: c.name, value, source: 'user', axes: c.axes, rule: 'given by the user', ...(key !== undefined && key !== c.name && { givenAs: key }), ...sumOf };
    }
    if (c.role === 'total' && parts !== undefined) {
      const rule = `total length: ${shortName(parts.sequence.name)} + ${shortName(parts.past.name)} as given (${parts.sequence.value} + ${parts.past.value}), as the graph requires`;
      return { name: c.name, value: parts.sequence.value + parts.past.value, source: 'derived', axes: c.axes, rule, ...sumOf };
    }
    return { name: c.name, value: defaults[c.role].value, source: 'default', axes: c.axes, rule: defaults[c.role].rule, ...sumOf };
  });
  diagnostics.push(...totalMismatch(bindings, (name) => optionOf(givenAs.get(name) ?? name)));
  const values = new Map(bindings.map((b) => [b.name, b.value]));
  const raisable = collected.some((c) => !given.has(c.name) && (c.role === 'spatial' || c.role === 'sequence' || c.role === 'other'));
  const sizing = new Set<string>();
  const total = collected.find((c) => c.role === 'total' && !given.has(c.name));
  const feeding = new Map(total === undefined ? [] : collected.filter((c) => c.role === 'sequence' || c.role === 'past').map((c) => [c.name, total.name] as const));
  return {
    bindings,
    sizing,
    feeding,
    noteSizing: (shape, inputName) =>
      shape?.forEach((dim, axis) => {
        if (isAnonymous(dim)) {
          if (inputName !== undefined) sizing.add(`${inputName}:${axis}`);
        } else if (typeof dim === 'string') {
          if (values.has(dim)) sizing.add(dim);
          else for (const term of dim.split(/[\s+\-*]+/)) if (values.has(term)) sizing.add(term);
        }
      }),
    raisable,
    defaultOther: collected.some((c) => !given.has(c.name) && c.role === 'other'),
    resolve: (shape, inputName) =>
      shape?.map((dim, axis) => {
        if (isAnonymous(dim)) return inputName === undefined ? undefined : values.get(`${inputName}:${axis}`);
        if (typeof dim === 'number') return dim;
        return values.get(dim as string) ?? evaluateDimExpression(dim as string, values);
      }),
  };
}

/**
 * Evaluates a dim written as arithmetic over bound names, as exporters write
 * output dims ("past_sequence_length + 1", "2*sequence"): + - * and integer
 * literals, no parentheses. Undefined when any term is not bound.
 */
export function evaluateDimExpression(text: string, values: ReadonlyMap<string, number>): number | undefined {
  if (!/^[\w\s+\-*.:]+$/.test(text) || !/[+\-*]/.test(text)) return undefined;
  let total = 0;
  for (const match of text.replace(/\s+/g, '').matchAll(/([+-]?)([^+-]+)/g)) {
    let product = 1;
    for (const factor of (match[2] ?? '').split('*')) {
      const v = /^\d+$/.test(factor) ? Number(factor) : values.get(factor);
      if (v === undefined) return undefined;
      product *= v;
    }
    total += match[1] === '-' ? -product : product;
  }
  return total;
}
