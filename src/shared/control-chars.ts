// Control characters in text from a file, made visible: what a terminal, a
// report or a CSV cell shows of a name instead of the raw bytes. No dependencies.

// Control characters (C0 but the newline and tab a writer adds itself, DEL, C1), bidirectional overrides,
// and U+FFFD, which stands for a byte of a name that was not UTF-8: escaped, it reads as a mark, not as a glyph a terminal may draw or drop.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffd]/g;
// The same with newline and tab: inside a name, every one of them is the file's, not the writer's.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffd]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text with control characters (escape sequences, carriage returns, C1
 * controls) and bidirectional overrides as visible `\uXXXX` escapes (valid
 * inside JSON strings too); newlines and tabs are kept.
 */
export function escapeControlsInText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, escaped);
}

/** A name with every control character escaped as `\uXXXX`, newlines and tabs included: it cannot forge a line, a cell or a terminal command. */
export function escapeControlsInName(text: string): string {
  return text.replace(UNSAFE_IN_NAME, escaped);
}
