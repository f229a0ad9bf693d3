// Whole-number options past their range name the value as typed and the
// largest accepted, rather than calling a whole number no integer or echoing
// it rounded.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

describe('a whole-number option past its range', () => {
  it.each([
    [['sweep', SAMPLE, '--dim', 'batch=1..4', '--points', '99999999999999999999'], '--points must be a whole number from 2 to 64, got "99999999999999999999"'],
    [['plan', SAMPLE, '--dim', 'batch=99999999999999999999'], '--dim batch must be at most 9007199254740991 (2^53 − 1), got "99999999999999999999"'],
    [['sweep', SAMPLE, '--dim', 'batch=1..99999999999999999999'], '--dim batch must be at most 9007199254740991 (2^53 − 1), got "1..99999999999999999999"'],
    [['diff', SAMPLE, SAMPLE, '--b-dim', 'batch=9007199254740992'], '--b-dim batch must be at most 9007199254740991 (2^53 − 1), got "9007199254740992"'],
  ])('%j: one line with the value as typed, exit 2', (argv, message) => {
    const { code, out, err } = run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`heapscope: ${message}\n`);
  });
});
