// Control characters in text from a file, made visible: what a terminal, a
// report or a CSV cell shows of a name instead of the raw bytes. No dependencies.

// Control characters (C0, DEL, C1) and bidirectional overrides: what may not reach a terminal or a cell raw. One
// definition for every writer (the CSV ids' codec builds its escapes from it too).
export const CONTROL_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]';
const CONTROL = new RegExp(CONTROL_CLASS);
// In running text, the newline and tab a writer adds itself are kept; U+FFFD, which stands for a byte of a name that
// was not UTF-8, is escaped too: escaped, it reads as a mark, not as a glyph a terminal may draw or drop.
const UNSAFE_IN_TEXT = new RegExp(`(?![\\t\\n])${CONTROL_CLASS}|\\ufffd`, 'g');
// In a name every control is the file's, not the writer's: newline and tab too.
const UNSAFE_IN_NAME = new RegExp(`${CONTROL_CLASS}|\\ufffd`, 'g');

/** Whether `c` (one UTF-16 unit) is a control character or a bidirectional override. */
export function isControlChar(c: string): boolean {
  return CONTROL.test(c);
}

/** One UTF-16 unit as its `\\uXXXX` escape, the form every writer shows a control in. */
export const escapedChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text with control characters (escape sequences, carriage returns, C1
 * controls) and bidirectional overrides as visible `\uXXXX` escapes (valid
 * inside JSON strings too); newlines and tabs are kept.
 */
export function escapeControlsInText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, escapedChar);
}

/** A name with every control character escaped as `\uXXXX`, newlines and tabs included: it cannot forge a line, a cell or a terminal command. */
export function escapeControlsInName(text: string): string {
  return text.replace(UNSAFE_IN_NAME, escapedChar);
}
