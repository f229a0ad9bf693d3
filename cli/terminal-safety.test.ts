// Nothing a file holds reaches the terminal raw: names with escape sequences and
// line breaks come out as visible escapes in every text report and error line,
// command names that are Object.prototype members are unknown commands, and
// only regular files are read.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROL_TEXT, controlNamesModel } from '../src/model/testing/hostile-models';
import { run } from './testing/run-cli';

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function modelFile(bytes: Uint8Array, name = 'control.onnx'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-tty-')), name);
  writeFileSync(path, bytes);
  return path;
}

describe('terminal safety', () => {
  it.each([
    ['inspect', []],
    ['plan', ['--ascii']],
    ['plan', ['--target', 'mcu']],
  ] as const)('%s %s: control characters in names become escapes, and no name adds a line', (command, extra) => {
    const file = modelFile(controlNamesModel());
    const { code, out, err } = run([command, file, ...extra]);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain('\\u001b');
    // Each name's line break is escaped: a report line never starts with the text after a newline in a name.
    const tail = CONTROL_TEXT.slice(CONTROL_TEXT.indexOf('\n') + 1);
    expect(out.split('\n').some((line) => line.startsWith(tail.slice(0, 3)))).toBe(false);
  });

  it('diff of a model with itself: the text stays free of raw control characters', () => {
    const file = modelFile(controlNamesModel());
    const { code, out } = run(['diff', file, file, '--target', 'mcu']);
    expect(code).toBe(0);
    expect(out).not.toMatch(RAW_CONTROL);
  });

  it('an error message naming hostile text is one safe line on stderr', () => {
    const file = modelFile(new TextEncoder().encode('\u001b]0;pwned\u0007\r\npeak 1.00 KiB\nregion sram fits\n'), 'forged.onnx');
    const { code, err } = run(['plan', file]);
    expect(code).toBe(2);
    expect(err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(err).not.toMatch(RAW_CONTROL);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('command %s is an unknown command, exit 2', (name) => {
    const { code, err } = run([name]);
    expect(code).toBe(2);
    expect(err).toMatch(/^heapscope: unknown command "/);
  });

  it.each([['/dev/zero', 'a device'], ['/dev/null', 'a device']])('refuses %s by name', (path, what) => {
    const { code, err } = run(['inspect', path]);
    expect(code).toBe(2);
    expect(err).toContain(`${path} is ${what}, not a regular file`);
  });
});
