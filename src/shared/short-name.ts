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

/** Where a name is cut: its end (prefixes read best) or its middle (keeps a scoped name's last part). */
export type CutAt = 'end' | 'middle';

/**
 * `text` cut to at most `max` characters plus an ellipsis; text that fits is
 * returned as is. A cut never splits a surrogate pair.
 */
export function shortName(text: string, max = SHOWN_CHARS, at: CutAt = 'end'): string {
  if (text.length <= max) return text;
  if (at === 'end') return `${text.slice(0, pairSafe(text, max))}…`;
  const head = pairSafe(text, Math.ceil(max / 2) - 1);
  const tail = text.length - Math.floor(max / 2);
  return `${text.slice(0, head)}…${text.slice(isLowSurrogate(text.charCodeAt(tail)) ? tail + 1 : tail)}`;
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
