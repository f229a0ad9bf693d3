// Command-line argument parsing for the heapscope CLI: positional files, flags,
// options with values and repeatable --dim NAME=VALUE bindings.

import { InputError } from '../src/shared/errors';
import { readByteSize, tooLargeText } from '../src/shared/byte-size';
import { MAX_EXACT_POWER } from '../src/shared/format';
import { booleanWord } from '../src/shared/input-words';

/** Parsed arguments of one command. */
export interface ParsedArgs {
  readonly command: string | undefined;
  readonly files: readonly string[];
  readonly flags: ReadonlySet<string>; // --json, --ascii ...
  readonly options: ReadonlyMap<string, string>; // --strategy best ...
  readonly dims: Readonly<Record<string, number>>; // --dim NAME=VALUE
  readonly bDims: Readonly<Record<string, number>>; // --b-dim NAME=VALUE (diff side b)
  readonly shapes: Readonly<Record<string, readonly number[]>>; // --shape NAME=DIMS
  readonly inputValues: Readonly<Record<string, readonly number[]>>; // --input NAME=VALUE[,VALUE...]
  readonly ranges: Readonly<Record<string, readonly [number, number]>>; // --dim NAME=FROM..TO (commands that sweep)
  readonly notes: readonly string[]; // an option given twice with different values: the last applies, and a note says so
}

/** Options every command that infers shapes accepts, repeatable (once per name). */
const BINDING_OPTIONS = ['--dim', '--b-dim', '--shape', '--input'];

/** Options that name a file the command writes. */
const OUTPUT_OPTIONS = ['--save', '--header', '--csv', '--save-tflite', '--out'];

/** What a command accepts, so that unknown options are refused by name. */
export interface CommandSpec {
  readonly flags: readonly string[];
  readonly options: readonly string[];
  readonly dimRanges?: boolean; // --dim takes NAME=FROM..TO
}

/** A record whose keys come from the user: no inherited keys ('__proto__', 'constructor') to collide with. */
function userRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Parses `NAME=VALUE` into a dim binding; the value must be a non-negative integer (0: an empty axis, e.g. no past yet). */
export function parseDim(text: string, optionName = '--dim'): [string, number] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InputError('bad-argument', `${optionName} expects NAME=VALUE, got "${text}"`);
  const name = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  const value = Number(raw);
  if (!/^\d+$/.test(raw)) throw new InputError('bad-argument', `${optionName} ${name} must be a non-negative integer, got "${raw}"`);
  if (!Number.isSafeInteger(value)) throw new InputError('bad-argument', tooLargeDim(optionName, name, raw));
  return [name, value];
}

/** The sentence for a dim past 2^53 − 1, a whole number all the same: naming it no integer would mislead. */
function tooLargeDim(optionName: string, name: string, raw: string, where = ''): string {
  return `${optionName} ${name} must be at most ${Number.MAX_SAFE_INTEGER} (${MAX_EXACT_POWER})${where}, got "${raw}"`;
}

