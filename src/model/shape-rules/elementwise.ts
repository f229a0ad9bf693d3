// Shape rules for element-wise ops: unary activations and math, broadcasting
// binary and variadic arithmetic (folding small constant values, which is how
// shape arithmetic resolves), Clip, Dropout and the quantization ops.
// Pure functions over TensorFacts; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { broadcastShapes, foldElementwise } from './broadcast';
import { onnxTable } from './rule-helpers';
import { guardRules, inputFact, inputScalar, makeFact, requireInput } from './tensor-facts';
import type { RuleContext, RuleResult, ShapeRule, TensorFact } from './types';

type Fold = (...xs: number[]) => number;

/** Integer data types: folded arithmetic truncates like the runtime does. */
const INTEGER_TYPES: ReadonlySet<number> = new Set([2, 3, 4, 5, 6, 7, 12, 13, 21, 22, 25, 26]);

/** True for integer (and not floating-point or bool) data types. */
export function isIntegerType(dtype: DataTypeCode | undefined): boolean {
  return dtype !== undefined && INTEGER_TYPES.has(dtype);
}

/** Rounds half to even, as ONNX Round does. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Unary ops whose output has the input's shape and dtype, with a fold when cheap to compute. */
const UNARY: Readonly<Record<string, ((x: number) => number) | undefined>> = {
  Abs: Math.abs,
  Neg: (x) => -x,
  Floor: Math.floor,
  Ceil: Math.ceil,
  Round: roundHalfEven,
  Sqrt: Math.sqrt,
  Reciprocal: (x) => 1 / x,
  Exp: Math.exp,
  Log: Math.log,
  Relu: (x) => Math.max(0, x),
  Sign: Math.sign,
  Sigmoid: sigmoid,
  Tanh: Math.tanh,
  Sin: Math.sin,
  Cos: Math.cos,
  Tan: Math.tan,
  Asin: Math.asin,
  Acos: Math.acos,
  Atan: Math.atan,
  Sinh: Math.sinh,
  Cosh: Math.cosh,
  Asinh: Math.asinh,
  Acosh: Math.acosh,
  Atanh: Math.atanh,
  Softplus: (x) => Math.log1p(Math.exp(x)),
  Softsign: (x) => x / (1 + Math.abs(x)),
  BitwiseNot: (x) => ~x,
  Erf: undefined,
  LeakyRelu: undefined,
  Elu: undefined,
  Selu: undefined,
  Celu: undefined,
  HardSigmoid: undefined,
  HardSwish: undefined,
  Mish: undefined,
  Swish: undefined,
  Gelu: undefined,
  ThresholdedRelu: undefined,
  Shrink: undefined,
  Trilu: undefined,
  ReverseSequence: undefined,
  MeanVarianceNormalization: undefined,
  LpNormalization: undefined,
};

/** Same shape and dtype as input 0, folding the value when `fold` is given. */
function unary(fold: ((x: number) => number) | undefined): ShapeRule {
  return (ctx) => {
    const x = requireInput(ctx, 0, 'input');
    const value = fold && x.value ? foldElementwise([x.value], [x.shape], fold) : undefined;
    return [makeFact(x.dtype, x.shape, value && isIntegerType(x.dtype) ? value.map(Math.trunc) : value)];
  };
}

/**
 * Broadcasting arithmetic over all present inputs: the output takes input 0's
 * dtype (or `dtype`) and the broadcast shape; small constant values are folded.
 */
function broadcasting(fold: ((int: boolean, ctx: RuleContext) => Fold) | undefined, dtype?: DataTypeCode): ShapeRule {
  return (ctx) => {
    // A named input without a fact counts as fully unknown; only left-out ('') inputs are skipped.
    const facts = ctx.node.inputs.flatMap((name, i): TensorFact[] =>
      name === '' ? [] : [ctx.inputs[i] ?? { dtype: undefined, shape: undefined }],
    );
    if (facts.length === 0) return { unknown: `${ctx.node.opType} has no inputs` };
    const shapes = facts.map((f) => f.shape);
    const outDtype = dtype ?? facts[0]?.dtype ?? facts.find((f) => f.dtype !== undefined)?.dtype;
    const shape = broadcastShapes(shapes);
    let value: number[] | undefined;
    if (fold && facts.every((f) => f.value !== undefined)) {
      const int = isIntegerType(outDtype);
      const folded = foldElementwise(facts.map((f) => f.value as readonly number[]), shapes, fold(int, ctx));
      value = folded && int ? folded.map(Math.trunc) : folded;
    }
    return [makeFact(outDtype, shape, value)];
  };
}

const plain = (fn: Fold) => (): Fold => fn;

/** Python-style modulo (sign of the divisor) unless fmod=1 (sign of the dividend). */
function modFold(_int: boolean, ctx: RuleContext): Fold {
  if (ctx.int('fmod', 0) === 1) return (a, b) => a % b;
  return (a, b) => {
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r;
  };
}

