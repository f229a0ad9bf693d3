// A test's own directory of input files: each written once under a fresh
// temporary directory, its path returned, so a test never writes beside the
// models it reads.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A writer of files into a new temporary directory named from `prefix`: `file(name, bytes)` writes one and returns its path. */
export function tempFiles(prefix: string): (name: string, bytes: Uint8Array) => string {
  const dir = mkdtempSync(join(tmpdir(), `heapscope-${prefix}-`));
  return (name, bytes) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
}