/** Splits `NAME=TEXT` at its last '=' (tensor names may hold '=', values never do). */
function splitBinding(text: string, optionName: string, form: string): [string, string] {
  const eq = text.lastIndexOf('=');
  if (eq <= 0) throw new InputError('bad-argument', `${optionName} expects ${form}, got "${text}"`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

/** Parses `NAME=1x3x224x224` (or commas; "scalar" or "[]" for a scalar, said outright: an empty value is refused) into a tensor shape. */
export function parseShape(text: string): [string, number[]] {
  const [name, raw] = splitBinding(text, '--shape', 'NAME=DIMS such as x=1x3x224x224');
  const body = raw.trim();
  if (body === '[]' || body.toLowerCase() === 'scalar') return [name, []];
  const parts = body === '' ? [''] : body.split(/[x×,]/i).map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) {
    throw new InputError('bad-argument', `--shape ${name} expects dims such as 1x3x224x224 (non-negative integers; "scalar" for a scalar), got "${raw}"`);
  }
  const dims = parts.map(Number);
  if (dims.some((d) => !Number.isSafeInteger(d))) throw new InputError('bad-argument', tooLargeDim('--shape', name, raw, ' on every axis'));
  return [name, dims];
}

/** Parses `NAME=16000`, `NAME=1,0.5,2` or `NAME=true` (a bool: 1) into a graph input's value (row-major). */
export function parseInputValue(text: string): [string, number[]] {
  const [name, raw] = splitBinding(text, '--input', 'NAME=VALUE such as sr=16000');
  const parts = raw.split(',').map((p) => p.trim());
  const values = parts.map((p) => booleanWord(p) ?? Number(p));
  if (raw.trim() === '' || parts.some((p) => p === '') || values.some((v) => !Number.isFinite(v))) {
    throw new InputError('bad-argument', `--input ${name} expects numbers separated by commas, such as 16000 or 1,0,1 (true or false for a bool), got "${raw}"`);
  }
  return [name, values];
}

/** True when `name` is a flag or option of the command (or any option when the command is unknown). */
function isOptionOf(spec: CommandSpec | undefined, name: string): boolean {
  if (!name.startsWith('--') || name === '--') return false;
  return spec === undefined || spec.flags.includes(name) || spec.options.includes(name) || BINDING_OPTIONS.includes(name);
}

/** The arguments before the first `--`: the ones that can be options. */
export function optionArgs(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

/** Parses argv (without node and script) against the command's spec; after `--`, every argument is a file. */
export function parseArgs(argv: readonly string[], specs: Readonly<Record<string, CommandSpec>>): ParsedArgs {
  const [command, ...rest] = argv;
  const spec = command === undefined || !Object.hasOwn(specs, command) ? undefined : specs[command];
  const files: string[] = [];
  const flags = new Set<string>();
  const options = new Map<string, string>();
  const dims = userRecord<number>();
  const bDims = userRecord<number>();
  const shapes = userRecord<readonly number[]>();
  const inputValues = userRecord<readonly number[]>();
  const ranges = userRecord<readonly [number, number]>();
  const bound: Bound = new Map();
  const notes: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    // After `--` every argument is an operand, even one spelled like an option (a file named `--json`) or a second `--`.
    if (endOfOptions) {
      files.push(arg);
      continue;
    }
    if (arg === '--') {
      endOfOptions = true;
      continue;
    }
    // `-j` is an option the command lacks, not a file to plan after the others ('-' alone is a file)
    if (spec && /^-[^-]/.test(arg)) throw new InputError('bad-argument', `unknown option ${arg} for "${command}"`);
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const [name, inline] = splitInline(arg);
    if (spec?.flags.includes(name)) {
      if (inline !== undefined) throw new InputError('bad-argument', `${name} takes no value, got "${arg}"`);
      flags.add(name);
      continue;
    }
    const known = spec === undefined || BINDING_OPTIONS.includes(name) || spec.options.includes(name);
    if (spec && !known) throw new InputError('bad-argument', `unknown option ${name} for "${command}"`);
    const value = inline ?? rest[(i += 1)];
    if (value === undefined) throw new InputError('bad-argument', `${name} needs a value`);
    // `--save --strict` forgot the file: taking the option as a file name would write a file called "--strict"
    if (inline === undefined && isOptionOf(spec, splitInline(value)[0])) {
      throw new InputError('bad-argument', `${name} needs a value, got the option ${value} (write ${name}=${value} or ./${value} for a file of that name)`);
    }
    if (name === '--dim' && spec?.dimRanges === true && value.includes('..')) {
      const [dim, range] = parseDimRange(value);
      if (dims[dim] !== undefined) throw sweptAndFixed(dim, value.slice(dim.length + 1), bound.get(`${name} ${dim}`)!.text);
      bindOnce(bound, notes, name, dim, range, value);
      ranges[dim] = range;
    } else if (name === '--dim' || name === '--b-dim') {
      const [dim, size] = parseDim(value, name);
      if (name === '--dim' && ranges[dim] !== undefined) throw sweptAndFixed(dim, bound.get(`${name} ${dim}`)!.text, value.slice(dim.length + 1));
      bindOnce(bound, notes, name, dim, size, value);
      const record = name === '--dim' ? dims : bDims;
      // the last given is the last key: where two spellings bind one dim, inference takes the last
      delete record[dim];
      record[dim] = size;
    } else if (name === '--shape') {
      const [tensor, shape] = parseShape(value);
      bindOnce(bound, notes, name, tensor, shape, value);
      shapes[tensor] = shape;
    } else if (name === '--input') {
      const [input, values] = parseInputValue(value);
      bindOnce(bound, notes, name, input, values, value);
      inputValues[input] = values;
    } else {
      if (OUTPUT_OPTIONS.includes(name) && value === '-') throw new InputError('bad-argument', dashOutputText(name));
      const earlier = options.get(name);
      if (earlier !== undefined && earlier !== value) notes.push(`${name} given twice ("${earlier}", then "${value}"): the last applies`);
      options.set(name, value);
    }
  }
  return { command, files, flags, options, dims, bDims, shapes, inputValues, ranges, notes };
}

/** The refusal of `sweep` given one dim both to sweep and fixed (`range`, `fixed`: the values as given). */
export function sweptAndFixed(dim: string, range: string, fixed: string, fixedDim = dim): InputError {
  return new InputError('bad-argument', `--dim ${dim}=${range} sweeps ${dim} and --dim ${fixedDim}=${fixed} fixes it: give the dim to sweep once, as NAME=FROM..TO, and no value of its own`);
}

/** What a binding option bound so far, by option and name: its value and the text it was given as. */
type Bound = Map<string, { readonly value: string; readonly text: string }>;

/**
 * Records the binding of `key` by `option`: a second binding of one name with
 * another value takes its place, as a later option does on most command
 * lines (a plan's suggested args are added to its command: DESIGN.md), with
 * a note in `notes` so it is never silent; the same value again (5 and 05)
 * changes nothing. --dim's single values and ranges are one name space.
 */
function bindOnce(bound: Bound, notes: string[], option: string, key: string, value: unknown, given: string): void {
  const text = given.slice(key.length + 1); // NAME=TEXT
  const id = `${option} ${key}`;
  const earlier = bound.get(id);
  const current = JSON.stringify(value);
  if (earlier !== undefined && earlier.value !== current) notes.push(`${option} ${key} given twice with different values (${earlier.text}, then ${text}): the last applies`);
  bound.set(id, { value: current, text });
}

/** The refusal of `-` as an output: stdout holds the command's report (or its JSON), so "-" cannot be the file. */
function dashOutputText(name: string): string {
  return `${name} -: heapscope does not take "-" for stdout, where the report goes (or the JSON with --json); give a file name, /dev/stdout to print it before the text report, or ./- for a file named "-"`;
}

/** Parses `NAME=FROM..TO` into a dim and the range of its values. */
export function parseDimRange(text: string): [string, [number, number]] {
  const m = /^(.+)=(\d+)\.\.(\d+)$/.exec(text);
  if (m === null) throw new InputError('bad-argument', `--dim expects NAME=FROM..TO such as seq_len=1..4096, got "${text}"`);
  const [from, to] = [Number(m[2]), Number(m[3])];
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new InputError('bad-argument', tooLargeDim('--dim', m[1]!, `${m[2]}..${m[3]}`));
  if (from > to) {
    throw new InputError('bad-argument', `--dim ${m[1]} expects FROM..TO with FROM ≤ TO, got "${m[2]}..${m[3]}"`);
  }
  return [m[1]!, [from, to]];
}

/** Splits `--name=value` at its first '='. */
function splitInline(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

/**
 * Parses a byte size: 123, 4MiB, 512KiB or 512K (binary), 1.5MB (decimal); a
 * whole number of bytes from 1 to 2^53 − 1. The page's fields read sizes the same way (shared/byte-size).
 */
export function parseByteSize(text: string, optionName: string): number {
  const size = readByteSize(text);
  if (size.ok && size.bytes === 0) throw new InputError('bad-argument', `${optionName} must be a whole number of bytes above 0, got "${text}"`);
  if (size.ok) return size.bytes;
  if (size.why === 'large') throw new InputError('bad-argument', tooLargeText(optionName, text));
  if (size.why === 'fraction') throw new InputError('bad-argument', `${optionName} ${text} is not a whole number of bytes (${size.exact} bytes)`);
  throw new InputError('bad-argument', `${optionName} expects a byte size such as 123, 4MiB, 512KiB, 512K or 1.5MB, got "${text}"`);
}

/** --budget-ms: a wall-clock budget for best's searches, in whole milliseconds; undefined when not given (they stop by counted work). */
export function budgetMsOption(args: ParsedArgs): number | undefined {
  const text = args.options.get('--budget-ms');
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1) throw new InputError('bad-argument', `--budget-ms must be a positive whole number of milliseconds, got "${text}"`);
  if (!Number.isSafeInteger(value)) {
    throw new InputError('bad-argument', `--budget-ms is too large: the largest accepted is ${Number.MAX_SAFE_INTEGER} ms (${MAX_EXACT_POWER}), got "${text}"`);
  }
  return value;
}
