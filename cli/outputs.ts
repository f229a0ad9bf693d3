// The files a command writes: every one checked against the command's inputs
// and against each other before any is written (by path, through symlinks and
// `..`, and by device and inode, through hard links), its directory and any
// FIFO's reader checked before the work, then written with a one-line error in
// words when the system refuses.

import { accessSync, closeSync, constants, fstatSync, openSync, realpathSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../src/shared/errors';

/** A file the command reads: its path and what it is to the command ("the model it plans"). */
export interface CommandInput {
  readonly path: string;
  readonly role: string;
}

/** A file the command will write: the option naming it, its path, and the path the option gave when the file's name is derived from it. */
export interface CommandOutput {
  readonly option: string;
  readonly path: string;
  readonly given?: string; // --csv out.csv for out.sram.csv
  readonly region?: string; // the region whose file a derived path is ('sram' for out.sram.csv)
}

/**
 * Throws InputError('bad-argument') when an output would land on an input
 * (the input would be lost) or two outputs on one file (one would be lost).
 * Devices and pipes (/dev/stdout, /dev/null) may take several outputs.
 */
export function checkOutputs(inputs: readonly CommandInput[], outputs: readonly CommandOutput[]): void {
  for (const output of outputs) {
    for (const input of inputs) {
      if (!sameFile(output.path, input.path)) continue;
      throw new InputError('bad-argument', `${outputLabel(output)} would overwrite ${input.role}${sameFileAs(output.path, input.path)}; give another file name`);
    }
  }
  outputs.forEach((a, i) => {
    const b = outputs.slice(0, i).find((earlier) => sameFile(earlier.path, a.path) && !isStream(a.path));
    if (b !== undefined && sameOption(a, b)) throw new InputError('bad-argument', regionsCollide(a, b));
    if (b !== undefined) throw new InputError('bad-argument', `${outputLabel(b)} and ${outputLabel(a)} would write the same file; give each its own name`);
    // region names made safe for a file name can differ by case alone ("S RAM" and "s_ram"): one file on macOS and Windows
    const folded = outputs.slice(0, i).find((earlier) => a.given !== undefined && earlier.given === a.given && earlier.path.toLowerCase() === a.path.toLowerCase());
    if (folded !== undefined) {
      throw new InputError('bad-argument', `${outputLabel(folded)} and ${outputLabel(a)} differ only by case: one file on a case-insensitive disk (macOS, Windows), where the second would replace the first; give the regions names that differ other than by case`);
    }
  });
}

/**
 * Throws InputError('bad-argument') when `--json` is given and an output is
 * the command's own stdout (/dev/stdout, /proc/self/fd/1, or the file, pipe or
 * terminal fd 1 is): the CSV or C text would land inside the JSON. Checked
 * before any planning; /dev/stderr and /dev/null stay allowed.
 */
export function checkJsonStdout(outputs: readonly Pick<CommandOutput, 'option' | 'path'>[]): void {
  const stdout = stdoutIdentity();
  for (const o of outputs) {
    const named = STDOUT_PATHS.includes(resolve(o.path));
    if (!named && (stdout === undefined || identity(o.path) !== stdout || identity('/dev/null') === stdout)) continue;
    throw new InputError('bad-argument', `${o.option} ${o.path} is this command's stdout, where --json prints the JSON; give ${o.option} a file, or drop --json`);
  }
}

/**
 * Throws InputError('bad-argument') when an output is given as a file name
 * (not /dev/stdout or another stream path) and that file is the regular file
 * the command's stdout was sent to (`--save plan.json > plan.json`): the text
 * report would be written into it after the output, a plan file no longer
 * read back. Checked before any planning; with --json, checkJsonStdout applies.
 */
export function checkTextStdout(outputs: readonly Pick<CommandOutput, 'option' | 'path'>[]): void {
  const stdout = stdoutFileIdentity();
  if (stdout === undefined) return;
  for (const o of outputs) {
    if (/^\/(dev|proc)(\/|$)/.test(resolve(o.path)) || identity(o.path) !== stdout) continue;
    throw new InputError('bad-argument', `${o.option} ${o.path} is the file this command's stdout goes to, where the report is written: it would land after the output in the same file; give ${o.option} another file, or /dev/stdout to print it before the report`);
  }
}

/** Device and inode of fd 1 when it is a regular file; undefined for a terminal, a pipe, or a closed stdout. */
function stdoutFileIdentity(): string | undefined {
  try {
    const stat = fstatSync(1);
    return stat.isFile() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** The names of the command's own stdout. */
const STDOUT_PATHS: readonly string[] = ['/dev/stdout', '/proc/self/fd/1', '/dev/fd/1'];

/** Device and inode of fd 1, as identity() gives a path's; undefined when it is closed. */
function stdoutIdentity(): string | undefined {
  try {
    const stat = fstatSync(1);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/** True when two outputs are files one option derives from one path, one per region. */
function sameOption(a: CommandOutput, b: CommandOutput): boolean {
  return a.option === b.option && a.given !== undefined && a.given === b.given && a.region !== undefined && b.region !== undefined;
}

/** The refusal of two regions whose names make one file name: the user gave one path, so only a region's name can change. */
function regionsCollide(a: CommandOutput, b: CommandOutput): string {
  return `${a.option} ${a.given} writes a file per region, and regions '${b.region}' and '${a.region}' both make ${a.path} (characters other than letters, digits, - and _ become _); rename one of the regions in the target`;
}

function outputLabel(o: CommandOutput): string {
  return o.given === undefined ? `${o.option} ${o.path}` : `${o.option} ${o.given} (its file ${o.path})`;
}

/**
 * How an output names an input's file, when not by the same path: said with the input's path, so the refusal names the
 * input in one form however the output reached it (a symbolic link, another spelling of the path, a hard link).
 */
function sameFileAs(output: string, input: string): string {
  if (output === input) return '';
  if (resolve(output) === resolve(input)) return ` (the same file as ${input})`;
  const how = canonical(output) === canonical(input) ? 'a symbolic link' : 'a hard link';
  return ` (the same file as ${input}, through ${how})`;
}

/** True when two paths name one file: the same path once symlinks and `..` are resolved, or the same device and inode. */
export function sameFile(a: string, b: string): boolean {
  if (canonical(a) === canonical(b)) return true;
  const [x, y] = [identity(a), identity(b)];
  return x !== undefined && y !== undefined && x === y;
}

/** The real path of a file, or of its directory joined with its name when the file does not exist yet. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

function identity(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * True when `path` takes one stream rather than a family of files beside it: a
 * device, a FIFO or a socket (/dev/stdout into a pipe or a terminal), or any
 * path in /dev or /proc (/dev/stdout redirected to a file is still a name in
 * /dev, and a file derived from it, /dev/stdout.sram, would be a stray file
 * there).
 */
export function isStreamPath(path: string): boolean {
  const special = /^\/(dev|proc)(\/|$)/;
  if (special.test(resolve(path)) || special.test(canonical(path))) return true;
  try {
    const stat = statSync(path);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}

function isStream(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Throws InputError('io') when an output cannot be written where it is named,
 * before the command does its work (a solve of a large problem, a plan): its
 * directory is missing, not a directory or not writable, the path is a
 * directory (a `--csv` path may be one when the plan writes a file per region
 * beside it) or a file that cannot be written, or a FIFO no program reads
 * (writing one would wait for a reader for ever). A FIFO with a reader is
 * held open until the command ends (releaseOutputs), so the reader does not
 * see the end of the stream before the output is written.
 */
export function checkOutputPlaces(outputs: readonly Pick<CommandOutput, 'option' | 'path'>[]): void {
  for (const o of outputs) {
    const problem = placeProblem(o.path, o.option === '--csv');
    if (problem !== undefined) throw new InputError('io', `cannot write ${o.path}: ${problem}`);
  }
}

/** Why `path` cannot take an output, in words; undefined when it can, as far as can be told before writing. */
function placeProblem(path: string, directoryAllowed: boolean): string | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? directoryProblem(dirname(resolve(path))) : writeProblem(code, error);
  }
  if (stat.isDirectory()) return directoryAllowed ? undefined : writeProblem('EISDIR', undefined);
  if (stat.isFIFO()) return ownStream(path) ? undefined : holdReader(path);
  if (!stat.isFile()) return undefined;
  return accessProblem(path);
}

/** Why no new file can be made in `dir`, in words; undefined when one can. */
function directoryProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return writeProblem('ENOTDIR', undefined);
  } catch (error) {
    return writeProblem((error as NodeJS.ErrnoException).code, error);
  }
  return accessProblem(dir);
}

function accessProblem(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return writeProblem((error as NodeJS.ErrnoException).code, error);
  }
}

/** FIFOs opened for writing without waiting, by path: each keeps its reader from seeing the end of the stream until the command ends. */
const heldPipes = new Map<string, number>();

/** Opens the FIFO `path` for writing without waiting and keeps it open; why not, in words, when no program reads it. */
function holdReader(path: string): string | undefined {
  if (heldPipes.has(path)) return undefined;
  try {
    heldPipes.set(path, openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENXIO' ? NO_READER : writeProblem(code, error);
  }
}

const NO_READER = 'it is a pipe (FIFO) that no program is reading; start its reader first';

/** Closes the FIFOs checkOutputPlaces held open: their readers see the end of the stream. */
export function releaseOutputs(): void {
  for (const fd of heldPipes.values()) closeSync(fd);
  heldPipes.clear();
}

/**
 * Writes a whole file; InputError('io') in words when it cannot be written. A
 * pipe whose reader closed it early (`--csv /dev/stdout | head`) took what it
 * wanted: the rest is dropped quietly and the command goes on to its verdict.
 * A FIFO no program reads is refused in words, where opening it would wait.
 */
export function writeOutputFile(path: string, data: string | Uint8Array): string {
  try {
    const stream = redirectedStream(path);
    if (stream !== undefined) writeAll(stream, data);
    else if (isFifo(path)) writePipe(path, data);
    else writeFileSync(path, data);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // the command's own stdout or stderr, whose reader has gone: as EPIPE
    if (code === 'EPIPE' || (code === 'ENXIO' && ownStream(path))) return path;
    throw new InputError('io', `cannot write ${path}: ${code === 'ENXIO' && isFifo(path) ? NO_READER : writeProblem(code, error)}`);
  }
  return path;
}

function isFifo(path: string): boolean {
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Writes to a FIFO: opened first without waiting (ENXIO when no program reads
 * it), then for writing that waits while the pipe is full; the first stays
 * held until the command ends, so a second output to the same FIFO finds its
 * reader still there.
 */
function writePipe(path: string, data: string | Uint8Array): void {
  if (!heldPipes.has(path)) heldPipes.set(path, openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  const fd = openSync(path, constants.O_WRONLY);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** True when `path` is the command's own stdout or stderr (/dev/stdout into a pipe). */
function ownStream(path: string): boolean {
  const target = identity(path);
  if (target === undefined) return false;
  return [1, 2].some((fd) => {
    try {
      const stat = fstatSync(fd);
      return `${stat.dev}:${stat.ino}` === target;
    } catch {
      return false;
    }
  });
}

/**
 * The standard stream (1 or 2) that `path` names when the shell sent it to a
 * regular file (`--csv /dev/stdout > all.txt`): opened anew, the file would be
 * emptied and then written over by the command's own report, so the output
 * goes through the stream's descriptor instead, in order with the rest.
 */
function redirectedStream(path: string): number | undefined {
  const target = identity(path);
  if (target === undefined) return undefined;
  for (const fd of [1, 2]) {
    try {
      const stat = fstatSync(fd);
      if (stat.isFile() && `${stat.dev}:${stat.ino}` === target) return fd;
    } catch {
      // a closed stream is not where the output goes
    }
  }
  return undefined;
}

/** Writes all of `data` to descriptor `fd` (writeSync may take part of it). */
function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

/** Why a file cannot be written, in words. */
const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the file name is too long',
  ETXTBSY: 'the file is a running program',
  EBUSY: 'the file is busy',
  ELOOP: 'too many symbolic links',
  ENXIO: 'no device or reader there to write to',
  EIO: 'the device or file system failed to write it (EIO)',
  EEXIST: 'a file of that name already exists',
  EINVAL: 'the file does not accept this write (EINVAL)',
  EFBIG: 'the file would be larger than the file system allows',
  EMFILE: 'too many files open',
  ENFILE: 'too many files open in the system',
  EAGAIN: 'the device is not ready to take it; try again',
  ENODEV: 'no device behind that path',
  ESPIPE: 'the output cannot be written at a position (ESPIPE)',
  ETIMEDOUT: 'the device or network file system did not answer in time',
  ESTALE: 'the network file system no longer knows the file',
};

/** Why a file or stream cannot be written, in words. */
export function writeProblem(code: string | undefined, error: unknown): string {
  if (code !== undefined && Object.hasOwn(WRITE_PROBLEMS, code)) return WRITE_PROBLEMS[code]!;
  if (code !== undefined) return `the system refused the write (${code})`;
  return error instanceof Error ? error.message : String(error);
}
