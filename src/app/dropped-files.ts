// Several files dropped at once: the page opens one model at a time, so it
// picks the one a person most likely meant (the model, not its external
// weights file beside it) and says in one line which it opened and which not.

import { looksLikeExternalData } from '../model/decode-model';

/** The file to open among those dropped, and the names of the others. */
export interface DroppedChoice<F extends { readonly name: string }> {
  readonly file: F;
  readonly left: readonly string[];
}

/** The first dropped file not named like an external weights file (else the first); undefined when none was dropped. */
export function chooseDropped<F extends { readonly name: string }>(files: readonly F[]): DroppedChoice<F> | undefined {
  const file = files.find((f) => !looksLikeExternalData(f.name)) ?? files[0];
  if (file === undefined) return undefined;
  return { file, left: files.filter((f) => f !== file).map((f) => f.name) };
}

/** Names listed before "and N more". */
const LISTED = 3;

/**
 * "One model opens at a time: opened a.onnx, not b.onnx." for a drop of several
 * files; undefined for one file.
 */
export function droppedNotice(opened: string, left: readonly string[]): string | undefined {
  if (left.length === 0) return undefined;
  const listed = left.slice(0, LISTED).join(', ');
  const more = left.length > LISTED ? ` and ${left.length - LISTED} more` : '';
  return `One model opens at a time: opened ${opened}, not ${listed}${more}.`;
}
