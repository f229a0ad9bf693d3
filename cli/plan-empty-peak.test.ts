// A plan whose every buffer holds 0 bytes (a dim bound to 0) named a peak step
// all the same: "peak step 0 (Conv 'stem/conv') in region ram; live there:"
// over an empty list. The text now says no buffer holds a byte, in the words
// the page's Details use (planner/explain/empty-peak.ts).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

describe('plan of a model whose buffers all hold 0 bytes', () => {
  it('says there is no peak step to explain, naming no step', () => {
    const { code, out } = run(['plan', SAMPLE, '--dim', 'batch=0']);
    expect(code).toBe(0);
    expect(out).toMatch(/\n {2}peak step {5}none: no buffer holds a byte \(all \d+ buffers are 0 B\), so there is no peak step to explain\n/);
    expect(out).not.toContain('live there');
  });

  it('still names the peak step and its live buffers when they hold bytes', () => {
    const { out } = run(['plan', SAMPLE, '--dim', 'batch=1']);
    expect(out).toMatch(/\n {2}peak step {5}\d+ \(\w+ '[^']+'\) in region ram; live there:\n/);
  });
});