function bitShiftFold(_int: boolean, ctx: RuleContext): Fold {
  const left = ctx.string('direction', 'LEFT') === 'LEFT';
  return (a, b) => (left ? a * 2 ** b : Math.floor(a / 2 ** b));
}

const BINARY: Readonly<Record<string, ShapeRule>> = {
  Add: broadcasting(plain((a, b) => a + b)),
  Sub: broadcasting(plain((a, b) => a - b)),
  Mul: broadcasting(plain((a, b) => a * b)),
  Div: broadcasting((int) => (int ? (a, b) => Math.trunc(a / b) : (a, b) => a / b)),
  Pow: broadcasting(plain((a, b) => a ** b)),
  Mod: broadcasting(modFold),
  BitShift: broadcasting(bitShiftFold),
  BitwiseAnd: broadcasting(plain((a, b) => a & b)),
  BitwiseOr: broadcasting(plain((a, b) => a | b)),
  BitwiseXor: broadcasting(plain((a, b) => a ^ b)),
  Max: broadcasting(plain((...xs) => Math.max(...xs))),
  Min: broadcasting(plain((...xs) => Math.min(...xs))),
  Sum: broadcasting(plain((...xs) => xs.reduce((s, x) => s + x, 0))),
  Mean: broadcasting(plain((...xs) => xs.reduce((s, x) => s + x, 0) / xs.length)),
};

/** PRelu: the slope broadcasts to X (unidirectionally), so Y has X's shape. */
function preluRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const slope = inputFact(ctx, 1);
  const shape = x.shape ?? (slope ? broadcastShapes([x.shape, slope.shape]) : undefined);
  return [makeFact(x.dtype, shape)];
}

/** Clip: bounds from inputs 1 and 2 (opset 11+) or the min/max attributes. */
function clipRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  const lo = ctx.opset >= 11 ? inputScalar(ctx, 1) ?? -Infinity : ctx.float('min', -Infinity);
  const hi = ctx.opset >= 11 ? inputScalar(ctx, 2) ?? Infinity : ctx.float('max', Infinity);
  const boundsKnown = ctx.opset < 11 || [1, 2].every((i) => inputFact(ctx, i) === undefined || inputScalar(ctx, i) !== undefined);
  const value =
    x.value && boundsKnown ? foldElementwise([x.value], [x.shape], (v) => Math.min(Math.max(v, lo), hi)) : undefined;
  return [makeFact(x.dtype, x.shape, value)];
}

/** Dropout: the output, and a mask of X's shape (bool from opset 10, X's type before). */
function dropoutRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'data');
  const maskType = ctx.opset >= 10 ? DT.BOOL : x.dtype;
  return [makeFact(x.dtype, x.shape, x.value), makeFact(maskType, x.shape)];
}

/** IsNaN / IsInf: a bool tensor of the input's shape. */
function predicateRule(ctx: RuleContext): RuleResult {
  return [makeFact(DT.BOOL, requireInput(ctx, 0, 'X').shape)];
}

/** QuantizeLinear: y takes the zero point's type, else output_dtype (opset 21+), else uint8. */
function quantizeRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'x');
  const zeroPoint = inputFact(ctx, 2);
  const attrType = ctx.int('output_dtype', 0);
  const dtype = zeroPoint?.dtype ?? (attrType !== 0 ? attrType : DT.UINT8);
  return [makeFact(dtype, x.shape)];
}

/** DequantizeLinear: float before opset 19; the scale's type after; output_dtype from opset 23. */
function dequantizeRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'x');
  const attrType = ctx.int('output_dtype', 0);
  let dtype: DataTypeCode | undefined = DT.FLOAT;
  if (attrType !== 0) dtype = attrType;
  else if (ctx.opset >= 19) dtype = inputFact(ctx, 1)?.dtype ?? DT.FLOAT;
  return [makeFact(dtype, x.shape)];
}

/** DynamicQuantizeLinear: uint8 y of x's shape, scalar float scale and uint8 zero point. */
function dynamicQuantizeRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'x');
  return [makeFact(DT.UINT8, x.shape), makeFact(DT.FLOAT, []), makeFact(DT.UINT8, [])];
}

/** Shape rules for element-wise ops. */
export const elementwiseRules = guardRules({
  ...onnxTable(Object.fromEntries(Object.entries(UNARY).map(([op, fold]) => [op, unary(fold)]))),
  ...onnxTable(BINARY),
  ...onnxTable({
    PRelu: preluRule,
    Clip: clipRule,
    Dropout: dropoutRule,
    IsNaN: predicateRule,
    IsInf: predicateRule,
    QuantizeLinear: quantizeRule,
    DequantizeLinear: dequantizeRule,
    DynamicQuantizeLinear: dynamicQuantizeRule,
  }),
});
