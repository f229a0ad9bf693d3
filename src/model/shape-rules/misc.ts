// Shape rules for standard ops outside the other families: Det, EyeLike, the
// random generators, CenterCropPad, TfIdfVectorizer, TensorScatter and the
// preview training optimizers (Adagrad, Adam, Momentum). Pure; no DOM.

import { DT } from '../dtype';
import { onnxTable } from './rule-helpers';
import { fail, guardRules, inputFact, inputValue, makeFact, normalizeAxes, requireInput, requireShape } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** Det: [*, M, M] gives [*]. */
function detRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const shape = requireShape(x, 'X');
  if (shape.length < 2) fail('Det needs at least two axes');
  return [makeFact(x.dtype, shape.slice(0, -2))];
}

/** EyeLike, RandomNormalLike, RandomUniformLike, Bernoulli: the input's shape; dtype attribute or the input's. */
function likeInputRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  return [makeFact(ctx.int('dtype', x.dtype ?? DT.FLOAT), x.shape)];
}

/** TensorScatter (opset 24): the updated cache has the shape of past_cache. */
function tensorScatterRule(ctx: RuleContext): RuleResult {
  const cache = requireInput(ctx, 0, 'past_cache');
  return [makeFact(cache.dtype, cache.shape)];
}

/** RandomNormal / RandomUniform: the shape attribute; float unless dtype says otherwise. */
function randomRule(ctx: RuleContext): RuleResult {
  const shape = ctx.ints('shape');
  if (shape === undefined) fail('the shape attribute is missing');
  return [makeFact(ctx.int('dtype', DT.FLOAT), shape)];
}

/** Multinomial: [batch, sample_size] class indices, int32 unless dtype says otherwise. */
function multinomialRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  return [makeFact(ctx.int('dtype', DT.INT32), [x.shape?.[0], ctx.int('sample_size', 1)])];
}

/** CenterCropPad: the input's shape with the listed axes (all by default) set from the shape input. */
function centerCropPadRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input_data');
  const shape = requireShape(x, 'input_data');
  const target = inputValue(ctx, 1);
  const axes = normalizeAxes(ctx.ints('axes') ?? shape.map((_, i) => i), shape.length);
  const out: Dim[] = [...shape];
  axes.forEach((axis, i) => {
    out[axis] = target?.[i];
  });
  return [makeFact(x.dtype, out)];
}

/** TfIdfVectorizer: one float per n-gram slot (max of ngram_indexes + 1), per row of a 2-D input. */
function tfIdfRule(ctx: RuleContext): RuleResult {
  const x = requireShape(requireInput(ctx, 0, 'X'), 'X');
  const indexes = ctx.ints('ngram_indexes');
  if (indexes === undefined) fail('ngram_indexes is missing');
  const width = indexes.length === 0 ? 0 : Math.max(...indexes) + 1;
  if (x.length > 2) fail(`TfIdfVectorizer takes a 1-D or 2-D input, got rank ${x.length}`);
  return [makeFact(DT.FLOAT, x.length === 2 ? [x[0], width] : [width])];
}

/**
 * Training optimizers: inputs R, T, then `groups` lists of n tensors (X, G,
 * and the optimizer's state); each output list has the shapes of X.
 */
function optimizerRule(groups: number): ShapeRule {
  return (ctx) => {
    const n = (ctx.node.inputs.length - 2) / groups;
    if (!Number.isInteger(n) || n <= 0) fail(`${ctx.node.opType} has ${ctx.node.inputs.length} inputs`);
    return ctx.node.outputs.map((_, j) => {
      const x = inputFact(ctx, 2 + (j % n));
      return makeFact(x?.dtype, x?.shape);
    });
  };
}

const TRAINING_DOMAIN = 'ai.onnx.preview.training';

/** Shape rules for the remaining standard ops. */
export const miscRules = guardRules({
  ...onnxTable({
    Det: detRule,
    EyeLike: likeInputRule,
    RandomNormalLike: likeInputRule,
    RandomUniformLike: likeInputRule,
    Bernoulli: likeInputRule,
    RandomNormal: randomRule,
    RandomUniform: randomRule,
    Multinomial: multinomialRule,
    CenterCropPad: centerCropPadRule,
    TfIdfVectorizer: tfIdfRule,
    TensorScatter: tensorScatterRule,
  }),
  [`${TRAINING_DOMAIN}::Adagrad`]: optimizerRule(3),
  [`${TRAINING_DOMAIN}::Momentum`]: optimizerRule(3),
  [`${TRAINING_DOMAIN}::Adam`]: optimizerRule(4),
});
