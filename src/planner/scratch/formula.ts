// Scratch-size formulas of the target profile: a small arithmetic language over
// an op's tensor shapes, parsed when the target is read and evaluated per node.
// Depends only on src/shared.
//
// Grammar (whitespace ignored):
//   expr   := term (('+' | '-') term)*
//   term   := unary (('*' | '/') unary)*
//   unary  := '-' unary | atom
//   atom   := number | tensor '[' ['-'] digits ']' | fn '(' tensor ')'
//           | ('max' | 'min') '(' expr (',' expr)* ')' | 'attr' '(' name ')'
//           | '(' expr ')'
//   tensor := 'in' digits | 'out' digits        (the op's N-th input / output)
//   fn     := 'bytes' | 'numel' | 'elem' | 'rank'  (size, element count, bytes per element, rank)
// `in1[2]` is dim 2 of input 1; a negative index counts from the end. Division
// is exact; the final size is rounded up to whole bytes. `attr(num_heads)` is
// the op's number attribute of that name (a size no tensor gives, as an
// attention op's head count). Example, im2col for Conv:
// `in0[1] * in1[2] * in1[3] * out0[2] * out0[3] * elem(in0)`.
// Bounded by construction: at most MAX_TOKENS tokens and MAX_DEPTH levels of
// parentheses, unary minus and calls, so neither parsing nor evaluating a
// formula from a hand-written target can exhaust the stack.

import { InputError } from '../../shared/errors';
import { formatLargeCount, MAX_BYTES } from '../../shared/format';
import { shortName } from '../../shared/short-name';

/** Tokens a formula may have (a size rule is a line, not a program). */
export const MAX_TOKENS = 1000;
/** Nesting of parentheses, unary minus and max/min calls a formula may have. */
export const MAX_DEPTH = 64;

type TensorRef = { readonly io: 'in' | 'out'; readonly index: number };

/** A parsed formula. */
export type Formula =
  | { readonly k: 'num'; readonly value: number }
  | { readonly k: 'dim'; readonly tensor: TensorRef; readonly axis: number }
  | { readonly k: 'fact'; readonly fn: 'bytes' | 'numel' | 'elem' | 'rank'; readonly tensor: TensorRef }
  | { readonly k: 'call'; readonly fn: 'max' | 'min'; readonly args: readonly Formula[] }
  | { readonly k: 'attr'; readonly name: string }
  | { readonly k: 'neg'; readonly arg: Formula }
  | { readonly k: 'bin'; readonly op: '+' | '-' | '*' | '/'; readonly a: Formula; readonly b: Formula };

/** What a formula knows of one tensor of the op. */
export interface TensorFacts {
  readonly shape: readonly number[] | undefined;
  readonly bytes: number | undefined;
}

/** The op's tensors, by position; undefined for a missing optional input. */
export interface FormulaTensors {
  readonly inputs: readonly (TensorFacts | undefined)[];
  readonly outputs: readonly (TensorFacts | undefined)[];
  readonly attributes?: Readonly<Record<string, number | readonly number[] | string>>; // the op's attributes, for attr(NAME)
}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\S))/y;
const FACTS = ['bytes', 'numel', 'elem', 'rank'] as const;

/** Parses a formula; throws InputError('bad-target') naming the character it could not read. */
export function parseScratchFormula(text: string): Formula {
  const parser = new Parser(text);
  const formula = parser.expr();
  parser.end();
  return formula;
}

class Parser {
  private readonly tokens: { text: string; at: number; kind: 'num' | 'name' | 'sym' }[] = [];
  private i = 0;
  private depth = 0;

