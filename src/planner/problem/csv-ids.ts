// Ids in a MiniMalloc CSV cell: written inert for a terminal or a spreadsheet,
// and read back one-to-one. Depends on nothing.
//
// - Writing: a control character (C0 with newline and tab, DEL, C1) or a
//   bidirectional override becomes `\uXXXX`; a backslash that would itself
//   read as such an escape (`\u0007` typed as text) becomes `\u005c`; then a
//   cell a spreadsheet would run as a formula (starting with =, + , -, @, or
//   apostrophes before one of those) gets one apostrophe in front.
// - Reading: the writer's forms are undone only when every id of the file is
//   one the writer could have written (writing what is read gives the cell
//   back). A file with a raw control character or a bare `=x` was not written
//   by it, and all its ids are taken as they stand; so two ids of any file
//   stay two ids.

// eslint-disable-next-line no-control-regex
const TO_ESCAPE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\\(?=u(?:00[01][0-9a-f]|007f|008[0-9a-f]|009[0-9a-f]|202[a-e]|206[6-9]|005c))/g;
const ESCAPED = /\\u(00[01][0-9a-f]|007f|008[0-9a-f]|009[0-9a-f]|202[a-e]|206[6-9]|005c)/g;
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The cell text of one id (before CSV quoting): controls and escape-like backslashes escaped, a formula guarded. */
export function encodeCsvId(name: string): string {
  const escaped = name.replace(TO_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return FORMULA_START.test(escaped) ? `'${escaped}` : escaped;
}

function decodeCsvId(cell: string): string {
  const unguarded = cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
  return unguarded.replace(ESCAPED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The ids of one file's cells (after CSV unquoting): decoded when every cell
 * is one encodeCsvId could have written, else exactly as they stand.
 */
export function decodeCsvIds(cells: readonly string[]): string[] {
  const decoded = cells.map(decodeCsvId);
  return decoded.every((name, i) => encodeCsvId(name) === cells[i]) ? decoded : [...cells];
}
