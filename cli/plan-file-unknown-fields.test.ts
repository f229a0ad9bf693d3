// A saved plan with a field no heapscope writes (an unknown key in `plan`) is
// refused in one line, its name escaped.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTflite } from '../src/model/testing/tflite-writer';
import { run } from './testing/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'heapscope-unknown-fields-'));
const model = join(dir, 'relu.tflite');
writeFileSync(model, writeTflite({ subgraphs: [{ tensors: [{ shape: [1, 64], type: 'INT8', name: 'input' }, { shape: [1, 64], type: 'INT8', name: 'output' }], inputs: [0], outputs: [1], operators: [{ op: 'RELU', inputs: [0], outputs: [1] }] }] }));

describe('a saved plan with a field no heapscope writes', () => {
  const saved = join(dir, 'relu.plan.json');
  expect(run(['plan', model, '--save', saved]).code).toBe(0);
  const edited = (name: string, edit: (doc: { settings: Record<string, unknown>; plan: Record<string, unknown> }) => void) => {
    const doc = JSON.parse(readFileSync(saved, 'utf8'));
    edit(doc);
    const file = join(dir, `${name}.plan.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('reads as saved', () => {
    expect(run(['diff', saved, saved]).code).toBe(0);
  });

  it.each([
    ['key', (d: { plan: Record<string, unknown> }) => (d.plan['\u001b[31mEVIL'] = 1), 'plan file field plan."\\u001b[31mEVIL" is not one heapscope writes'],
  ])('refuses an unknown %s in one line, escaped', (name, edit, message) => {
    const file = edited(name, edit);
    const { code, err } = run(['diff', saved, file]);
    expect(code).toBe(2);
    expect(err).toContain(`heapscope: ${file}: ${message}`);
    expect(err).not.toContain('\u001b');
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});
