// What a terminal or a cell shows of text and names from a file: every control
// character and bidirectional override escaped, newline and tab kept in running
// text only, and U+FFFD (a byte that was not UTF-8) marked rather than drawn.

import { describe, expect, it } from 'vitest';
import { escapeControlsInName, escapeControlsInText, isControlChar } from './control-chars';

describe('control characters made visible', () => {
  it('escapes an escape sequence, a carriage return, a C1 control, a bidirectional override and U+FFFD in text, keeping newline and tab', () => {
    expect(escapeControlsInText('a\x1b[31mb\rc\u0085d\u202ee\ufffd\n\tf')).toBe('a\\u001b[31mb\\u000dc\\u0085d\\u202ee\\ufffd\n\tf');
  });

  it('escapes newline and tab inside a name too: a name cannot forge a line or a cell', () => {
    expect(escapeControlsInName('x\ny\tz\x7f\u2066')).toBe('x\\u000ay\\u0009z\\u007f\\u2066');
  });

  it('leaves ordinary text alone, whatever its script', () => {
    expect(escapeControlsInName('block3/Conv_2 · é 🙂 名前')).toBe('block3/Conv_2 · é 🙂 名前');
  });

  it('names the same characters as controls for every writer', () => {
    for (const c of ['\x00', '\x1b', '\n', '\x7f', '\x9f', '\u202a', '\u2069']) expect(isControlChar(c)).toBe(true);
    for (const c of [' ', 'a', '\u00a0', '\u2028', '\ufffd', '\\']) expect(isControlChar(c)).toBe(false);
  });
});
