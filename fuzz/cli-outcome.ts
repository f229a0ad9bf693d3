// Runs one command line of a CLI campaign in-process and sorts what happened
// into the outcome classes the campaigns count: exit 0 (its plans valid by the
// independent validator), exit 2 (one readable line per message, no stack
// trace, no raw control character), exit 3, and the findings: exit 1, a throw
// out of the CLI, any other exit code, an exit-0 plan that fails the
// validator, output with raw control characters, and a case slower than the
// reporting bound (a hang). The bound only labels; it never stops a case.
// Depends on the CLI and the fuzz plan check.

import { readFileSync, statSync } from 'node:fs';
import { runCli } from '../cli/main';
import type { CliRun } from '../cli/testing/run-cli';
import { isPlanFileText } from '../src/planner/assembly/plan-file';
import { planProblems } from './plan-validity';

/** Outcome classes, in report order. */
export const OUTCOMES = ['exit0', 'exit2', 'exit3', 'exit1', 'crash', 'hang'] as const;
export type OutcomeClass = (typeof OUTCOMES)[number];

/** One thing wrong with one command line. */
export interface CliFinding {
  readonly stage: 'exit1' | 'crash' | 'hang' | 'message' | 'output' | 'validate';
  readonly message: string;
}

/** How one command line went. */
export interface CliOutcome {
  readonly outcome: OutcomeClass;
  readonly findings: readonly CliFinding[];
  readonly plans: number; // plans checked by the validator
  readonly ms: number;
  readonly refusal?: string; // the first stderr line of an exit 2
}

/** A case slower than this is reported as a hang (it still runs to its end: results never depend on the clock). */
export const HANG_MS = 10_000;

/** Runs the CLI on argv, capturing its output; a throw out of runCli is returned, not thrown. */
export type CliRunner = (argv: readonly string[]) => CliRun | { readonly thrown: unknown };

