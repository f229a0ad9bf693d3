// Test utility: calls one shape rule directly with hand-written input facts, to
// check what the engine does not expose (folded constant values).

import { ruleContext } from '../infer/context';
import { SHAPE_RULES } from '../shape-rules/index';
import { ruleKey, type RuleResult, type TensorFact } from '../shape-rules/types';
import { irGraph, type AttrInput } from './ir-builder';

/** Runs the rule of `opType` (ONNX domain unless `domain` is given) on the given facts. */
export function runRule(
  opType: string,
  inputs: readonly (TensorFact | undefined)[],
  attrs: Readonly<Record<string, AttrInput>> = {},
  opset = 18,
  domain = '',
): RuleResult {
  const rule = SHAPE_RULES[ruleKey(domain, opType)];
  if (rule === undefined) throw new Error(`no rule for ${opType}`);
  const names = inputs.map((f, i) => (f === undefined ? '' : `in${i}`));
  const node = irGraph().node(opType, names, ['out0', 'out1', 'out2'], attrs, { domain }).graph().nodes[0];
  if (node === undefined) throw new Error('node not built');
  return rule(ruleContext(node, inputs, opset, () => []));
}

/** The folded value of the rule's first output. */
export function foldedValue(opType: string, inputs: readonly TensorFact[], attrs: Readonly<Record<string, AttrInput>> = {}, opset = 18): readonly number[] | undefined {
  const result = runRule(opType, inputs, attrs, opset);
  return 'unknown' in result ? undefined : result[0]?.value;
}

/** An int64 constant fact. */
export function intFact(value: readonly number[], shape: readonly number[] = [value.length]): TensorFact {
  return { dtype: 7, shape, value };
}
