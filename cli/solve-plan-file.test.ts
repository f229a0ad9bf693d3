// `solve` given a heapscope saved plan says what the file is and which command
// takes it, as it does for a model; it read the JSON as a CSV header and said
// "line 1: text after a quoted value".

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

describe('solve on a saved plan', () => {
  it('exits 2 saying it is a saved plan and naming plan --csv and diff', () => {
    const saved = join(mkdtempSync(join(tmpdir(), 'heapscope-solve-plan-')), 'a.plan.json');
    expect(run(['plan', SAMPLE, '--save', saved]).code).toBe(0);
    const { code, err } = run(['solve', saved]);
    expect(err).toBe(
      `heapscope: ${saved}: this is a heapscope saved plan (plan --save), not a placement-problem CSV; \`heapscope plan MODEL --csv FILE\` writes a plan's problem CSV for solve, and \`heapscope diff\` compares saved plans\n`,
    );
    expect(code).toBe(2);
  });
});
