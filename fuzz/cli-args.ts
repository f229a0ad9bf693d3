// Command lines for the CLI, reproducible from a seed: commands real and not
// (names of Object.prototype members, wrong case, control characters), files
// that are models, saved plans, CSVs, directories, devices or missing, options
// of every command in random order, unknown options, options without their
// value, and --dim/--shape/--input/--budget/--points values hostile or
// malformed. Output options point inside the campaign's directory, at a
// directory, at /dev/null, or at the model itself (which must be refused).
// Standard input ('-') is left out: the campaign runs in the test's process.
// Depends on the fuzz random source and the campaign's workspace.

import { join } from 'node:path';
import type { Workspace } from './cli-fixtures';
import type { Rng } from './random';

/** One generated command line and how it was made. */
export interface ArgsCase {
  readonly kind: 'known' | 'unknown-command' | 'no-command';
  readonly argv: readonly string[];
}

const COMMANDS = ['plan', 'inspect', 'solve', 'diff', 'targets', 'sweep'] as const;
const ODD_COMMANDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'PLAN', 'plan ', '', 'help', '--help', '-h', '\u001b[2Jplan', 'pl\nan', '--json'];

const STRATEGIES = ['best', 'tflm', 'greedy-by-size', 'minimalloc', 'nope', '__proto__', ''];
const TARGETS = ['cpu', 'mcu', 'accelerator', 'phone', 'phone-dsp', 'tflm', 'constructor', 'MCU', ''];

/** Values for options that take a binding, a size or a count. */
const VALUES: Readonly<Record<string, readonly string[]>> = {
  '--dim': ['batch=1', 'batch=0', 'batch=3', 'batch=-1', 'batch=1e3', 'batch=1.5', 'batch=99999999999999999999', 'batch=9007199254740991', '=5', 'batch', 'batch=', '__proto__=1', 'constructor=2', 'image:0=2', 'image:2=16', 'image:99=5', 'nope=1', 'batc=2', 'batch=1..8', 'batch=8..1', 'batch=0..9007199254740991', 'batch=\u001b[2J'],
  '--b-dim': ['batch=2', 'batch=x', '__proto__=1'],
  '--shape': ['image=1x3x8x8', 'image=2x3x16x16', 'image=1x3', 'image=', 'image=-1x3x8x8', 'image=1x3x8x8x', 'image=4294967296x4294967296x4294967296x3', 'image=0x3x8x8', 'nope=1x2', 'conv_out=1x4x8x8', '__proto__=1', 'image=1×3×8×8'],
  '--input': ['image=1', 'image=1,2,3', 'image=NaN', 'image=', 'image=1e309', 'nope=1', 'image=,', '__proto__=1'],
  '--budget': ['1', '4KiB', '64KiB', '4MiB', '1.5MB', '0', '-1', '1e999', 'abc', '0x10', '1.5', '99999999999999999999', '4 MiB', ''],
  '--points': ['2', '3', '5', '0', '1', '-1', '1e9', '1000000', 'x', '2.5', '65'],
  '--budget-ms': ['1', '5', '0', '-1', 'x', '1e9', '99999999999999999999'],
  '--order': ['file', 'depth-first', 'memory-aware', 'random', ''],
  '--fusion': ['on', 'off', 'maybe'],
  '--compute-units': ['off', 'on', ''],
  '--sram': ['64KiB', '1', '0', '-5', 'big', '1e999'],
  '--dw-pw-cache': ['4KiB', '0', 'x'],
  '--scratch-placement': ['free-areas', 'with-activations', 'elsewhere'],
};

