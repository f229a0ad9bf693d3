// Shapes given for tensors of a .tflite model: a TensorFlow Lite file states
// every tensor's shape, heapscope has no shape rule for a TensorFlow Lite
// operator (so nothing below a changed shape could be sized), and TensorFlow
// Lite Micro allocates the shapes as stated. Works on the inferred graph; no DOM.

import type { InferredGraph, ModelDiagnostic } from '../inferred';
import { shortName } from '../../shared/short-name';

/** The diagnostic code of shapes given for a .tflite model and not applied. */
export const TFLITE_FIXED_SHAPES = 'tflite-fixed-shapes';

/** Why a .tflite model takes no shape; the page shows it where a shape field would be. */
export const TFLITE_FIXED_SHAPES_NOTE =
  "a .tflite model keeps the shapes its file states (heapscope infers no TensorFlow Lite operator's shape, and TensorFlow Lite Micro allocates the shapes as stated)";

/**
 * The diagnostic for `given` shapes that differ from the file's (`graph` was
 * inferred without them); none when every given shape is the file's. Names
 * that match no tensor are left to unusedBindings.
 */
export function unappliedTfliteShapes(graph: InferredGraph, given: ReadonlyMap<string, readonly number[]>): ModelDiagnostic[] {
  const refused: string[] = [];
  for (const [name, dims] of given) {
    const value = graph.values.find((v) => v.name === name);
    if (value === undefined) continue;
    const stated = value.shape;
    if (stated !== undefined && stated.length === dims.length && stated.every((d, i) => d === dims[i])) continue;
    refused.push(`${shortName(name)}=${dims.join('x')}${stated === undefined ? '' : ` (the file states ${stated.join('×') || 'a scalar'})`}`);
  }
  if (refused.length === 0) return [];
  const one = refused.length === 1;
  return [{ code: TFLITE_FIXED_SHAPES, message: `the shape${one ? '' : 's'} given ${refused.join(', ')} ${one ? 'is' : 'are'} not applied: ${TFLITE_FIXED_SHAPES_NOTE}` }];
}