  constructor(private readonly source: string) {
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(source); m !== null && m[0] !== ''; m = TOKEN.exec(source)) {
      if (this.tokens.length >= MAX_TOKENS) {
        throw new InputError('bad-target', `the formula "${shortName(source)}" has more than ${MAX_TOKENS} tokens; a scratch size is a short formula`);
      }
      const at = TOKEN.lastIndex - (m[1] ?? m[2] ?? m[3] ?? '').length;
      if (m[1] !== undefined) this.tokens.push({ text: m[1], at, kind: 'num' });
      else if (m[2] !== undefined) this.tokens.push({ text: m[2], at, kind: 'name' });
      else if (m[3] !== undefined) this.tokens.push({ text: m[3], at, kind: 'sym' });
    }
  }

  expr(): Formula {
    let left = this.term();
    while (this.peek('+') || this.peek('-')) {
      const op = this.next().text as '+' | '-';
      left = { k: 'bin', op, a: left, b: this.term() };
    }
    return left;
  }

  end(): void {
    if (this.i < this.tokens.length) this.error();
  }

  private term(): Formula {
    let left = this.unary();
    while (this.peek('*') || this.peek('/')) {
      const op = this.next().text as '*' | '/';
      left = { k: 'bin', op, a: left, b: this.unary() };
    }
    return left;
  }

  private unary(): Formula {
    if (this.peek('-')) {
      this.next();
      return { k: 'neg', arg: this.nested(() => this.unary()) };
    }
    return this.atom();
  }

  /** Runs a nested rule, refusing formulas nested deeper than MAX_DEPTH. */
  private nested<T>(rule: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      throw new InputError('bad-target', `the formula "${shortName(this.source)}" nests more than ${MAX_DEPTH} levels of parentheses, minus signs or calls`);
    }
    const result = rule();
    this.depth--;
    return result;
  }

  private atom(): Formula {
    const token = this.tokens[this.i];
    if (token === undefined) return this.error();
    if (token.kind === 'num') {
      this.i++;
      return { k: 'num', value: Number(token.text) };
    }
    if (token.text === '(') {
      this.i++;
      const inner = this.nested(() => this.expr());
      this.expect(')');
      return inner;
    }
    if (token.kind !== 'name') return this.error();
    this.i++;
    if ((FACTS as readonly string[]).includes(token.text)) {
      this.expect('(');
      const tensor = this.tensor();
      this.expect(')');
      return { k: 'fact', fn: token.text as (typeof FACTS)[number], tensor };
    }
    if (token.text === 'max' || token.text === 'min') return this.nested(() => this.call(token.text as 'max' | 'min'));
    if (token.text === 'attr') {
      this.expect('(');
      const name = this.tokens[this.i];
      if (name?.kind !== 'name') return this.error();
      this.i++;
      this.expect(')');
      return { k: 'attr', name: name.text };
    }
    this.i--;
    const tensor = this.tensor();
    this.expect('[');
    const negative = this.peek('-');
    if (negative) this.next();
    const digits = this.tokens[this.i];
    if (digits?.kind !== 'num' || !/^\d+$/.test(digits.text)) return this.error();
    this.i++;
    this.expect(']');
    return { k: 'dim', tensor, axis: negative ? -Number(digits.text) : Number(digits.text) };
  }

  private call(fn: 'max' | 'min'): Formula {
    this.expect('(');
    const args = [this.expr()];
    while (this.peek(',')) {
      this.next();
      args.push(this.expr());
    }
    this.expect(')');
    return { k: 'call', fn, args };
  }

  private tensor(): TensorRef {
    const token = this.tokens[this.i];
    const m = token?.kind === 'name' ? /^(in|out)(\d+)$/.exec(token.text) : null;
    if (m === null) return this.error();
    this.i++;
    return { io: m[1] as 'in' | 'out', index: Number(m[2]) };
  }

  private peek(sym: string): boolean {
    const token = this.tokens[this.i];
    return token?.kind === 'sym' && token.text === sym;
  }

  private next() {
    return this.tokens[this.i++]!;
  }

  private expect(sym: string): void {
    if (!this.peek(sym)) this.error();
    this.i++;
  }

  private error(): never {
    const token = this.tokens[this.i];
    const where = token === undefined ? 'the formula ends too early' : `unexpected "${token.text}" at character ${token.at + 1}`;
    throw new InputError('bad-target', `${where} in "${shortName(this.source)}"`);
  }
}

/** The size a formula gives for one op, in whole bytes, or why it has none. */
export function evaluateScratchFormula(formula: Formula, tensors: FormulaTensors): { bytes: number } | { error: string } {
  try {
    const value = evaluate(formula, tensors);
    if (!Number.isFinite(value) || value < 0) return { error: `the formula gives ${value}, not a size` };
    const bytes = Math.ceil(value - 1e-9);
    if (bytes > MAX_BYTES) return { error: `it gives ${formatLargeCount(bytes)} bytes, past 2^53 − 1 (${MAX_BYTES}), the most the planner computes exactly` };
    return { bytes };
  } catch (error) {
    if (error instanceof FormulaError) return { error: error.message };
    throw error;
  }
}

