// Symbolic dims of a model's graph inputs: collects them, binds each to the
// user's value or a documented default, and resolves declared shapes. No DOM.
//
// Defaults, when the user gives no value (all reported with source 'default'):
// - anonymous dims ("<input>:<axis>") and batch-like names (batch, batch_size,
//   N, B, bs, or an unnamed 'unk__…' on axis 0): 1;
// - past-like names (past_sequence_length, past_seq_len, …): 0, the prefill
//   step, so the key/value cache inputs are empty and every Concat stays valid;
// - total-like names (total_sequence_length, total_seq_len, …): the sequence
//   value plus the past value, which is what the graph requires;
// - sequence-like names (sequence, seq_len, sequence_length, …): 128;
// - image height/width names (height, width, H, W, …): 224, so convolution
//   stacks keep positive sizes;
// - any other name: 1.

import type { DimBinding, ModelDiagnostic } from './inferred';
import type { DeclaredDim, IrValueInfo } from './ir';
import type { Dim } from './shape-rules/types';

/** Default for sequence-like dims. */
export const DEFAULT_SEQUENCE = 128;
/** Default for past-like dims (prefill). */
export const DEFAULT_PAST = 0;
/** Default for image height/width dims. */
export const DEFAULT_SPATIAL = 224;

type DimRole = 'batch' | 'past' | 'total' | 'sequence' | 'spatial' | 'other';

/** Guesses what a dim name stands for, to pick a default. */
function roleOf(name: string, axis: number, anonymous: boolean): DimRole {
  if (anonymous) return 'batch';
  if (/past/i.test(name)) return 'past';
  if (/total|^(all|full)_?seq/i.test(name)) return 'total';
  if (/batch|^(n|b|bs)$/i.test(name)) return 'batch';
  if (/^unk__/i.test(name) && axis === 0) return 'batch';
  if (/seq|token|length|len$|^s$|^t$/i.test(name)) return 'sequence';
  if (/height|width|^(h|w|img_?[hw])$/i.test(name)) return 'spatial';
  return 'other';
}

interface Collected {
  readonly name: string;
  readonly role: DimRole;
}

/** Symbolic dims of the graph inputs in first-appearance order ("<input>:<axis>" for anonymous ones). */
function collectDims(inputs: readonly IrValueInfo[]): Collected[] {
  const seen = new Map<string, Collected>();
  for (const input of inputs) {
    input.shape?.forEach((dim, axis) => {
      if (typeof dim === 'number') return;
      const anonymous = dim === undefined || dim === '';
      const name = anonymous ? `${input.name}:${axis}` : dim;
      if (!seen.has(name)) seen.set(name, { name, role: roleOf(name, axis, anonymous) });
    });
  }
  return [...seen.values()];
}

/** The user's values for dims the model has; other names and invalid values become diagnostics. */
function validUserValues(
  known: ReadonlySet<string>,
  user: Readonly<Record<string, number>>,
  diagnostics: ModelDiagnostic[],
): Map<string, number> {
  const given = new Map<string, number>();
  for (const [name, value] of Object.entries(user)) {
    if (!known.has(name)) {
      diagnostics.push({ code: 'unknown-dim', message: `no graph input has a dim named '${name}'; --dim ${name}=${value} is ignored` });
    } else if (!Number.isInteger(value) || value < 0) {
      diagnostics.push({ code: 'bad-dim', message: `dim '${name}' must be a non-negative integer, got ${value}` });
    } else given.set(name, value);
  }
  return given;
}

/** The bound dims of a model. */
export interface DimTable {
  readonly bindings: readonly DimBinding[];
  /** Resolves a declared shape; `inputName` names the anonymous dims of a graph input. */
  resolve(shape: readonly DeclaredDim[] | undefined, inputName?: string): Dim[] | undefined;
}

/** Binds every symbolic dim of `inputs`; unknown or invalid user names become diagnostics. */
export function bindDims(
  inputs: readonly IrValueInfo[],
  user: Readonly<Record<string, number>>,
  diagnostics: ModelDiagnostic[],
): DimTable {
  const collected = collectDims(inputs);
  const given = validUserValues(new Set(collected.map((c) => c.name)), user, diagnostics);
  const firstOf = (role: DimRole): Collected | undefined => collected.find((c) => c.role === role);
  const valueOf = (c: Collected | undefined, fallback: number): number => (c ? given.get(c.name) ?? fallback : fallback);
  const sequence = valueOf(firstOf('sequence'), DEFAULT_SEQUENCE);
  const past = valueOf(firstOf('past'), DEFAULT_PAST);
  const defaults: Readonly<Record<DimRole, number>> = {
    batch: 1,
    past,
    total: sequence + past,
    sequence,
    spatial: DEFAULT_SPATIAL,
    other: 1,
  };
  const bindings: DimBinding[] = collected.map((c) => {
    const value = given.get(c.name);
    return value === undefined ? { name: c.name, value: defaults[c.role], source: 'default' } : { name: c.name, value, source: 'user' };
  });
  const values = new Map(bindings.map((b) => [b.name, b.value]));
  return {
    bindings,
    resolve: (shape, inputName) =>
      shape?.map((dim, axis) => {
        if (typeof dim === 'number') return dim >= 0 ? dim : undefined;
        if (dim === undefined || dim === '') return inputName === undefined ? undefined : values.get(`${inputName}:${axis}`);
        return values.get(dim) ?? evaluateDimExpression(dim, values);
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
