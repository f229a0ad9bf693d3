// Limits on what inference stores: a dim is a non-negative safe integer, a rank
// is at most MAX_RANK, and a size in bytes fits an exact JavaScript number.
// Anything else is an impossible shape, stored as unknown with a diagnostic. No DOM.

import type { ModelDiagnostic } from '../inferred';
import { MAX_BYTES, MAX_EXACT_POWER } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { MAX_RANK } from '../shape-rules/tensor-facts';
import type { Dim, TensorFact } from '../shape-rules/types';

/** The largest size in bytes reported exactly (2^53 − 1); larger sizes are unknown. */
export const MAX_EXACT_BYTES = MAX_BYTES;

/** True when `dim` can be the size of a tensor axis. */
export function isPossibleDim(dim: number): boolean {
  return Number.isSafeInteger(dim) && dim >= 0;
}

/** Where an impossible shape came from, for its diagnostic. */
export interface ShapeSource {
  readonly node?: string; // the node whose rule gave it
  readonly op: string; // 'Tile', 'com.microsoft::BiasSplitGelu', or 'input' for a body input
  readonly value: string; // the value's name
}

/**
 * The fact with impossible dims (negative, fractional, NaN, infinite, past
 * 2^53) made unknown, and a rank past MAX_RANK made an unknown rank; each
 * change is reported as `impossible-shape` naming the node and the values.
 * Returns `fact` itself when it is possible, so side tables keyed by fact objects still work.
 */
export function possibleFact(fact: TensorFact, source: ShapeSource, report: (d: ModelDiagnostic) => void): TensorFact {
  const shape = fact.shape;
  if (shape === undefined) return fact;
  const where = `${shortName(source.op)} '${shortName(source.node ?? '')}' gives '${shortName(source.value)}'`;
  const node = source.node === undefined ? {} : { node: source.node };
  if (shape.length > MAX_RANK) {
    const note = `rank ${shape.length} is past ${MAX_RANK}, which no real tensor has`;
    report({ code: 'impossible-shape', message: `${where} ${note}; its shape is unknown`, ...node });
    return { dtype: fact.dtype, shape: undefined, note };
  }
  if (shape.every((d) => d === undefined || isPossibleDim(d))) return fact;
  const bad = shape.filter((d): d is number => d !== undefined && !isPossibleDim(d));
  const note = `impossible dim${bad.length > 1 ? 's' : ''} ${bad.map(String).join(', ')} in [${shape.map(formatDim).join(', ')}]`;
  report({ code: 'impossible-shape', message: `${where} with ${note}; treated as unknown`, ...node });
  const dims: Dim[] = shape.map((d) => (d === undefined || isPossibleDim(d) ? d : undefined));
  return { dtype: fact.dtype, shape: dims, note, ...(fact.upperBound === true && { upperBound: true }) };
}

function formatDim(dim: Dim): string {
  return dim === undefined ? '?' : String(dim);
}

/**
 * Why a size is not exact when its bytes are known to pass MAX_EXACT_BYTES: it is
 * no unknown but more than any size limit or budget (each at most MAX_EXACT_BYTES).
 * `bytes` is the product in floating point, which rounds a product past 2^53 − 1 to no less than 2^53.
 */
export function sizePastLimitKnown(bytes: number | undefined): string | undefined {
  if (bytes === undefined || bytes <= MAX_EXACT_BYTES) return undefined;
  return `it needs more than ${MAX_EXACT_POWER} bytes (${MAX_EXACT_BYTES}), over any size limit or budget; past 2^53 − 1 sizes are not exact`;
}

/** Why a size is unknown when its element count or bytes pass MAX_EXACT_BYTES. */
export function sizePastLimit(elements: number, bytes: number | undefined): string | undefined {
  if (elements <= MAX_EXACT_BYTES && (bytes === undefined || bytes <= MAX_EXACT_BYTES)) return undefined;
  return `its size passes ${MAX_EXACT_POWER} bytes (Number.MAX_SAFE_INTEGER, ${MAX_EXACT_BYTES}), past which sizes are not exact`;
}
