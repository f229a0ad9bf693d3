// Shape rules for normalizations (batch, instance, layer, group, RMS, LRN) and
// the losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss).
// Pure functions over TensorFacts; no DOM.

import { onnxTable } from './rule-helpers';
import { guardRules, inputFact, makeFact, normalizeAxis, requireInput } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** Y has X's shape and dtype. */
function sameAsInput(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  return [makeFact(x.dtype, x.shape)];
}

/**
 * BatchNormalization: Y like X; the optional statistics outputs (running
 * mean/var from opset 14, mean/var/saved mean/saved var before) are per channel,
 * shaped like the mean input.
 */
function batchNormRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const mean = inputFact(ctx, 3);
  const channels: readonly Dim[] = mean?.shape ?? [x.shape?.[1]];
  const stats = makeFact(mean?.dtype ?? x.dtype, channels);
  return [makeFact(x.dtype, x.shape), stats, stats, stats, stats];
}

/**
 * LayerNormalization: Y like X; Mean and InvStdDev keep the leading axes and
 * set axes from `axis` on to 1, in the stash_type precision.
 */
function layerNormRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const y = makeFact(x.dtype, x.shape);
  if (x.shape === undefined) return [y, makeFact(ctx.int('stash_type', 1), undefined)];
  const axis = normalizeAxis(ctx.int('axis', -1), x.shape.length);
  const stats = makeFact(ctx.int('stash_type', 1), x.shape.map((d, i) => (i < axis ? d : 1)));
  return [y, stats, stats];
}

/** NegativeLogLikelihoodLoss: the target's shape with reduction 'none', a scalar otherwise. */
function nllLossRule(ctx: RuleContext): RuleResult {
  const input = requireInput(ctx, 0, 'input');
  const target = requireInput(ctx, 1, 'target');
  const shape = ctx.string('reduction', 'mean') === 'none' ? target.shape : [];
  return [makeFact(input.dtype, shape)];
}

/** SoftmaxCrossEntropyLoss: loss as NLL; the optional log_prob output is shaped like the scores. */
function softmaxCrossEntropyRule(ctx: RuleContext): RuleResult {
  const scores = requireInput(ctx, 0, 'scores');
  const labels = requireInput(ctx, 1, 'labels');
  const shape = ctx.string('reduction', 'mean') === 'none' ? labels.shape : [];
  return [makeFact(scores.dtype, shape), makeFact(scores.dtype, scores.shape)];
}

const RULES: Readonly<Record<string, ShapeRule>> = {
  BatchNormalization: batchNormRule,
  InstanceNormalization: sameAsInput,
  LayerNormalization: layerNormRule,
  GroupNormalization: sameAsInput,
  RMSNormalization: sameAsInput,
  LRN: sameAsInput,
  NegativeLogLikelihoodLoss: nllLossRule,
  SoftmaxCrossEntropyLoss: softmaxCrossEntropyRule,
};

/** Shape rules for normalizations and losses. */
export const normRules = guardRules(onnxTable(RULES));
