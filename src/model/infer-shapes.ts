// IR model -> inferred model: every value's dtype, concrete shape and bytes, with
// partial constant propagation. Public entry point of inference. No DOM.

import type { IrModel } from './ir';
import type { InferredModel } from './inferred';

/** Options of inferShapes. */
export interface InferOptions {
  /** Values for symbolic dims, by name (also "<input>:<axis>" for anonymous dims). */
  readonly dims?: Readonly<Record<string, number>>;
}

/** Infers every value's shape and size. Never throws for unknown ops: they become diagnostics. */
export function inferShapes(_model: IrModel, _options: InferOptions = {}): InferredModel {
  throw new Error('inferShapes is not available yet');
}
