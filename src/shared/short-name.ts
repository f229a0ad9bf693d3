// Names from a model file can be megabytes long (a 1 MB node name is a valid
// ONNX file). Every place that shows one, in the DOM, on a canvas or in a
// sentence, cuts it with shortName so no name renders a page-tall paragraph or
// a million-pixel line. No dependencies.

/** Characters of a name shown in text before it is cut. */
export const SHOWN_CHARS = 120;

/** Characters of a name in a title attribute (the full text on hover, bounded). */
export const TITLE_CHARS = 1000;

/** Characters of a sentence that may quote names (a diagnostic, an error) shown before it is cut. */
export const MESSAGE_CHARS = 600;

/**
 * Where a name is cut: its end (prefixes read best), its middle, or its
 * scope: whole leading parts dropped, so the last parts of a scoped name are
 * kept and no number is cut short (a graph label).
 */
export type CutAt = 'end' | 'middle' | 'scope';

/**
 * `text` cut to at most `max` characters plus an ellipsis (`scope`: at most
 * `max` with it); text that fits is returned as is. A cut never splits a
 * surrogate pair.
 */
export function shortName(text: string, max = SHOWN_CHARS, at: CutAt = 'end'): string {
  if (text.length <= max) return text;
  if (at === 'end') return `${text.slice(0, pairSafe(text, max))}…`;
  if (at === 'scope') return scopeCut(text, max);
  const head = pairSafe(text, Math.ceil(max / 2) - 1);
  const tail = text.length - Math.floor(max / 2);
  return `${text.slice(0, head)}…${text.slice(isLowSurrogate(text.charCodeAt(tail)) ? tail + 1 : tail)}`;
}

/**
 * `text` in at most `max` characters with whole leading parts dropped:
 * `/model/layers.40/mlp/act_fn/Sigmoid` reads `…/layers.40/mlp/act_fn/Sigmoid`
 * or `…/act_fn/Sigmoid`, never `/model/layers.4…/Sigmoid`, which names another
 * layer. Path segments go first; a last segment too long alone loses leading
 * pieces at `.`, `_`, `:` or `-` (not the point of `1.5`); a name with no such
 * place is cut in the middle, the cut moved out of any run of digits.
 */
function scopeCut(text: string, max: number): string {
  const from = text.length - (max - 1); // the first index a kept tail may start at, beside the ellipsis
  const slash = text.indexOf('/', from);
  if (slash >= 0) return `…${text.slice(slash)}`;
  for (let i = Math.max(1, from); i < text.length - 1; i += 1) {
    if (PIECE_BREAK.has(text[i]!) && !(isDigit(text, i - 1) && isDigit(text, i + 1))) return `…${text.slice(i)}`;
  }
  let head = Math.ceil(max / 2) - 1;
  let tail = text.length - Math.floor(max / 2);
  while (head > 0 && isDigit(text, head - 1) && isDigit(text, head)) head -= 1;
  while (tail < text.length && isDigit(text, tail - 1) && isDigit(text, tail)) tail += 1;
  head = pairSafe(text, head);
  if (isLowSurrogate(text.charCodeAt(tail))) tail += 1;
  return `${text.slice(0, head)}…${text.slice(tail)}`;
}

/** Where a path segment may lose its leading pieces. */
const PIECE_BREAK = new Set(['.', '_', ':', '-']);

function isDigit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** `text` bounded for a title or aria-label attribute. */
export function titleText(text: string): string {
  return shortName(text, TITLE_CHARS);
}

/** True when `text` is longer than shortName shows with `max`. */
export function isCut(text: string, max = SHOWN_CHARS): boolean {
  return text.length > max;
}

/** `end` moved back by one when it would split a surrogate pair. */
function pairSafe(text: string, end: number): number {
  return end > 0 && isLowSurrogate(text.charCodeAt(end)) && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Characters around a name in a word of a sentence (quotes, `id=`, a comma) that still leave it as shortName cut it. */
const WORD_SLACK = 8;

/** A run of characters with no space or ellipsis in it, longer than a name (with its quotes) is shown. */
const LONG_WORD = new RegExp(`[^\\s…]{${SHOWN_CHARS + WORD_SLACK + 1},}`, 'g');

/**
 * `text` with every run of more than SHOWN_CHARS + WORD_SLACK characters
 * without a space (a name from a file, quoted or not) cut in its middle to
 * SHOWN_CHARS: its start and end stay, so two long names still read apart,
 * and the words around it (what the sentence says of the name) stay whole. A
 * name shortName already cut (SHOWN_CHARS and an ellipsis) is left as it is.
 */
export function cutLongWords(text: string): string {
  return text.length <= SHOWN_CHARS + WORD_SLACK ? text : text.replace(LONG_WORD, (word) => shortName(word, SHOWN_CHARS, 'middle'));
}

/**
 * A sentence that quotes names, bounded: long names cut (cutLongWords), and
 * the whole at most MESSAGE_CHARS, cut in its middle so its end, which says
 * what is wrong, is kept.
 */
export function boundedMessage(text: string, max = MESSAGE_CHARS): string {
  return shortName(cutLongWords(text), max, 'middle');
}
