// The heapscope command-line tool: the same model and planner code as the page,
// for scripts and CI. Exit codes: 0 success, 2 bad input, 1 internal error,
// 3 when `plan` finds a region over its size limit or `diff --budget` finds b's
// peak over the budget; --strict's 2 outranks 3.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, toErrorData } from '../src/shared/errors';
import { optionArgs, parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { DIFF_MAP_OPTIONS, runDiff } from './diff';
import { runInspect } from './inspect';
import { guardedOutput, terminalSafe, type Output } from './io';
import { releaseOutputs, writeProblem } from './outputs';
import { shortName } from '../src/shared/short-name';
import { runPlan, TARGET_CHANGE_OPTIONS } from './plan';
import { runSolve } from './solve';
import { runSweep } from './sweep';
import { runTargets } from './targets';
import { runVersion } from './version';

const USAGE = `usage: heapscope <command> [options]      (heapscope <command> --help: that command alone)

commands:
  inspect <model>... [--dim NAME=VALUE]... [--shape NAME=DIMS]... [--input NAME=VALUE]... [--json]
      decode each model (.onnx or .tflite), infer every tensor's shape, dtype and bytes
  plan <model>... [--strategy NAME] [--target PRESET|FILE] [--dim NAME=VALUE]... [--json] [--ascii] [--strict]
      plan where every activation and scratch buffer lives; peak, lower bound and why
      --budget-ms N    stop best's searches after N ms of wall-clock time per region (without it they stop
                       by counted work: the same plan on any machine)
      --dim NAME=VALUE      bind a symbolic dim (by name or input axis, e.g. image:2=640; 0 allowed)
      --shape NAME=DIMS     give any tensor's shape (1x3x224x224); it propagates downstream
      --input NAME=VALUE    give a graph input's value (sr=16000, or 1,0,1; cond=true), e.g. to decide an If
      --strict         exit 2 when the plan is incomplete (unknown sizes), rests on a default dim,
                       ignored a --dim, --shape or --input the model has no use for, or a target
                       file's planning.pins rule that matches no buffer (else a note),
                       or (tflm) on a kernel whose scratch requests are not known, or when the
                       figures leave out a fused attention op's kernel workspace (no scratch rule)
      --order file|depth-first|memory-aware   --fusion on|off   --compute-units off
      --sram BYTES     --dw-pw-cache BYTES    --scratch-placement free-areas|with-activations
      --spill on|off   activations that do not fit a region spill to the next of the memory map
                       (off: all in the first, as before); also on diff (--b-spill) and sweep
      --weights flash|REGION|copy-to:REGION   where weights live: flash (not counted), a RAM
                       region, or copied to one at start; counted against that region's limit;
                       also on diff (--b-weights), as --io is (--b-io)
      --io arena|application   graph inputs/outputs planned in the arena, or the application's own
                       change those target fields (suggestions print these)
      --save FILE      write the plan file (JSON with its settings; a side of diff, reopens in the page)
      --header FILE    write a C header: arena size, start and weights per region, offset and size
                       of every buffer
      --csv FILE       write the MiniMalloc solution CSV (--csv plan.csv writes plan.<region>.csv for each region when there are several; one table with a region column into a pipe or device)
      --save-tflite FILE  with --target tflm: write the .tflite model with heapscope's plan as its
                       OfflineMemoryAllocation metadata, which TensorFlow Lite Micro then uses
  solve <problem.csv> [--strategy NAME] [--budget-ms N] [--out solution.csv] [--json]
      place the buffers of a MiniMalloc CSV problem; --out writes the offsets
  diff <a> <b> [--json] [--strict] [--budget BYTES] [--budget-ms N] [--dim NAME=VALUE]... [--strategy NAME] [--target PRESET|FILE]
               [--shape NAME=DIMS]... [--input NAME=VALUE]...
               [--b-dim NAME=VALUE]... [--b-strategy NAME] [--b-target PRESET|FILE]
               [--spill on|off] [--weights WHERE] [--io arena|application] [--b-spill|--b-weights|--b-io ...]
      why b's peak differs from a's: causes ranked by bytes. a, b: models or saved plans;
      plain options plan every model side, --b-* options side b only (a model).
      of plan's target edits, diff takes only --spill, --weights and --io (and their --b-* forms):
      --order, --fusion, --compute-units, --sram, --dw-pw-cache and --scratch-placement reach it
      as a side saved with plan --save (plan ... --fusion off --save b.plan.json), or a --b-target file
      --shape NAME=DIMS, --input NAME=VALUE: as plan takes them, for every model side
      --budget BYTES (123, 512KiB, 4MiB, 1.5MB): exit 3 when b's peak exceeds it (on tflm, b's arena to
                     declare for the file as it is)
      --strict: exit 2 when a side's plan is incomplete, rests on a default dim or ignored an
                option given (as plan --strict)
  targets [--json]
      list the target presets (cpu, mcu, accelerator, phone, phone-dsp, tflm)
  version [--json]      (or heapscope --version)
      print heapscope's version
  sweep <model>... --dim NAME=FROM..TO [--points N] [--budget BYTES] [--target ...] [--strategy ...] [--json]
               [--dim NAME=VALUE]... [--shape NAME=DIMS]... [--input NAME=VALUE]...
      plan at several values of one dim (the ends and the powers of two between, or N values);
      with --budget, the largest value whose plan fits, by bisection on real plans;
      takes plan's target options too (--spill, --weights, --io, --sram, --order, ...)

exit codes: 0 success, 1 internal error, 2 bad input (or --strict found an assumption),
            3 plan: a region over its size limit; diff: b over the --budget
            (--strict's 2 outranks 3: a verdict resting on assumptions is not verified;
            every verdict that applies is a line on stderr)
after --, every argument is a file, even one spelled like an option
an option given twice takes the last value, with a note on stderr (--dim, --shape, --input: per name)
`;

const SPECS: Readonly<Record<string, CommandSpec>> = {
  inspect: { flags: ['--json'], options: [] },
  plan: { flags: ['--json', '--ascii', '--strict'], options: ['--strategy', '--target', '--budget-ms', '--save', '--header', '--csv', '--save-tflite', ...TARGET_CHANGE_OPTIONS] },
  solve: { flags: ['--json'], options: ['--strategy', '--budget-ms', '--out'] },
  diff: { flags: ['--json', '--strict'], options: ['--strategy', '--target', '--budget', '--budget-ms', '--b-strategy', '--b-target', ...DIFF_MAP_OPTIONS, ...DIFF_MAP_OPTIONS.map((o) => `--b-${o.slice(2)}`)] },
  targets: { flags: ['--json'], options: [] },
  version: { flags: ['--json'], options: [] },
  sweep: { flags: ['--json'], options: ['--points', '--budget', '--strategy', '--target', ...TARGET_CHANGE_OPTIONS], dimRanges: true },
};

// A Map, not an object: a command named `__proto__` or `toString` is just unknown.
const COMMANDS: ReadonlyMap<string, (args: ParsedArgs, io: Output) => number> = new Map([
  ['inspect', runInspect],
  ['plan', runPlan],
  ['solve', runSolve],
  ['diff', runDiff],
  ['targets', runTargets],
  ['sweep', runSweep],
  ['version', runVersion],
]);

/** A --help: the text it prints, and with --json the object it prints instead. */
interface Help {
  readonly command?: string; // absent for the tool's own usage
  readonly commands?: readonly string[]; // the tool's own usage only: every command
  readonly usage: string; // the text --help prints without --json
  readonly exitCodes: Readonly<Record<string, string>>; // what each exit code means, by code
}

/**
 * `heapscope COMMAND --help` (or -h, before any `--`): that command's part of
 * the usage and the exit codes; undefined when argv asks for no help.
 */
function commandHelp(argv: readonly string[]): Help | undefined {
  const [command, ...rest] = argv;
  const options = optionArgs(rest);
  if (command === undefined || !COMMANDS.has(command) || !options.some((a) => a === '--help' || a === '-h')) return undefined;
  const lines = USAGE.split('\n');
  const first = lines.findIndex((line) => line.startsWith(`  ${command} `));
  const next = lines.findIndex((line, i) => i > first && (line === '' || /^ {2}\S/.test(line)));
  const codes = exitCodes(command);
  const codesText = Object.entries(codes).map(([code, meaning]) => `${code} ${meaning}`).join(', ');
  return { command, usage: `usage: heapscope ${lines.slice(first, next).join('\n').trimStart()}\n\nexit codes: ${codesText}\n`, exitCodes: codes };
}

/** What exit 3 means for each command that has it. */
const VERDICTS: Readonly<Record<string, string>> = {
  plan: 'a region over its size limit',
  diff: 'b over the --budget',
};

/** `heapscope --help` (or -h, or help): the whole usage. */
const TOOL_HELP: Help = {
  commands: [...COMMANDS.keys()],
  usage: USAGE,
  exitCodes: {
    0: 'success',
    1: 'internal error',
    2: 'bad input (or --strict found an assumption)',
    3: `${Object.entries(VERDICTS).map(([command, verdict]) => `${command}: ${verdict}`).join('; ')} (--strict's 2 outranks 3)`,
  },
};

/** Prints a help: its text, or with --json one JSON object `{ command, usage, exitCodes }` (`{ commands, usage, exitCodes }` for the tool's own), for a script that parses stdout. */
function printHelp(help: Help, json: boolean, io: Output): void {
  io.out(json ? JSON.stringify(help) + '\n' : help.usage);
}

/** The exit codes `command` can end with and what each means, for its --help. */
function exitCodes(command: string): Record<string, string> {
  const strict = SPECS[command]?.flags.includes('--strict') === true ? ' (or --strict found an assumption)' : '';
  const codes: Record<string, string> = { 0: 'success', 1: 'internal error', 2: `bad input${strict}` };
  const verdict = VERDICTS[command];
  if (verdict !== undefined) codes[3] = `${verdict}${strict !== '' ? " (--strict's 2 outranks 3)" : ''}`;
  return codes;
}

/** The refusal of a command heapscope does not have, naming the ones it has. */
function unknownCommand(name: string): InputError {
  return new InputError('bad-argument', `unknown command "${shortName(name)}" (commands: ${[...COMMANDS.keys()].join(', ')})`);
}

/** Runs the CLI on argv (without node and script); returns the exit code. */
export function runCli(given: readonly string[], raw: Output): number {
  // `--version` is the `version` command, as most tools spell it
  const argv = given[0] === '--version' ? ['version', ...given.slice(1)] : given;
  let printed = false;
  const io = guardedOutput({ out: (text) => ((printed = true), raw.out(text)), err: (text) => raw.err(text) });
  const json = optionArgs(argv).includes('--json');
  try {
    if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      printHelp(TOOL_HELP, json, io);
      return 0;
    }
    if (json && (argv[0] === undefined || argv[0].startsWith('-'))) throw new InputError('bad-argument', `no command given (commands: ${[...COMMANDS.keys()].join(', ')})`);
    if (argv.length === 0) {
      io.out(USAGE);
      // Without a command it is bad input: exit 2 says so on stderr, as every exit 2 does.
      io.err(`heapscope: no command given (commands: ${[...COMMANDS.keys()].join(', ')})\n`);
      return 2;
    }
    const help = commandHelp(argv);
    if (help !== undefined) {
      printHelp(help, json, io);
      return 0;
    }
    // an unknown command first: its options would be read by no command's rules ("--json needs a value")
    if (!argv[0]!.startsWith('-') && !COMMANDS.has(argv[0]!)) throw unknownCommand(argv[0]!);
    const args = parseArgs(argv, SPECS);
    const command = args.command === undefined ? undefined : COMMANDS.get(args.command);
    if (!command) throw unknownCommand(args.command ?? '');
    const code = command(args, io);
    // an option given twice: said after the result, unless the command refused its input (exit 2 is one line)
    if (code !== 2 && args.notes.length > 0) io.err(`heapscope: note: ${terminalSafe(args.notes.join('; '))}\n`);
    return code;
  } catch (error) {
    if (error instanceof InputError) {
      // With --json, stdout holds a JSON object whatever went wrong: the command's own (`{ file, error }`) or this one.
      if (json && !printed) io.out(JSON.stringify({ error: toErrorData(error) }) + '\n');
      io.err(`heapscope: ${error.message}\n`);
      return 2;
    }
    io.err(`heapscope: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    releaseOutputs();
  }
}

/**
 * The directory the user ran the tool from: `npm run heapscope` starts it in
 * the package root and says where the user was in INIT_CWD; relative paths
 * (models, outputs, target files) are the user's.
 */
export function userDirectory(env: NodeJS.ProcessEnv): string | undefined {
  return env.npm_lifecycle_event === 'heapscope' && env.INIT_CWD !== undefined && env.INIT_CWD !== '' ? env.INIT_CWD : undefined;
}

/**
 * A failed write to stdout or stderr, which the stream reports after the command
 * has returned its exit code. A reader that closes the pipe early (`| head`) has
 * what it wanted: the tool stops writing, quietly, and keeps the exit code of its
 * verdict, so `set -o pipefail` still sees 3 for a plan over its limit. Any
 * other failure (a full disk) is one line on stderr, and exit 2 when the verdict
 * was success, as a file that cannot be written is.
 */
function handleWriteErrors(stream: NodeJS.WriteStream, what: string): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    if (stream !== process.stderr) process.stderr.write(`heapscope: cannot write ${what}: ${writeProblem(error.code, error)}\n`);
    if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = 2;
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  handleWriteErrors(process.stdout, 'the output');
  handleWriteErrors(process.stderr, 'the error output');
  process.exitCode = main();
}

function main(): number {
  const home = userDirectory(process.env);
  try {
    if (home !== undefined) process.chdir(home);
  } catch {
    process.stderr.write(`heapscope: cannot read relative paths from ${terminalSafe(home!)}, the directory npm was run from: it is gone\n`);
    return 2;
  }
  return runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
