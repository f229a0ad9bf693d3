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

/** Runs `heapscope plan <argv> --json`, expects success and silence on stderr, and returns the parsed JSON. */
export function planJson(argv: readonly string[]): ReturnType<typeof JSON.parse> {
  const { code, out, err } = run(['plan', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}
