// Several files dropped at once: the page opens one model at a time, so it
// tries the ones a person most likely meant (the models, not an external
// weights file beside them) in the order dropped until one opens, and says in
// one line which it opened, which could not be opened and which it left.

import { looksLikeExternalData } from '../model/decode-model';

/** The files to try among those dropped, in order, and the names of the others. */
export interface DroppedChoice<F extends { readonly name: string }> {
  readonly tries: readonly F[]; // every file not named like an external weights file, as dropped (else the first alone)
  readonly left: readonly string[];
}

/** The dropped files not named like an external weights file (else the first), to try in turn; undefined when none was dropped. */
export function chooseDropped<F extends { readonly name: string }>(files: readonly F[]): DroppedChoice<F> | undefined {
  const models = files.filter((f) => !looksLikeExternalData(f.name));
  const tries = models.length > 0 ? models : files.slice(0, 1);
  if (tries.length === 0) return undefined;
  return { tries, left: files.filter((f) => !tries.includes(f)).map((f) => f.name) };
}

/** What a drop of several files came to: the file opened (undefined when none would), those that failed before it, those not tried. */
export interface DroppedOutcome {
  readonly opened: string | undefined;
  readonly failed: readonly string[];
  readonly left: readonly string[];
}

/**
 * Opens the files of `choice` in turn until one opens: `open` resolves true when the file opened, false when it could
 * not be, undefined when something else took the page's place meanwhile (the tries stop, and no outcome is given).
 */
export async function openDropped<F extends { readonly name: string }>(
  choice: DroppedChoice<F>,
  open: (file: F) => Promise<boolean | undefined>,
): Promise<DroppedOutcome | undefined> {
  const failed: string[] = [];
  for (const [i, file] of choice.tries.entries()) {
    const opened = await open(file);
    if (opened === undefined) return undefined;
    if (opened) return { opened: file.name, failed, left: [...choice.tries.slice(i + 1).map((f) => f.name), ...choice.left] };
    failed.push(file.name);
  }
  return { opened: undefined, failed, left: choice.left };
}

/** Names listed before "and N more". */
const LISTED = 3;

/** "a, b, c and 2 more". */
function listed(names: readonly string[]): string {
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more` : '';
  return `${names.slice(0, LISTED).join(', ')}${more}`;
}

/**
 * "One model opens at a time: opened a.onnx, not b.onnx." for a drop of several files; "One model opens at a time:
 * opened b.onnx (could not open a.onnx)." when the first could not be opened, and "Could not open a.onnx or b.onnx:
 * no model dropped opens." when none could; undefined for one file. A file named like external weights (model.onnx.data)
 * is no model refused: "Opened model.onnx; model.onnx.data is external weights data, …" says planning does not read it.
 */
export function droppedNotice(outcome: DroppedOutcome): string | undefined {
  const { opened, failed, left } = outcome;
  if (failed.length + left.length + (opened === undefined ? 0 : 1) < 2) return undefined;
  if (opened === undefined) {
    const names = failed.length <= 2 ? failed.join(' or ') : listed(failed);
    return `Could not open ${names}: no model dropped opens${left.length === 0 ? '' : ` (${listed(left)} not tried)`}.`;
  }
  const weights = left.filter((name) => looksLikeExternalData(name));
  const models = left.filter((name) => !looksLikeExternalData(name));
  const data = weights.length === 0 ? undefined : weightsWords(weights);
  if (data !== undefined && models.length === 0 && failed.length === 0) return `Opened ${opened}; ${data}.`;
  const not = models.length === 0 ? '' : `, not ${listed(models)}`;
  const couldNot = failed.length === 0 ? '' : ` (could not open ${listed(failed)})`;
  return `One model opens at a time: opened ${opened}${couldNot}${not}${data === undefined ? '' : `; ${data}`}.`;
}

/** What external weights files dropped beside a model are to the page: data it does not need. */
function weightsWords(names: readonly string[]): string {
  const one = names.length === 1;
  return `${listed(names)} ${one ? 'is' : 'are'} external weights data, which planning does not read: it needs only the sizes the model states`;
}
