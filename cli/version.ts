// `heapscope version` (or `--version`): the version of the package the tool
// runs from, read from its package.json.

import { readFileSync } from 'node:fs';
import { InputError } from '../src/shared/errors';
import type { ParsedArgs } from './args';
import type { Output } from './io';

/** The package's name and version, from the package.json beside cli/. */
export function packageVersion(): { readonly name: string; readonly version: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** Runs `version`: `heapscope 0.1.0`, or `{ "name", "version" }` with --json; exit 0. */
export function runVersion(args: ParsedArgs, io: Output): number {
  if (args.files.length > 0) throw new InputError('bad-argument', `version takes no files, got ${args.files.length}`);
  const { name, version } = packageVersion();
  io.out(args.flags.has('--json') ? JSON.stringify({ name, version }) + '\n' : `${name} ${version}\n`);
  return 0;
}
