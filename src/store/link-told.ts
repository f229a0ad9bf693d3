// Which diagnostics the link notice already tells: a link's shape or input
// value for a tensor or input the model lacks is named there, in the link's
// words, so the Diagnostics lists (the side bar's and the explanation's) leave
// out inference's unused-binding diagnostic of the same binding.

import type { BindingRef, IrDiagnostic } from '../model/ir';

/**
 * A test of a diagnostic, the model's or the plan's copy of one (which keeps its
 * code and sentence, not its binding): true when it tells of a binding in `told`,
 * the shapes and input values the link notice names as left out.
 */
export function toldByLinkNotice(modelDiagnostics: readonly IrDiagnostic[], told: readonly BindingRef[]): (d: Pick<IrDiagnostic, 'code' | 'message'>) => boolean {
  const sentences = new Set(
    modelDiagnostics.filter((d) => d.binding !== undefined && told.some((b) => b.kind === d.binding!.kind && b.name === d.binding!.name)).map((d) => d.message),
  );
  return (d) => d.code === 'unused-binding' && sentences.has(d.message);
}
