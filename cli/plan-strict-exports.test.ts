// `plan --strict` with an export that cannot be written: one line on stderr
// for the file (the export's), not the --strict message and then the export's;
// with one that can, the file is written and --strict still fails the run.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tinyModel } from '../fuzz/cli-fixtures';
import { run } from './testing/run-cli';

describe('plan --strict with an export that fails', () => {
  it('prints one line for the file, the export\'s, and exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-strict-'));
    const model = join(dir, 'm.onnx');
    writeFileSync(model, tinyModel());
    const { code, err } = run(['plan', model, '--strict', '--csv', join(dir, 'missing', 'x.csv')]);
    expect(code).toBe(2);
    expect(err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(err).toMatch(/cannot write/);
  });

  it('still fails --strict with its own line when the exports are written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-strict-'));
    const model = join(dir, 'm.onnx');
    writeFileSync(model, tinyModel());
    const { code, err } = run(['plan', model, '--strict', '--csv', join(dir, 'x.csv')]);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: ${model}: --strict: the plan rests on default dims batch=1; bind them with --dim NAME=VALUE\n`);
    // as README says: --strict fails the run, and the exports asked for are written all the same, as without it
    run(['plan', model, '--csv', join(dir, 'plain.csv')]);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toBe(readFileSync(join(dir, 'plain.csv'), 'utf8'));
  });
});
