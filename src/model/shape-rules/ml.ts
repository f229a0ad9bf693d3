// Shape rules for the classical-ML operator set (ai.onnx.ml) that produce
// tensors: encoders, scalers, linear/SVM/tree models. Ops that produce maps or
// sequences of maps (ZipMap, DictVectorizer, CastMap) have no rule. Pure; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { fail, guardRules, inputFact, makeFact, requireInput, requireShape } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** The same shape as X, with `dtype` (X's own when undefined). */
function sameShape(dtype?: DataTypeCode): ShapeRule {
  return (ctx) => {
    const x = requireInput(ctx, 0, 'X');
    return [makeFact(dtype ?? x.dtype, x.shape)];
  };
}

/** Rows of X: a 1-D input is one sample. */
function rows(ctx: RuleContext): Dim {
  const x = requireShape(requireInput(ctx, 0, 'X'), 'X');
  return x.length === 1 ? 1 : x[0];
}

/** LabelEncoder: X's shape in the type of the values attribute. */
function labelEncoderRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const tensor = ctx.attr('values_tensor');
  let dtype: DataTypeCode = DT.FLOAT;
  if (tensor?.kind === 'tensor') dtype = tensor.value.dtype;
  else if (ctx.attr('values_int64s') !== undefined) dtype = DT.INT64;
  else if (ctx.attr('values_strings') !== undefined) dtype = DT.STRING;
  return [makeFact(dtype, x.shape)];
}

/** CategoryMapper: strings to int64 or back, same shape. */
function categoryMapperRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  return [makeFact(x.dtype === DT.STRING ? DT.INT64 : DT.STRING, x.shape)];
}

/** Classifiers: labels [N] (int64 or string) and scores [N, classes]. */
function classifierRule(ctx: RuleContext): RuleResult {
  const n = rows(ctx);
  const ints = ctx.ints('classlabels_ints');
  const strings = ctx.attr('classlabels_strings');
  const classes = ints?.length ?? (strings?.kind === 'strings' ? strings.value.length : undefined);
  if (classes === undefined) fail('the classifier lists no class labels');
  return [makeFact(ints ? DT.INT64 : DT.STRING, [n]), makeFact(DT.FLOAT, [n, classes])];
}

/** Regressors: [N, targets], with targets from `attribute` (default 1). */
function regressorRule(attribute: string): ShapeRule {
  return (ctx) => [makeFact(DT.FLOAT, [rows(ctx), ctx.int(attribute, 1)])];
}

/** ArrayFeatureExtractor: the last axis of X indexed by the Y indices. */
function arrayFeatureRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const shape = requireShape(x, 'X');
  const count = inputFact(ctx, 1)?.shape?.reduce<Dim>((p, d) => (p === undefined || d === undefined ? undefined : p * d), 1);
  return [makeFact(x.dtype, shape.length <= 1 ? [1, count] : [...shape.slice(0, -1), count])];
}

/** OneHotEncoder: one float slot per category appended to X's shape. */
function oneHotEncoderRule(ctx: RuleContext): RuleResult {
  const x = requireShape(requireInput(ctx, 0, 'X'), 'X');
  const strings = ctx.attr('cats_strings');
  const count = ctx.ints('cats_int64s')?.length ?? (strings?.kind === 'strings' ? strings.value.length : undefined);
  return [makeFact(DT.FLOAT, [...x, count])];
}

/** FeatureVectorizer: [N, sum of inputdimensions]. */
function featureVectorizerRule(ctx: RuleContext): RuleResult {
  const dims = ctx.ints('inputdimensions') ?? [];
  return [makeFact(DT.FLOAT, [rows(ctx), dims.reduce((a, b) => a + b, 0)])];
}

const RULES: Readonly<Record<string, ShapeRule>> = {
  Binarizer: sameShape(),
  Imputer: sameShape(),
  Normalizer: sameShape(DT.FLOAT),
  Scaler: sameShape(DT.FLOAT),
  LabelEncoder: labelEncoderRule,
  CategoryMapper: categoryMapperRule,
  LinearClassifier: classifierRule,
  SVMClassifier: classifierRule,
  TreeEnsembleClassifier: classifierRule,
  LinearRegressor: regressorRule('targets'),
  SVMRegressor: regressorRule('n_targets'),
  TreeEnsembleRegressor: regressorRule('n_targets'),
  TreeEnsemble: regressorRule('n_targets'),
  ArrayFeatureExtractor: arrayFeatureRule,
  OneHotEncoder: oneHotEncoderRule,
  FeatureVectorizer: featureVectorizerRule,
};

/** Shape rules for ai.onnx.ml. */
export const mlRules = guardRules(Object.fromEntries(Object.entries(RULES).map(([op, rule]) => [`ai.onnx.ml::${op}`, rule])));
