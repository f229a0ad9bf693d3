// Ids in a MiniMalloc CSV cell: written inert for a terminal or a spreadsheet,
// and read back one-to-one. Depends only on the shared control-character class.
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

import { CONTROL_CLASS, escapedChar, isControlChar } from '../../shared/control-chars';

// A control character, or a backslash that starts what reads as an escape (`\u` and four lower-case hex digits).
const TO_ESCAPE = new RegExp(`${CONTROL_CLASS}|\\\\(?=u[0-9a-f]{4})`, 'g');
const ESCAPE = /\\u([0-9a-f]{4})/g;
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** Whether `c` is written as an escape: a control character, or the backslash itself (its escape keeps `\u0007` typed as text apart from a bell). */
const escapes = (c: string): boolean => c === '\\' || isControlChar(c);

/**
 * Whether an id is the same text written and read: printable ASCII without a
 * backslash, not starting as a formula or with an apostrophe. Almost every id
 * is; both directions leave it as it is without their expressions.
 */
export function isPlainCsvId(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first === 0x27 || first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40) return false; // ' = + - @
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x5c) return false;
  }
  return true;
}

/** The cell text of one id (before CSV quoting): controls and escape-like backslashes escaped, a formula guarded. */
export function encodeCsvId(name: string): string {
  if (isPlainCsvId(name)) return name;
  const escaped = name.replace(TO_ESCAPE, (c: string, at: number) => {
    if (c !== '\\') return escapedChar(c);
    // a backslash whose `\uXXXX` would read back as one of the writer's escapes is written as one itself
    return escapes(String.fromCharCode(parseInt(name.slice(at + 2, at + 6), 16))) ? escapedChar(c) : c;
  });
  return FORMULA_START.test(escaped) ? `'${escaped}` : escaped;
}

function decodeCsvId(cell: string): string {
  if (isPlainCsvId(cell)) return cell;
  const unguarded = cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
  return unguarded.replace(ESCAPE, (text: string, code: string) => {
    const c = String.fromCharCode(parseInt(code, 16));
    return escapes(c) ? c : text;
  });
}

/**
 * The ids of one file's cells (after CSV unquoting): decoded when every cell
 * is one encodeCsvId could have written, else exactly as they stand.
 */
export function decodeCsvIds(cells: readonly string[]): string[] {
  const decoded = cells.map(decodeCsvId);
  return decoded.every((name, i) => encodeCsvId(name) === cells[i]) ? decoded : [...cells];
}
