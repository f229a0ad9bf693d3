// The heapscope command-line tool: the same model and planner code as the page,
// for scripts and CI. Exit codes: 0 success, 2 bad input, 1 internal error.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../src/shared/errors';
import { parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { runInspect } from './inspect';
import type { Output } from './io';
import { runPlan } from './plan';
import { runSolve } from './solve';
import { runTargets } from './targets';

const USAGE = `usage: heapscope <command> [options]

commands:
  inspect <model.onnx>... [--dim NAME=VALUE]... [--json]
      decode each model, infer every tensor's shape, dtype and bytes
  plan <model.onnx>... [--strategy NAME] [--target PRESET|FILE] [--dim NAME=VALUE]... [--json] [--ascii]
      plan where every activation and scratch buffer lives; peak, lower bound and why
  solve <problem.csv> [--strategy NAME] [--budget-ms N] [--out solution.csv] [--json]
      place the buffers of a MiniMalloc CSV problem; --out writes the offsets
  targets [--json]
      list the target presets (cpu, mcu, accelerator, phone)
`;

const SPECS: Readonly<Record<string, CommandSpec>> = {
  inspect: { flags: ['--json'], options: [] },
  plan: { flags: ['--json', '--ascii'], options: ['--strategy', '--target'] },
  solve: { flags: ['--json'], options: ['--strategy', '--budget-ms', '--out'] },
  targets: { flags: ['--json'], options: [] },
};

const COMMANDS: Readonly<Record<string, (args: ParsedArgs, io: Output) => number>> = {
  inspect: runInspect,
  plan: runPlan,
  solve: runSolve,
  targets: runTargets,
};

/** Runs the CLI on argv (without node and script); returns the exit code. */
export function runCli(argv: readonly string[], io: Output): number {
  try {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      io.out(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    const args = parseArgs(argv, SPECS);
    const command = args.command === undefined ? undefined : COMMANDS[args.command];
    if (!command) throw new InputError('bad-argument', `unknown command "${args.command}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return command(args, io);
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`heapscope: ${error.message}\n`);
      return 2;
    }
    io.err(`heapscope: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const code = runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
  process.exitCode = code;
}
