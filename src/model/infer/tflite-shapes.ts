// Shapes given for tensors of a .tflite model: a TensorFlow Lite file states
// every tensor's shape, heapscope has no shape rule for a TensorFlow Lite
// operator (so nothing below a changed shape could be sized), and TensorFlow
// Lite Micro allocates the shapes as stated. Works on the inferred graph; no DOM.

import type { InferredGraph, InferredModel, InferredValue, ModelDiagnostic } from '../inferred';
import type { IrTflite } from '../ir-tflite';
import { shortName } from '../../shared/short-name';

/** The diagnostic code of shapes given for a .tflite model and not applied. */
export const TFLITE_FIXED_SHAPES = 'tflite-fixed-shapes';

/** Why a .tflite model takes no shape; the page shows it where a shape field would be. */
export const TFLITE_FIXED_SHAPES_NOTE =
  "a .tflite model keeps the shapes its file states (heapscope infers no TensorFlow Lite operator's shape, and TensorFlow Lite Micro allocates the shapes as stated)";

/**
 * The diagnostic for `given` shapes that differ from the ones planned (`graph` was
 * inferred without them), naming the shape `tflite`'s file states; none when every given shape is planned. Names
 * that match no tensor are left to unusedBindings.
 */
export function unappliedTfliteShapes(graph: InferredGraph, given: ReadonlyMap<string, readonly number[]>, tflite: IrTflite | undefined): ModelDiagnostic[] {
  const refused: string[] = [];
  for (const [name, dims] of given) {
    const value = graph.values.find((v) => v.name === name);
    if (value === undefined) continue;
    const inferred = value.shape;
    if (inferred !== undefined && inferred.length === dims.length && inferred.every((d, i) => d === dims[i])) continue;
    // the file's own shape, not the one a dim given made of it (batch=4 made 1×1 read '4×1')
    const stated = fileTensors(tflite).get(name)?.shape ?? inferred;
    refused.push(`${shortName(name)}=${dims.join('x')}${stated === undefined ? '' : ` (the file states ${stated.join('×') || 'a scalar'})`}`);
  }
  if (refused.length === 0) return [];
  const one = refused.length === 1;
  return [{ code: TFLITE_FIXED_SHAPES, message: `the shape${one ? '' : 's'} given ${refused.join(', ')} ${one ? 'is' : 'are'} not applied: ${TFLITE_FIXED_SHAPES_NOTE}` }];
}

/** The file's tensors of a .tflite model, by IR value name (the first subgraph's where names repeat). */
function fileTensors(tflite: IrTflite | undefined): Map<string, { readonly shape: readonly number[]; readonly bytes: number | undefined }> {
  const out = new Map<string, { readonly shape: readonly number[]; readonly bytes: number | undefined }>();
  for (const subgraph of tflite?.subgraphs ?? []) for (const t of subgraph.tensors) if (!out.has(t.value)) out.set(t.value, t);
  return out;
}

/**
 * `model` with every tensor of its file at the shape and size the file states:
 * what TensorFlow Lite Micro allocates, which cannot resize a tensor. Dims
 * given stay in `dims` (the plan says they are not applied), but no shape or
 * size shown comes from them. A model of another format is returned as it is.
 */
export function withFileShapes(model: InferredModel): InferredModel {
  if (model.format !== 'tflite' || model.tflite === undefined) return model;
  const tensors = fileTensors(model.tflite);
  const fixGraph = <G extends InferredGraph>(graph: G): G => ({
    ...graph,
    values: graph.values.map((v): InferredValue => {
      const t = tensors.get(v.name);
      return t === undefined || v.shape === undefined ? v : { ...v, shape: t.shape, bytes: t.bytes };
    }),
    nodes: graph.nodes.map((n) => (n.subgraphs.length === 0 ? n : { ...n, subgraphs: n.subgraphs.map(fixGraph) })),
  });
  return fixGraph(model);
}