/**
 * Why a formula can give no size for any op, or undefined when some op may
 * size it: a part that reads no tensor and divides by zero, or a whole formula
 * that reads no tensor and is not a size (`1/0`, `2 - 5`).
 */
export function constantFormulaError(formula: Formula): string | undefined {
  const none: FormulaTensors = { inputs: [], outputs: [] };
  const failing = (f: Formula): string | undefined => {
    if (readsNoTensor(f)) {
      try {
        evaluate(f, none);
        return undefined;
      } catch (error) {
        if (error instanceof FormulaError) return error.message;
        throw error;
      }
    }
    return childrenOf(f).map(failing).find((e) => e !== undefined);
  };
  const part = failing(formula);
  if (part !== undefined) return part;
  if (!readsNoTensor(formula)) return undefined;
  const whole = evaluateScratchFormula(formula, none);
  return 'error' in whole ? whole.error : undefined;
}

function childrenOf(f: Formula): readonly Formula[] {
  if (f.k === 'bin') return [f.a, f.b];
  if (f.k === 'neg') return [f.arg];
  if (f.k === 'call') return f.args;
  return [];
}

function readsNoTensor(f: Formula): boolean {
  return f.k !== 'dim' && f.k !== 'fact' && f.k !== 'attr' && childrenOf(f).every(readsNoTensor);
}

class FormulaError extends Error {}

function evaluate(f: Formula, t: FormulaTensors): number {
  switch (f.k) {
    case 'num':
      return f.value;
    case 'neg':
      return -evaluate(f.arg, t);
    case 'call':
      return f.args.reduce((acc, a) => (f.fn === 'max' ? Math.max : Math.min)(acc, evaluate(a, t)), f.fn === 'max' ? -Infinity : Infinity);
    case 'bin': {
      const a = evaluate(f.a, t);
      const b = evaluate(f.b, t);
      if (f.op === '/' && b === 0) throw new FormulaError('the formula divides by zero');
      return f.op === '+' ? a + b : f.op === '-' ? a - b : f.op === '*' ? a * b : a / b;
    }
    case 'dim': {
      const shape = shapeOf(f.tensor, t);
      const axis = f.axis < 0 ? shape.length + f.axis : f.axis;
      const dim = shape[axis];
      if (dim === undefined) throw new FormulaError(`${name(f.tensor)} has rank ${shape.length}, no dim ${f.axis}`);
      return dim;
    }
    case 'fact':
      return factOf(f.fn, f.tensor, t);
    case 'attr': {
      const value = t.attributes?.[f.name];
      if (value === undefined) throw new FormulaError(`the op has no attribute ${shortName(f.name)}`);
      if (typeof value !== 'number') throw new FormulaError(`the op's attribute ${shortName(f.name)} is not a number`);
      return value;
    }
  }
}

function factOf(fn: 'bytes' | 'numel' | 'elem' | 'rank', ref: TensorRef, t: FormulaTensors): number {
  const shape = shapeOf(ref, t);
  if (fn === 'rank') return shape.length;
  const numel = shape.reduce((a, b) => a * b, 1);
  if (fn === 'numel') return numel;
  const bytes = tensorOf(ref, t).bytes;
  if (bytes === undefined) throw new FormulaError(`the size of ${name(ref)} is unknown`);
  if (fn === 'bytes') return bytes;
  return numel === 0 ? 0 : bytes / numel;
}

function tensorOf(ref: TensorRef, t: FormulaTensors): TensorFacts {
  const tensor = (ref.io === 'in' ? t.inputs : t.outputs)[ref.index];
  if (tensor === undefined) throw new FormulaError(`the op has no ${name(ref)}`);
  return tensor;
}

function shapeOf(ref: TensorRef, t: FormulaTensors): readonly number[] {
  const shape = tensorOf(ref, t).shape;
  if (shape === undefined) throw new FormulaError(`the shape of ${name(ref)} is unknown`);
  return shape;
}

function name(ref: TensorRef): string {
  return `${ref.io === 'in' ? 'input' : 'output'} ${ref.index}`;
}
