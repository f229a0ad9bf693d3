// A test's own directory of input files: each written once under a fresh
// temporary directory, its path returned, so a test never writes beside the
// models it reads.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty temporary directory named from `prefix`, for files a command writes. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `heapscope-${prefix}-`));
}

/** `text` written as problem.csv in a new temporary directory: a problem for `solve`. */
export function problemCsv(text: string, prefix = 'solve'): string {
  const path = join(tempDir(prefix), 'problem.csv');
  writeFileSync(path, text);
  return path;
}

/** A writer of files into a new temporary directory named from `prefix`: `file(name, bytes)` writes one and returns its path. */
export function tempFiles(prefix: string): (name: string, bytes: Uint8Array) => string {
  const dir = tempDir(prefix);
  return (name, bytes) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
}
