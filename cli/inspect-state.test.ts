// `inspect` on a .tflite with SVDF memories: the variable tensors the model
// keeps across runs (the seven TFLite Micro keeps in its tail, 10,240 B) are
// marked as state, apart from the graph's own input.
// Skips with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const KEYWORD = join(__dirname, '../../shared/models/tflite/tflm_keyword_scrambled.tflite');
const have = existsSync(KEYWORD);
if (!have) console.log(`cli inspect state: ${KEYWORD} is absent; skipping`);

describe.skipIf(!have)('inspect of variable tensors', () => {
  it('marks the seven SVDF memories as state in --json and in the text, and leaves the graph input as it is', () => {
    const values = (JSON.parse(run(['inspect', KEYWORD, '--json']).out) as { values: { name: string; kind: string; state?: true }[] }).values;
    expect(values.filter((v) => v.state === true).map((v) => v.name)).toEqual(['tensor_4', 'tensor_12', 'tensor_20', 'tensor_28', 'tensor_36', 'tensor_41', 'tensor_46']);
    expect(values.filter((v) => v.kind === 'input' && v.state === undefined)).toHaveLength(1);
    const text = run(['inspect', KEYWORD]).out;
    expect(text).toMatch(/^\s*state\s+int16\s+1×512\s+1\.00 KiB\s+tensor_4$/m);
  });
});
