// Formats the results of bench/decode.ts: the per-file table, the targets for the
// generated model (PASS / over target, informational) and where decode time goes.

import type { OneResult, PassTimes } from './decode-result';

/** Targets the project must meet on the generated model. */
export const TARGETS = {
  decodeOverRead: 3, // decode time at most 3x the plain file-read time
  peakOverFile: 1.5, // peak RSS increase under 1.5x the file size
} as const;

/** A row of the table: a label and what its child process measured (or why it failed). */
export interface Row {
  readonly label: string;
  readonly result: OneResult | undefined;
  readonly failure: string | undefined;
}

const mb = (bytes: number): number => bytes / 1e6;

function fmtMs(ms: number | undefined): string {
  if (ms === undefined) return '-';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function fmtSize(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${mb(bytes).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

function fmtRate(bytes: number, ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return '';
  const rate = mb(bytes) / (ms / 1000);
  return ` (${rate >= 100 ? rate.toFixed(0) : rate.toFixed(1)} MB/s)`;
}

function fmtRatio(value: number): string {
  return value >= 0.1 || value === 0 ? `${value.toFixed(2)}x` : `${value.toPrecision(2)}x`;
}

function ratio(a: number | undefined, b: number): string {
  return a === undefined || b <= 0 ? '-' : fmtRatio(a / b);
}

function work(times: PassTimes): number | undefined {
  return times.decodeMs === undefined ? undefined : times.decodeMs + (times.inferMs ?? 0);
}

function cells(result: OneResult): string[] {
  const { first, best, memory, fileBytes } = result;
  const rss = memory.peakRss - memory.baselineRss;
  const arrayBuffers = memory.peakArrayBuffers - memory.baselineArrayBuffers;
  const decode = result.decode === 'ok' ? fmtMs(first.decodeMs) + fmtRate(fileBytes, first.decodeMs) : result.decode;
  const infer = result.infer === 'ok' ? fmtMs(first.inferMs) : result.infer;
  return [
    fmtSize(fileBytes),
    fmtMs(first.readMs) + fmtRate(fileBytes, first.readMs),
    decode,
    infer,
    ratio(first.decodeMs, first.readMs),
    ratio(work(first), first.readMs),
    best === undefined ? '-' : `${fmtMs(work(best) ?? best.readMs)}/${fmtMs(best.readMs)}`,
    `${fmtSize(rss)} ${ratio(rss, fileBytes)}`,
    `${fmtSize(arrayBuffers)} ${ratio(arrayBuffers, fileBytes)}`,
  ];
}

const HEADER = [
  'model',
  'size',
  'read ms (MB/s)',
  'decode ms (MB/s)',
  'infer ms',
  'dec/read',
  '(dec+inf)/read',
  'warm dec+inf/read ms',
  'peak RSS Δ (×file)',
  'peak ArrayBuffers Δ (×file)',
];

/** The table of every row, columns padded; failed rows carry their reason. */
export function formatTable(rows: readonly Row[]): string {
  const body = rows.map((row) =>
    row.result === undefined ? [row.label, `failed: ${row.failure ?? '?'}`] : [row.label, ...cells(row.result)],
  );
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.filter((r) => r.length > 2).map((r) => r[i]?.length ?? 0)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(HEADER), ...body.map((r) => (r.length === 2 ? `${r[0]}  ${r[1]}` : line(r)))].join('\n');
}

function verdict(value: number, limit: number, strict: boolean): string {
  return (strict ? value < limit : value <= limit) ? 'PASS' : 'over target';
}

/**
 * The target lines for one measurement of the generated model. Time ratios are
 * judged on the best warm pass (read and decode of the same pass), because a
 * process's first touch of a gigabyte of fresh memory varies several-fold on a VM;
 * the first pass is shown beside it.
 */
export function formatTargets(label: string, result: OneResult): string[] {
  const { first, memory, fileBytes } = result;
  const judged = result.best ?? first;
  if (result.decode !== 'ok' || judged.decodeMs === undefined || first.decodeMs === undefined) {
    return [`${label}: decodeOnnx ${result.decode}${result.error ? ` (${result.error})` : ''}; targets not measured`];
  }
  const pass = result.best === undefined ? 'first pass' : `best of ${result.passes - 1} warm passes`;
  const timeLine = (name: string, ms: (p: PassTimes) => number, firstMs: number): string => {
    const value = ms(judged) / judged.readMs;
    return (
      `  ${name.padEnd(30)} ${fmtRatio(value)}  ${verdict(value, TARGETS.decodeOverRead, false).padEnd(11)}` +
      `  (${fmtMs(ms(judged))} / ${fmtMs(judged.readMs)} ms, ${pass}; first pass ${fmtRatio(firstMs / first.readMs)}: ` +
      `${fmtMs(firstMs)} / ${fmtMs(first.readMs)} ms)`
    );
  };
  const peakRatio = (memory.peakRss - memory.baselineRss) / fileBytes;
  const inferNote = result.infer === 'ok' ? '' : ` — inferShapes ${result.infer}`;
  return [
    `${label}:`,
    timeLine(`decode ≤ ${TARGETS.decodeOverRead}x read time:`, (p) => p.decodeMs ?? 0, first.decodeMs),
    timeLine(`decode+infer ≤ ${TARGETS.decodeOverRead}x read time:`, (p) => work(p) ?? 0, work(first) ?? 0) + inferNote,
    `  ${`peak RSS Δ < ${TARGETS.peakOverFile}x file size:`.padEnd(30)} ${fmtRatio(peakRatio)}  ${verdict(peakRatio, TARGETS.peakOverFile, true).padEnd(11)}` +
      `  (${fmtSize(memory.peakRss - memory.baselineRss)} over ${fmtSize(memory.baselineRss)} baseline, first pass, ` +
      `${memory.rssSource}, ${memory.samples} samples)`,
  ];
}

/** Where decode time goes, and anything copied: facts for the decoder's owner. */
export function formatFindings(result: OneResult): string[] {
  const lines: string[] = [];
  const { facts, probes } = result;
  if (facts !== undefined) {
    lines.push(
      `  ${facts.nodes} nodes, ${facts.initializers} initializers, ${fmtSize(facts.rawBytes)} of raw_data; ` +
        (facts.copiedBytes === 0
          ? 'every raw_data is a view of the file bytes'
          : `${facts.copiedInitializers} raw_data COPIED (${fmtSize(facts.copiedBytes)}): not views of the file bytes`),
    );
    if (facts.values !== undefined) lines.push(`  inferred ${facts.values} values, ${facts.unknownShapes} with unknown shape, ${facts.diagnostics} diagnostics`);
  }
  if (probes !== undefined) {
    const conversion =
      probes.warmDecodeMs === undefined
        ? ''
        : `; decodeOnnx ${fmtMs(probes.warmDecodeMs)} ms, so the IR conversion and checks cost ~${fmtMs(Math.max(0, probes.warmDecodeMs - probes.protobufDecodeMs))} ms`;
    lines.push(
      `  warm, best of 5: onnx.ModelProto.decode alone ${fmtMs(probes.protobufDecodeMs)} ms (raw_data ${probes.protobufRawIsView ? 'a view' : 'COPIED'})${conversion}`,
    );
    if (probes.otherViewDecodeMs !== undefined) {
      lines.push(`  warm, best of 5: decodeOnnx on a ${probes.otherView === 'buffer' ? 'Node Buffer' : 'plain Uint8Array'} ${fmtMs(probes.otherViewDecodeMs)} ms`);
    }
  }
  return lines;
}
