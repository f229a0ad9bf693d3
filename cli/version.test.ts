// `heapscope --version` and `heapscope version` print the package's version;
// `--version` was refused as an unknown command.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { version: string }).version;

describe('the version', () => {
  it.each([[['--version']], [['version']]])('%j prints heapscope and the package version, exit 0', (argv) => {
    expect(run(argv)).toEqual({ code: 0, out: `heapscope ${VERSION}\n`, err: '' });
  });

  it('prints it as JSON with --json, and is named in the usage', () => {
    expect(run(['--version', '--json'])).toEqual({ code: 0, out: `{"name":"heapscope","version":"${VERSION}"}\n`, err: '' });
    expect(run(['version', '--json']).out).toBe(`{"name":"heapscope","version":"${VERSION}"}\n`);
    expect(run(['--help']).out).toContain('  version [--json]      (or heapscope --version)\n');
  });

  it('takes no files', () => {
    expect(run(['version', 'x'])).toEqual({ code: 2, out: '', err: 'heapscope: version takes no files, got 1\n' });
  });
});