/** Options each command knows (from cli/main.ts), and ones none knows. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  inspect: ['--json', '--dim', '--shape', '--input'],
  plan: ['--json', '--ascii', '--strict', '--strategy', '--target', '--save', '--header', '--csv', '--save-tflite', '--order', '--fusion', '--compute-units', '--sram', '--dw-pw-cache', '--scratch-placement', '--dim', '--shape', '--input'],
  solve: ['--json', '--strategy', '--budget-ms', '--out'],
  diff: ['--json', '--strategy', '--target', '--budget', '--b-strategy', '--b-target', '--dim', '--b-dim', '--shape', '--input'],
  targets: ['--json'],
  sweep: ['--json', '--points', '--budget', '--strategy', '--target', '--dim', '--order', '--fusion', '--sram'],
};
const UNKNOWN_OPTIONS = ['--nope', '--JSON', '--jsonx', '--', '---json', '--__proto__', '--constructor', '-j', '--json=1', '--b-target'];
const FLAGS = new Set(['--json', '--ascii', '--strict']);
const OUTPUTS = new Set(['--save', '--header', '--csv', '--save-tflite', '--out']);

/** Files a command may be given: what it reads, what it does not, and what is not a file. */
function inputFiles(w: Workspace): string[] {
  return [w.model, w.model, w.modelB, ...w.plans, w.csv, w.target, w.subdir, `${w.subdir}/`, '/dev/null', '/dev/zero', w.missing, '', '.', join(w.dir, '__proto__')];
}

/** Where an output option may point: new files, a directory, /dev/null, and the model and problem (refused when they are the input; put back by the campaign when not). */
function outputPath(rng: Rng, w: Workspace): string {
  return rng.pick([join(w.dir, 'out', 'x'), join(w.dir, `out-${rng.int(0, 3)}.txt`), w.subdir, '/dev/null', w.model, w.csv, join(w.missing, 'x'), '']);
}

function optionValue(rng: Rng, name: string, w: Workspace): string | undefined {
  if (rng.chance(0.04)) return undefined; // the value left out
  if (OUTPUTS.has(name)) return outputPath(rng, w);
  if (name === '--strategy' || name === '--b-strategy') return rng.pick(STRATEGIES);
  if (name === '--target' || name === '--b-target') return rng.chance(0.8) ? rng.pick(TARGETS) : rng.pick([w.target, w.subdir, '/dev/null', w.missing, w.plans[0]!, w.model]);
  return rng.pick(VALUES[name] ?? ['x']);
}

/** Command line `index` of the campaign. */
export function randomArgs(rng: Rng, w: Workspace): ArgsCase {
  if (rng.chance(0.03)) return { kind: 'no-command', argv: [] };
  const known = rng.chance(0.88);
  const command = known ? rng.pick(COMMANDS) : rng.pick(ODD_COMMANDS);
  const parts: string[][] = [];
  const files = command === 'diff' ? (rng.chance(0.8) ? 2 : rng.int(0, 3)) : command === 'targets' ? (rng.chance(0.9) ? 0 : 1) : rng.chance(0.85) ? 1 : rng.int(0, 3);
  for (let i = 0; i < files; i++) {
    const natural = command === 'solve' ? w.csv : command === 'diff' ? rng.pick([w.model, w.modelB, ...w.plans]) : w.model;
    parts.push([rng.chance(0.75) ? natural : rng.pick(inputFiles(w))]);
  }
  const options = Object.hasOwn(OPTIONS, command) ? OPTIONS[command]! : OPTIONS.plan!;
  for (let i = rng.int(0, 5); i > 0; i--) {
    const name = rng.chance(0.9) ? rng.pick(options) : rng.pick(UNKNOWN_OPTIONS);
    if (FLAGS.has(name)) {
      parts.push([name]);
      continue;
    }
    const value = optionValue(rng, name, w);
    if (value === undefined) parts.push([name]);
    else parts.push(rng.chance(0.2) ? [`${name}=${value}`] : [name, value]);
  }
  if (command === 'sweep' && rng.chance(0.8)) parts.push(['--dim', rng.pick(['batch=1..4', 'batch=1..3', 'batch=0..2', 'image:2=8..16'])]);
  for (let i = parts.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [parts[i], parts[j]] = [parts[j]!, parts[i]!];
  }
  return { kind: known ? 'known' : 'unknown-command', argv: [command, ...parts.flat()] };
}
