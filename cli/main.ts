// The heapscope command-line tool: the same model and planner code as the page,
// for scripts and CI. Exit codes: 0 success, 2 bad input, 1 internal error.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../src/shared/errors';
import { parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { runInspect } from './inspect';
import type { Output } from './io';

const USAGE = `usage: heapscope <command> [options]

commands:
  inspect <model.onnx>... [--dim NAME=VALUE]... [--json]
      decode each model, infer every tensor's shape, dtype and bytes
`;

const SPECS: Readonly<Record<string, CommandSpec>> = {
  inspect: { flags: ['--json'], options: [] },
};

const COMMANDS: Readonly<Record<string, (args: ParsedArgs, io: Output) => number>> = {
  inspect: runInspect,
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
