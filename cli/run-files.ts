// Running a command over one or more files: JSON Lines with --json, a typed
// error per failing file, and exit code 2 at the end when any file failed.

import { InputError, toErrorData } from '../src/shared/errors';
import type { ParsedArgs } from './args';
import type { Output } from './io';
import { TargetProfileError } from './targets';

/** Runs `work` on every file; prints results as JSON (Lines) or text; returns the exit code. */
export function forEachFile<T>(
  args: ParsedArgs,
  io: Output,
  work: (file: string) => T,
  printText: (file: string, result: T, io: Output) => void,
): number {
  if (args.files.length === 0) throw new InputError('bad-argument', `${args.command} needs at least one model file`);
  const json = args.flags.has('--json');
  let failed = false;
  for (const file of args.files) {
    try {
      const result = work(file);
      if (json) io.out(JSON.stringify({ file, ...result }) + '\n');
      else printText(file, result, io);
    } catch (error) {
      const data = toErrorData(error);
      if (data.code === 'internal' && !(error instanceof InputError)) throw error;
      failed = true;
      if (json) io.out(JSON.stringify({ file, error: data }) + '\n');
      io.err(`heapscope: ${data.message.includes(file) ? '' : `${file}: `}${data.message}\n`);
    }
  }
  return failed ? 2 : 0;
}

/**
 * Runs `work` (reading the --target profile); with --json, a profile that
 * fails also prints `{ file, error }` on stdout, `file` the profile, as a model
 * that fails does. The error goes on to its line on stderr and exit 2.
 */
export function withProfileError<T>(args: ParsedArgs, io: Output, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof TargetProfileError && args.flags.has('--json')) io.out(JSON.stringify({ file: error.profile, error: toErrorData(error) }) + '\n');
    throw error;
  }
}
