// `inspect` and `plan` on a damaged .tflite file: exit code 2 and one line on
// stderr naming the damage, never an internal error or a stack trace.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTflite } from '../src/model/testing/tflite-writer';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models/tflite');
const REAL = join(MODELS, 'tflm_micro_speech_quantized.tflite');
if (!existsSync(REAL)) console.log(`notice: ${REAL} is absent; the CLI is tried on the writer-built model only`);

function tempFile(name: string, bytes: Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-tflite-')), name);
  writeFileSync(path, bytes);
  return path;
}

const built = writeTflite({
  subgraphs: [
    {
      tensors: [{ shape: [1, 64], type: 'INT8' }, { shape: [64, 64], type: 'INT8', data: new Uint8Array(4096) }, { shape: [1, 64], type: 'INT8' }],
      inputs: [0],
      outputs: [2],
      operators: [{ op: 'FULLY_CONNECTED', inputs: [0, 1, -1], outputs: [2] }],
    },
  ],
});

const cases: [string, Uint8Array][] = [
  ['writer-built', built],
  ...(existsSync(REAL) ? [['micro speech', new Uint8Array(readFileSync(REAL))] as [string, Uint8Array]] : []),
];

describe.each(cases)('the CLI on a truncated .tflite (%s)', (_name, bytes) => {
  const cut = tempFile('cut.tflite', bytes.subarray(0, Math.floor(bytes.length / 3)));

  it('plans the whole file (the cut is what breaks it)', () => {
    expect(run(['plan', tempFile('whole.tflite', bytes), '--target', 'tflm']).code).toBe(0);
  });

  it.each([
    ['inspect', ['inspect', cut]],
    ['inspect --json', ['inspect', cut, '--json']],
    ['plan', ['plan', cut]],
    ['plan --target tflm', ['plan', cut, '--target', 'tflm']],
  ])('%s exits 2 with one line on stderr and no stack trace', (_what, argv) => {
    const { code, err } = run(argv);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^heapscope: .*the file is damaged or cut off: .* but the file has only [\d,]+ bytes \(was the download cut off, or the file changed\?\)\n$/);
    expect(err).not.toMatch(/internal error|\bat .*\.ts:\d+|RangeError|TypeError/);
  });
});
