// A --target profile that fails, with --json: `plan`, `sweep` and `diff` print
// the error object on stdout, its `file` the profile (not the model), besides
// the one line on stderr and exit 2.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-profile-'));

function profile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PROFILES: readonly (readonly [string, string, RegExp])[] = [
  ['not JSON', profile('brace.json', '{'), /brace\.json is not valid JSON/],
  ['alignment 3', profile('align.json', JSON.stringify({ name: 'x', regions: [{ name: 'r', alignment: 3 }] })), /alignment must be a power of two, got 3/],
  ['an unknown field', profile('field.json', JSON.stringify({ name: 'x', colour: 'red' })), /colour is not a known field/],
];

const COMMANDS: readonly (readonly [string, (path: string) => string[]])[] = [
  ['plan', (path) => ['plan', SAMPLE, '--target', path]],
  ['sweep', (path) => ['sweep', SAMPLE, '--dim', 'N=1..4', '--target', path]],
  ['diff --b-target', (path) => ['diff', SAMPLE, SAMPLE, '--b-target', path]],
  ['diff --target', (path) => ['diff', SAMPLE, SAMPLE, '--target', path]],
];

describe('a --target profile that fails, with --json', () => {
  for (const [command, argv] of COMMANDS) {
    for (const [what, path, message] of PROFILES) {
      it(`${command}: ${what} prints { file: the profile, error } on stdout, one line on stderr, exit 2`, () => {
        const { code, out, err } = run([...argv(path), '--json']);
        expect(code).toBe(2);
        expect(err.split('\n')).toHaveLength(2);
        expect(err).toMatch(message);
        const lines = out.trim().split('\n');
        expect(lines).toHaveLength(1);
        const printed = JSON.parse(lines[0]!);
        expect(printed.file).toBe(path);
        expect(printed.error.code).toBe('bad-target');
        expect(printed.error.message).toMatch(message);
        expect(err).toBe(`heapscope: ${printed.error.message}\n`);
      });
    }
  }
});

describe('a --target of "-"', () => {
  for (const [command, argv] of COMMANDS) {
    it(`${command}: says a profile is read from a file or a preset name, in one line, exit 2`, () => {
      const { code, out, err } = run(argv('-'));
      expect([code, out]).toEqual([2, '']);
      expect(err).toBe(
        'heapscope: target "-": a target profile is read from a file (its path; a file named - is ./-) or named by a preset (cpu, mcu, accelerator, phone, phone-dsp, tflm; `heapscope targets` lists them), not from stdin\n',
      );
    });
  }
});
