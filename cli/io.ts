// File reading and output helpers for the CLI: typed errors for unreadable files,
// stdout/stderr writers that tests can capture.

import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../src/shared/errors';

/** Where a command writes; tests pass buffers, main passes process streams. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** Largest model file the CLI reads (protobuf's own limit is 2 GiB). */
export const MAX_MODEL_BYTES = 2 ** 31 - 1;

/** Reads a whole file, with a typed error naming the file when it cannot. */
export function readInputFile(path: string, maxBytes = MAX_MODEL_BYTES): Uint8Array {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new InputError('io', `${path} is a directory, not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code);
    throw new InputError('io', `cannot read ${path}: ${why}`);
  }
  if (size > maxBytes) {
    throw new InputError('too-large', `${path} is ${size} bytes; the largest model heapscope reads is ${maxBytes} bytes (2 GiB)`);
  }
  const buffer = readFileSync(path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
