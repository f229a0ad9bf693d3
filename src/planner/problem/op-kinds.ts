// The operator kinds of METHODS.md M1 as a data table: which ops compute a new
// result, which are views of their input (removable), which merge their inputs
// (Concat) and which may write over their input (in place). The target profile
// overrides entries per op type. Pure data; depends only on src/shared.

import { ownValue } from '../../shared/own';

/** An operator kind (METHODS.md M1, step 1, plus element-wise in-place ops). */
export type OpKind = 'computing' | 'removable' | 'merging' | 'in-place';

/** Every kind, in the order documentation lists them. */
export const OP_KINDS: readonly OpKind[] = ['computing', 'removable', 'merging', 'in-place'];

const REMOVABLE = ['Reshape', 'Flatten', 'Squeeze', 'Unsqueeze', 'Identity', 'Dropout', 'Split'];

const MERGING = ['Concat'];

/** Element-wise ops whose output may take over the bytes of an input of the same size. */
const IN_PLACE = [
  'Relu', 'LeakyRelu', 'PRelu', 'Elu', 'Selu', 'Celu', 'Sigmoid', 'HardSigmoid', 'HardSwish', 'Tanh', 'Softplus',
  'Softsign', 'Gelu', 'Mish', 'Clip', 'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Sum', 'Max', 'Min', 'Mean', 'Abs', 'Neg',
  'Exp', 'Log', 'Sqrt', 'Reciprocal', 'Erf', 'Floor', 'Ceil', 'Round', 'Sign', 'Not', 'BatchNormalization',
  'ThresholdedRelu', 'Shrink',
];

/** The default op-kind table (default ONNX domain); ops not listed are computing. */
export const DEFAULT_OP_KINDS: Readonly<Record<string, OpKind>> = Object.freeze({
  ...Object.fromEntries(REMOVABLE.map((op) => [op, 'removable' as const])),
  ...Object.fromEntries(MERGING.map((op) => [op, 'merging' as const])),
  ...Object.fromEntries(IN_PLACE.map((op) => [op, 'in-place' as const])),
});

/**
 * The kind of an operator: an override keyed by `domain::OpType` or by the op
 * type alone wins; otherwise the default table (default domain only).
 */
export function opKindOf(
  node: { readonly opType: string; readonly domain: string },
  overrides: Readonly<Record<string, OpKind>> = {},
): OpKind {
  const qualified = node.domain === '' ? node.opType : `${node.domain}::${node.opType}`;
  // Op types come from the file: only own keys count, so `constructor` is an op like any other.
  const override = ownValue(overrides, qualified) ?? (node.domain === '' ? ownValue(overrides, node.opType) : undefined);
  if (override !== undefined) return override;
  if (node.domain !== '') return 'computing';
  return ownValue(DEFAULT_OP_KINDS, node.opType) ?? 'computing';
}
