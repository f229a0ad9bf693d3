// Runs the command-line tool in the test's own process and captures what it
// prints, for the CLI tests. Depends only on cli/main.

import { expect } from 'vitest';
import { runCli } from '../main';

/** What one run of the tool gave: its exit code and everything it printed. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `heapscope <argv>` and captures stdout and stderr. */
export function run(argv: readonly string[]): CliRun {
  let out = '';
  let err = '';
  const code = runCli([...argv], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/**
 * Runs `heapscope plan <argv> --json`, expects `code` (0; 3 for a plan over a
 * region's size limit) and silence on stderr but for exit 3's verdict lines,
 * and returns the parsed JSON.
 */
export function planJson(argv: readonly string[], code = 0): ReturnType<typeof JSON.parse> {
  const result = run(['plan', ...argv, '--json']);
  const lines = result.err.split('\n').filter((line) => line !== '');
  expect(lines.filter((line) => code !== 3 || !/^heapscope: .*: DOES NOT FIT: region /.test(line))).toEqual([]);
  if (code === 3) expect(lines.length).toBeGreaterThan(0);
  expect(result.code).toBe(code);
  return JSON.parse(result.out);
}
