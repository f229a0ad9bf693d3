// File reading and output helpers for the CLI: typed errors for unreadable files,
// stdout/stderr writers that tests can capture.

import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { MODEL_HEAD_BYTES, sniffModelHead } from '../src/model/decode-model';
import { escapeControlsInName, escapeControlsInText } from '../src/shared/control-chars';
import { InputError } from '../src/shared/errors';
import { formatBytes } from '../src/shared/format';
import { boundedMessage, MESSAGE_CHARS } from '../src/shared/short-name';

/** Where a command writes; tests pass buffers, main passes process streams. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** Largest model file the CLI reads (protobuf's own limit is 2 GiB). */
export const MAX_MODEL_BYTES = 2 ** 31 - 1;

/** The largest file of one kind a command reads, and what that kind is called in the refusal. */
export interface FileLimit {
  readonly bytes: number;
  readonly what: string; // 'model', 'problem CSV'
}

/** Models: what `inspect`, `plan`, `diff` and `sweep` read. */
export const MODEL_LIMIT: FileLimit = { bytes: MAX_MODEL_BYTES, what: 'model' };

/** The refusal of a file over `limit`, its human size computed from the same number. */
export function tooLargeMessage(path: string, size: number, limit: FileLimit): string {
  return `${path} is ${size} bytes; the largest ${limit.what} heapscope reads is ${limit.bytes} bytes (${formatBytes(limit.bytes)})`;
}

/**
 * Reads a whole regular file, with a typed error naming the file when it
 * cannot. Devices, FIFOs and sockets are refused by name: their `stat` size
 * says nothing of what reading them would bring (/dev/zero never ends).
 */
export function readInputFile(path: string, limit: FileLimit = MODEL_LIMIT, sniff?: Sniff): Uint8Array {
  let size: number;
  try {
    const stat = statSync(path);
    const problem = notAFile(path, stat);
    if (problem !== undefined) throw new InputError('io', problem);
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    // "-" is a file name here, as on most command lines that take files; when there is none, say stdin is not read
    const stdin = path === '-' && (error as NodeJS.ErrnoException).code === 'ENOENT' ? `; heapscope reads the ${limit.what} from a file, not from stdin` : '';
    throw new InputError('io', `cannot read ${path}: ${readProblem(error)}${stdin}`);
  }
  if (size > limit.bytes) throw new InputError('too-large', tooLargeMessage(path, size, limit));
  if (sniff !== undefined) sniff.check(readHead(path, sniff.bytes), size);
  const buffer = readFileSync(path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** A look at a file's first `bytes` that throws for what cannot be read as wanted, before the whole file is read. */
export interface Sniff {
  readonly bytes: number;
  readonly check: (head: Uint8Array, size: number) => void;
}

/**
 * Reads a model file: its first bytes are sniffed first, so a file that
 * cannot be a model is refused without reading it all (up to 2 GiB).
 */
export function readModelFile(path: string): Uint8Array {
  return readInputFile(path, MODEL_LIMIT, { bytes: MODEL_HEAD_BYTES, check: (head, size) => sniffModelHead(head, path, size) });
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
function readHead(path: string, bytes: number): Uint8Array {
  const head = new Uint8Array(bytes);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    let got = 0;
    for (let n = -1; n !== 0 && got < bytes; got += n) n = readSync(fd, head, got, bytes - got, got);
    return head.subarray(0, got);
  } catch (error) {
    throw new InputError('io', `cannot read ${path}: ${readProblem(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a file cannot be read, in words. */
export function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code === 'ENAMETOOLONG') return 'the file name is too long';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Why `path` (of `stat`) is not a file heapscope reads, in the words every file it reads is refused with; undefined for a regular file. */
export function notAFile(path: string, stat: Stats): string | undefined {
  if (stat.isDirectory()) return `${path} is a directory, not a file`;
  if (!stat.isFile()) return `${path} is ${specialKind(stat)}, not a regular file; heapscope reads files only`;
  return undefined;
}

function specialKind(stat: Stats): string {
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isFIFO()) return 'a pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Text as a terminal shows it safely: control characters (escape sequences,
 * carriage returns, C1 controls) and bidirectional overrides become visible
 * `\uXXXX` escapes (valid inside JSON strings too), so a name from a file can
 * neither run terminal commands nor hide text. Newlines and tabs are kept.
 */
export function terminalSafe(text: string): string {
  return escapeControlsInText(text);
}

/**
 * A deep copy of a result with every string made safe to print, newlines and
 * tabs included: names from a file cannot forge lines of a text report. Long
 * names are cut in their middle (cutLongWords), and no string passes
 * MESSAGE_CHARS: a text report's lines stay readable (--json keeps names whole).
 */
export function displaySafe<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return escapeControlsInName(boundedMessage(value)) as T;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  // Results are a few levels deep; anything deeper came from a file and is not shown.
  if (depth > MAX_DISPLAY_DEPTH) return (Array.isArray(value) ? [] : {}) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => displaySafe(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[displaySafe(k)] = displaySafe(v, depth + 1);
  return out as T;
}

/** Nesting of a result displaySafe copies. */
const MAX_DISPLAY_DEPTH = 32;

/** One line of an error message: line breaks inside it shown as ⏎, long names cut, at most `max` characters, cut in the middle so the reason at its end stays. */
export function oneLine(text: string, max = MESSAGE_CHARS): string {
  return boundedMessage(text.replace(/\r\n|\r|\n/g, ' ⏎ '), max);
}

/**
 * Output that never lets a file's bytes reach the terminal raw: stdout through
 * terminalSafe, stderr as one safe line per message.
 */
export function guardedOutput(io: Output): Output {
  return {
    out: (text) => io.out(terminalSafe(text)),
    err: (text) => {
      const ends = text.endsWith('\n');
      io.err(terminalSafe(oneLine(ends ? text.slice(0, -1) : text)) + (ends ? '\n' : ''));
    },
  };
}
