// Merges a rule's fact for a value with the shape the file declares for it
// (value_info or graph output). No DOM.

import type { IrValueInfo } from '../ir';
import { shortName } from '../../shared/short-name';
import type { InferEnv } from './scope';
import type { Dim, TensorFact } from '../shape-rules/types';

function formatDims(shape: readonly Dim[]): string {
  return `[${shape.map((d) => (d === undefined ? '?' : String(d))).join(', ')}]`;
}

/** True when the inferred and declared shapes contradict each other on rank or on a known dim. */
function disagrees(inferred: readonly Dim[], declared: readonly Dim[]): boolean {
  if (inferred.length !== declared.length) return true;
  return inferred.some((d, i) => d !== undefined && declared[i] !== undefined && d !== declared[i]);
}

/**
 * The fact to store for a value: the rule's, with its unknown parts (dtype,
 * rank, single dims) filled from the declaration. When the declaration is
 * fully numeric and contradicts the rule, a 'shape-mismatch' diagnostic is
 * reported and the rule's shape is kept. Returns `fact` itself when nothing
 * changes, so rules that keep side tables keyed by fact objects still work.
 */
export interface MergeContext {
  readonly node: string; // the node that makes the value
  readonly name: string; // the value
  /**
   * False when the value may have another shape than the file declares (an
   * input given another shape is upstream): only the declared dtype is taken,
   * and a shape the rule could not find stays unknown.
   */
  readonly fillShape: boolean;
  /** Why the rule gave no fact, when it did not. */
  readonly reason?: string;
  /** Called when the rule's shape contradicts the declaration. */
  readonly onMismatch?: () => void;
}

/** The note of a value whose declared shape was not taken. */
export const UNLIKE_FILE_NOTE = 'the file declares its shape for other input shapes than these';

export function mergeDeclared(fact: TensorFact | undefined, info: IrValueInfo | undefined, env: InferEnv, ctx: MergeContext): TensorFact | undefined {
  if (info === undefined || (info.dtype === undefined && info.shape === undefined)) return fact;
  // A sequence's declaration describes its elements, not a shape of the value.
  if (info.kind === 'sequence' || info.kind === 'map') return fact ?? { dtype: info.dtype, shape: undefined, note: `a ${info.kind}` };
  const declared = ctx.fillShape ? env.dims.resolve(info.shape) : undefined;
  if (fact === undefined && !ctx.fillShape) return { dtype: info.dtype, shape: undefined, note: ctx.reason === undefined ? UNLIKE_FILE_NOTE : `${ctx.reason}; ${UNLIKE_FILE_NOTE}` };
  // a declared shape that sizes the value makes its dims size something, unless the user's shape replaces it
  const sized = (): void => {
    if (env.shapes?.has(ctx.name) !== true) env.dims.noteSizing(info.shape);
  };
  if (fact === undefined) {
    sized();
    return { dtype: info.dtype, shape: declared };
  }
  const dtype = fact.dtype ?? info.dtype;
  let shape = fact.shape;
  if (shape === undefined) {
    if (declared !== undefined) sized();
    shape = declared;
  } else if (declared !== undefined) {
    const numeric = info.shape?.every((d) => typeof d === 'number') ?? false;
    if (numeric && disagrees(shape, declared)) {
      ctx.onMismatch?.();
      env.report({
        code: 'shape-mismatch',
        message: `'${shortName(ctx.name)}' is inferred as ${formatDims(shape)} but the file declares ${formatDims(declared)}`,
        node: ctx.node,
      });
    } else if (shape.length === declared.length && shape.some((d, i) => d === undefined && declared[i] !== undefined)) {
      sized();
      shape = shape.map((d, i) => d ?? declared[i]);
    }
  }
  if (dtype === fact.dtype && shape === fact.shape) return fact;
  const merged: TensorFact = { ...fact, dtype, shape };
  // A value computed for the old shape no longer describes the merged fact.
  return merged.value !== undefined && shape !== fact.shape ? { ...merged, value: undefined } : merged;
}
