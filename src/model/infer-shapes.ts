// IR model -> inferred model: every value's dtype, concrete shape and bytes, with
// partial constant propagation. Public entry point of inference. No DOM.
//
// Shape inference is written by hand: no maintained JavaScript library infers
// ONNX shapes, and the planner needs concrete sizes under the user's dim
// bindings plus the constant/activation split, which generic inference lacks.

import type { IrModel } from './ir';
import type { InferredModel, ModelDiagnostic } from './inferred';
import { bindDims } from './infer-dims';
import { inferGraph } from './infer-graph';

/** Options of inferShapes. */
export interface InferOptions {
  /** Values for symbolic dims, by name (also "<input>:<axis>" for anonymous dims). */
  readonly dims?: Readonly<Record<string, number>>;
}

/** Infers every value's shape and size. Never throws for unknown ops: they become diagnostics. */
export function inferShapes(model: IrModel, options: InferOptions = {}): InferredModel {
  const diagnostics: ModelDiagnostic[] = [...model.diagnostics];
  const seen = new Set<string>();
  const report = (d: ModelDiagnostic): void => {
    const key = `${d.code}\u0000${d.node ?? ''}\u0000${d.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    diagnostics.push(d);
  };
  const dims = bindDims(model.graph.inputs, options.dims ?? {}, diagnostics);
  const opsets = new Map(model.opsets.map((o) => [o.domain, o.version]));
  const { graph } = inferGraph(model.graph, { opsets, dims, report }, undefined);
  return {
    ...graph,
    info: {
      producerName: model.producerName,
      producerVersion: model.producerVersion,
      irVersion: model.irVersion,
      opsets: model.opsets,
      fileBytes: model.fileBytes,
    },
    dims: dims.bindings,
    diagnostics,
  };
}
