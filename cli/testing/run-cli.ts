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
 * region's size limit) and silence on stderr but for exit 3's verdict lines
 * and, for a model TensorFlow Lite Micro refuses within no size limit, the
 * one warning that no arena works; returns the parsed JSON.
 */
export function planJson(argv: readonly string[], code = 0): ReturnType<typeof JSON.parse> {
  const result = run(['plan', ...argv, '--json']);
  const plan = JSON.parse(result.out);
  const lines = result.err.split('\n').filter((line) => line !== '');
  const refused: readonly string[] = plan.runtimePlan?.refused ?? [];
  const warning = (line: string) => code === 0 && refused.length > 0 && line.startsWith('heapscope: warning: ') && line.includes(`: no tensor arena works: ${refused[0]}`);
  expect(lines.filter((line) => !warning(line) && (code !== 3 || !/^heapscope: .*: DOES NOT FIT: region /.test(line)))).toEqual([]);
  if (code === 0 && refused.length > 0) expect(lines.filter(warning)).toHaveLength(1);
  if (code === 3) expect(lines.length).toBeGreaterThan(0);
  expect(result.code).toBe(code);
  return plan;
}
