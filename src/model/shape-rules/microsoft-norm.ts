// Shape rules for com.microsoft normalisation ops (SkipLayerNormalization,
// SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization,
// LayerNormalization, EmbedLayerNormalization, GroupNorm, SkipGroupNorm),
// after onnxruntime's contrib-op specs. Pure functions over TensorFacts; no DOM.

import { DT } from '../dtype';
import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import { fail, formatShape, inputFact, makeFact, normalizeAxis, requireInput, requireShape } from './tensor-facts';

/** Shape of the saved mean / inverse std-dev: the input with every normalised axis set to 1. */
function statsShape(shape: readonly Dim[] | undefined, axis: number): Dim[] | undefined {
  if (shape === undefined) return undefined;
  const from = normalizeAxis(axis, shape.length, 'normalisation axis');
  return shape.map((dim, i) => (i < from ? dim : 1));
}

/** LayerNormalization-style outputs: Y, then statistics (mean, inv_std_var) as the node lists them. */
function layerNormOutputs(ctx: RuleContext, statsCount: number): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const stats = statsShape(x.shape, ctx.int('axis', -1));
  const statsType = ctx.int('stash_type', DT.FLOAT);
  const outputs: TensorFact[] = [makeFact(x.dtype, x.shape)];
  for (let i = 1; i < Math.min(ctx.node.outputs.length, statsCount + 1); i++) outputs.push(makeFact(statsType, stats));
  return outputs;
}

/**
 * Skip(Simplified)LayerNormalization: output and input_skip_bias_sum have the
 * input's shape; mean and inv_std_var have it with the hidden axis set to 1.
 */
function skipLayerNormRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  const shape = requireShape(x, 'input');
  if (shape.length !== 2 && shape.length !== 3) fail(`${ctx.node.opType} input must have rank 2 or 3, got ${formatShape(shape)}`);
  const stats = statsShape(shape, -1);
  return [makeFact(x.dtype, shape), makeFact(DT.FLOAT, stats), makeFact(DT.FLOAT, stats), makeFact(x.dtype, shape)].slice(
    0,
    Math.max(1, ctx.node.outputs.length),
  );
}

/** EmbedLayerNormalization: (B, S) ids give (B, S, hidden), a (B) mask index and the embedding sum. */
function embedLayerNormRule(ctx: RuleContext): RuleResult {
  const ids = requireInput(ctx, 0, 'input_ids');
  const idShape = requireShape(ids, 'input_ids');
  if (idShape.length !== 2) fail(`EmbedLayerNormalization input_ids must have rank 2, got ${formatShape(idShape)}`);
  const words = requireInput(ctx, 2, 'word_embedding');
  const hidden = words.shape?.[1] ?? inputFact(ctx, 5)?.shape?.[0];
  const output = makeFact(words.dtype, [idShape[0], idShape[1], hidden]);
  const maskIndex = makeFact(ids.dtype ?? DT.INT32, [idShape[0]]);
  return [output, maskIndex, output].slice(0, Math.max(1, ctx.node.outputs.length));
}

/** GroupNorm / SkipGroupNorm (NHWC): outputs keep the input's shape. */
function groupNormRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  return ctx.node.outputs.map(() => makeFact(x.dtype, x.shape));
}

/** Shape rules for com.microsoft normalisation ops, by op type. */
export const normOpRules: Readonly<Record<string, ShapeRule>> = {
  SkipLayerNormalization: skipLayerNormRule,
  SkipSimplifiedLayerNormalization: skipLayerNormRule,
  SimplifiedLayerNormalization: (ctx) => layerNormOutputs(ctx, 1),
  LayerNormalization: (ctx) => layerNormOutputs(ctx, 2),
  EmbedLayerNormalization: embedLayerNormRule,
  GroupNorm: groupNormRule,
  SkipGroupNorm: groupNormRule,
};
