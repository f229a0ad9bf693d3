// `npm run bench`: decode and shape-inference time and peak memory for every model
// in ../shared/models/ and for a generated model of over 1 GB, each measured in a
// fresh child process (bench/decode-one.ts). Prints figures and the project's
// targets (PASS / over target); never fails on time: exits 0 unless it crashes.
//
//   npm run bench -- [--size-gb N] [--no-corpus] [--no-large] [--repeat N]

import { spawn } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeLargeModel, type LargeModelInfo } from '../src/model/testing/large-model-writer';
import type { OneResult } from './decode-result';
import { formatFindings, formatTable, formatTargets, type Row } from './decode-table';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modelsDir = resolve(root, '../shared/models');
const CHILD_TIMEOUT_MS = 15 * 60 * 1000;

/** Every .onnx file under `dir`, sorted. */
function listModels(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.onnx'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Runs bench/decode-one.ts on `file` in a fresh Node process. */
function measure(label: string, file: string, args: readonly string[]): Promise<Row> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(root, 'bench/decode-one.ts'), file, ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) {
        done({ label, result: JSON.parse(last) as OneResult, failure: undefined });
        return;
      }
      const reason = stderr.trim().split('\n').filter((l) => /Error|error/.test(l))[0] ?? stderr.trim().split('\n').at(-1);
      done({ label, result: undefined, failure: `exit ${code ?? signal}: ${reason ?? 'no output'}` });
    });
  });
}

async function measureCorpus(repeat: number): Promise<Row[]> {
  if (!existsSync(modelsDir)) {
    console.log(`notice: ${modelsDir} is absent; skipping the real-model corpus`);
    return [];
  }
  const rows: Row[] = [];
  for (const file of listModels(modelsDir)) {
    rows.push(await measure(relative(modelsDir, file), file, ['--repeat', String(repeat)]));
  }
  return rows;
}

/** Generates the large model into a temporary folder and measures it twice (Node Buffer, plain Uint8Array). */
async function measureLarge(sizeGb: number): Promise<{ rows: Row[]; info: LargeModelInfo | undefined }> {
  const targetBytes = Math.ceil(sizeGb * 1024 ** 3);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-bench-'));
  const stats = statfsSync(dir);
  if (stats.bavail * stats.bsize < targetBytes * 1.2) {
    console.log(`notice: not enough free disk in ${tmpdir()} for a ${sizeGb} GiB model; skipping it`);
    rmSync(dir, { recursive: true, force: true });
    return { rows: [], info: undefined };
  }
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  const onSignal = (): void => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const path = join(dir, 'generated.onnx');
    let t = performance.now();
    const info = writeLargeModel(path, { targetBytes });
    const writeMs = performance.now() - t;
    t = performance.now();
    const fd = openSync(path, 'r+');
    fsyncSync(fd);
    closeSync(fd);
    const syncMs = performance.now() - t;
    warmPageCache(path);
    console.log(
      `generated ${path}: ${(info.fileBytes / 1e9).toFixed(3)} GB (${info.fileBytes} bytes), ${info.layers} layers, ` +
        `d=${info.hidden}, ffn=${info.ffn}, vocab=${info.vocab}, ${info.nodes} nodes, ${info.initializers.length} initializers; ` +
        `written in ${(writeMs / 1000).toFixed(2)} s (${(info.fileBytes / 1e6 / (writeMs / 1000)).toFixed(0)} MB/s), fsync ${(syncMs / 1000).toFixed(2)} s`,
    );
    const label = `generated ${(info.fileBytes / 1e9).toFixed(2)} GB`;
    const rows = [
      await measure(`${label} (Buffer)`, path, ['--view', 'buffer', '--repeat', '3', '--probes']),
      await measure(`${label} (Uint8Array)`, path, ['--view', 'uint8array', '--repeat', '3', '--probes']),
    ];
    return { rows, info };
  } finally {
    cleanup();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

/** Reads the file once through a small buffer, so every measurement reads from the page cache. */
function warmPageCache(path: string): void {
  const chunk = Buffer.allocUnsafe(16 * 1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    while (readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'size-gb': { type: 'string', default: '1' },
      'no-corpus': { type: 'boolean' },
      'no-large': { type: 'boolean' },
      repeat: { type: 'string', default: '5' },
    },
  });
  console.log(`heapscope decode bench: node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}`);
  const corpus = values['no-corpus'] ? [] : await measureCorpus(Number(values.repeat));
  const large = values['no-large'] ? { rows: [], info: undefined } : await measureLarge(Number(values['size-gb']));
  const rows = [...corpus, ...large.rows];
  console.log(`\nFirst pass of each file in a fresh process (cold JIT); "warm" is the best of the repeated passes.`);
  console.log(`Peak Δ is over the baseline after startup and GC; the file bytes themselves count (a Buffer of the file size).\n`);
  console.log(formatTable(rows));
  if (large.rows.length > 0) {
    console.log('\nTargets for the generated model (informational; the bench never fails on them):');
    for (const row of large.rows) {
      if (row.result === undefined) console.log(`${row.label}: failed: ${row.failure}`);
      else console.log([...formatTargets(row.label, row.result), ...formatFindings(row.result)].join('\n'));
    }
  }
  mkdirSync(join(root, 'bench/out'), { recursive: true });
  writeFileSync(join(root, 'bench/out/decode.json'), `${JSON.stringify({ rows, large: large.info && { ...large.info, initializers: large.info.initializers.length } }, null, 1)}\n`);
  console.log(`\nraw figures: bench/out/decode.json`);
}

await main();