/** The real CLI, in this process. */
export const runInProcess: CliRunner = (argv) => {
  let out = '';
  let err = '';
  try {
    const code = runCli([...argv], { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  } catch (thrown) {
    return { thrown };
  }
};

// Raw C0 controls but newline and tab, DEL, C1 controls: guardedOutput escapes them all.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** What makes a message line unreadable: a stack frame, a raw control character, or no "heapscope:" prefix. */
export function messageProblems(err: string, allowedLines: number): string[] {
  const lines = err.split('\n');
  if (lines.at(-1) !== '') return [`stderr does not end with a newline: ${JSON.stringify(err.slice(-80))}`];
  // one line of notes (an option given twice) may follow a result: it is no verdict
  const notes = lines.slice(0, -1).filter((l) => l.startsWith('heapscope: note: '));
  const body = lines.slice(0, -1).filter((l) => !l.startsWith('heapscope: note: '));
  const out: string[] = [];
  if (notes.length > 1) out.push(`${notes.length} note lines on stderr (at most 1): ${JSON.stringify(err.slice(0, 200))}`);
  if (body.length === 0 && notes.length === 0) out.push('exit 2 with nothing on stderr');
  if (body.length > allowedLines) out.push(`${body.length} lines on stderr (at most ${allowedLines}): ${JSON.stringify(err.slice(0, 200))}`);
  if (/^\s+at /m.test(err)) out.push(`a stack trace on stderr: ${JSON.stringify(err.slice(0, 200))}`);
  if (RAW_CONTROL.test(err)) out.push(`a raw control character on stderr: ${JSON.stringify(err.slice(0, 200))}`);
  const stray = body.find((l) => !l.startsWith('heapscope: '));
  if (stray !== undefined) out.push(`a stderr line that is not a heapscope message: ${JSON.stringify(stray.slice(0, 200))}`);
  return out;
}

/** The positional arguments of argv (what the CLI reads as files), skipping option values. */
function positionals(argv: readonly string[], valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    // after `--` every argument is a file, as the CLI reads them
    if (a === '--') return [...out, ...argv.slice(i + 1)];
    if (a.startsWith('--')) {
      if (!a.includes('=') && valued.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The files a command line reads: its positional arguments. */
export function commandFiles(argv: readonly string[]): string[] {
  return positionals(argv, VALUED);
}

/** Options that take a value, so their values are not mistaken for files. */
const VALUED = new Set(['--strategy', '--target', '--save', '--header', '--csv', '--save-tflite', '--order', '--fusion', '--compute-units', '--sram', '--dw-pw-cache', '--scratch-placement', '--budget-ms', '--out', '--budget', '--b-strategy', '--b-target', '--points', '--dim', '--b-dim', '--shape', '--input']);

/** Checks what a success printed and wrote: its plans, saved plans and solutions. */
export type SuccessCheck = (argv: readonly string[], run: CliRun) => { readonly problems: string[]; readonly plans: number; readonly slow?: string };

/**
 * The default check of an exit 0 or 3: every plan in `plan --json` output (a
 * text run is repeated with --json for it), every saved plan `diff` read and
 * `plan --save` wrote, valid by the independent validator.
 */
export const checkSuccess: SuccessCheck = (argv, result) => {
  const problems: string[] = [];
  let plans = 0;
  const check = (plan: unknown, where: string): void => {
    plans++;
    for (const p of planProblems(plan)) problems.push(`${where}: ${p}`);
  };
  if (argv[0] === 'plan') {
    const json = argv.includes('--json') ? result : runInProcess([...argv, '--json']);
    if ('thrown' in json) return { problems: ['plan --json threw where plan succeeded'], plans };
    for (const line of json.out.split('\n').filter(Boolean)) {
      const doc = JSON.parse(line) as { error?: unknown; file?: string };
      if (doc.error === undefined) check(doc, `plan of ${doc.file}`);
    }
    const saved = savedPath(argv);
    // /dev/null takes the plan and keeps nothing: only a regular file is read back.
    if (saved !== undefined && isRegularFile(saved)) check(readPlan(saved), `plan saved to ${saved}`);
  }
  if (argv[0] === 'diff') {
    for (const file of positionals(argv, VALUED)) {
      const text = readText(file);
      if (text !== undefined && isPlanFileText(text)) check(readPlan(file), `saved plan ${file}`);
    }
  }
  return { problems, plans };
};

function savedPath(argv: readonly string[]): string | undefined {
  for (let i = argv.length - 1; i >= 0; i--) {
    if (argv[i] === '--save') return argv[i + 1];
    if (argv[i]!.startsWith('--save=')) return argv[i]!.slice('--save='.length);
  }
  return undefined;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readPlan(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as { plan?: unknown }).plan;
  } catch (error) {
    return { unreadable: String(error) };
  }
}

/** Lines stderr may hold: one per file read, two with --strict (a size verdict, then --strict's refusal). */
function stderrLines(argv: readonly string[]): number {
  return Math.max(1, positionals(argv, VALUED).length) * (argv.includes('--strict') ? 2 : 1);
}

/** Runs argv and classifies it; `files` is how many stderr lines an exit 2 may print (one per file it reads). */
export function runCase(argv: readonly string[], success: SuccessCheck = checkSuccess, runner: CliRunner = runInProcess): CliOutcome {
  const started = performance.now();
  const result = runner(argv);
  const ms = performance.now() - started;
  const hang: CliFinding[] = ms > HANG_MS ? [{ stage: 'hang', message: `took ${(ms / 1000).toFixed(1)} s` }] : [];
  const done = (outcome: OutcomeClass, findings: CliFinding[], plans = 0): CliOutcome => ({ outcome: hang.length > 0 ? 'hang' : outcome, findings: [...hang, ...findings], plans, ms });
  if ('thrown' in result) {
    const e = result.thrown;
    return done('crash', [{ stage: 'crash', message: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 500) : String(e) }]);
  }
  const output = RAW_CONTROL.test(result.out) ? [{ stage: 'output' as const, message: `a raw control character on stdout: ${JSON.stringify(result.out.slice(0, 120))}` }] : [];
  if (result.code === 1) return done('exit1', [{ stage: 'exit1', message: result.err.split('\n')[0]!.slice(0, 500) }, ...output]);
  if (result.code === 2) {
    const allowed = stderrLines(argv);
    const exit2 = done('exit2', [...messageProblems(result.err, allowed).map((m) => ({ stage: 'message' as const, message: m })), ...output]);
    return { ...exit2, refusal: result.err.split('\n')[0] };
  }
  if (result.code !== 0 && result.code !== 3) return done('crash', [{ stage: 'crash', message: `exit code ${result.code}` }]);
  const { problems, plans, slow } = success(argv, result);
  if (slow !== undefined) hang.push({ stage: 'hang', message: slow });
  const messages = result.err === '' ? [] : messageProblems(result.err, stderrLines(argv));
  const findings = [...problems.map((m) => ({ stage: 'validate' as const, message: m.slice(0, 500) })), ...messages.map((m) => ({ stage: 'message' as const, message: m })), ...output];
  return done(result.code === 0 ? 'exit0' : 'exit3', findings, plans);
}
