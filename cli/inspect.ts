// `heapscope inspect`: decode and infer one or more models, print their tensors.

import { decodeModel } from '../src/model/decode-model';
import { inferShapes, type InferOptions } from '../src/model/infer/shapes';
import { inspectReport, type InspectReport } from '../src/model/inspect-report';
import { formatBytes, formatShape } from '../src/shared/format';
import type { ParsedArgs } from './args';
import { displaySafe, readModelFile, type Output } from './io';
import { inferOptions } from './plan';
import { forEachFile } from './run-files';

/** Decodes, infers and reports one model file. */
export function inspectFile(file: string, infer: InferOptions): InspectReport {
  const model = decodeModel(readModelFile(file), { name: file });
  return inspectReport(inferShapes(model, infer));
}

/** Runs `inspect`; returns the exit code. */
export function runInspect(args: ParsedArgs, io: Output): number {
  return forEachFile(args, io, (file) => inspectFile(file, inferOptions(args)), (file, report, out) => printInspect(displaySafe(file), displaySafe(report), out));
}

function printInspect(file: string, report: InspectReport, io: Output): void {
  const opsets = report.opsets.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ');
  const lines = [
    `${file}`,
    `  producer     ${report.producer || '(not given)'}, IR ${report.irVersion}, opsets ${opsets}`,
    `  nodes        ${report.nodes}`,
    `  activations  ${report.activations} tensors, ${formatBytes(report.activationBytes)} in total${report.bodyNodes > 0 ? ' in the main graph (If/Loop/Scan bodies not counted)' : ''}`,
    `  constants    ${report.constants} computed from constants (not activations)`,
  ];
  if (report.dims.length > 0) {
    lines.push('  dims');
    for (const d of report.dims) lines.push(`    ${d.name}=${d.value}  ${d.axes.join(', ')}  ${d.source === 'default' ? `default: ${d.rule}` : d.source === 'derived' ? `from the dims given: ${d.rule}` : 'given'}`);
  }
  lines.push('', ...valueTable(report));
  if (report.unknownShapes.length > 0) {
    lines.push('', `unknown shapes (${report.unknownShapes.length}):`);
    for (const u of report.unknownShapes) lines.push(`  ${u.name} (${u.producer ?? 'input'}): ${u.reason}`);
  }
  if (report.diagnostics.length > 0) {
    lines.push('', `diagnostics (${report.diagnostics.length}):`);
    for (const d of report.diagnostics) lines.push(`  [${d.code}]${d.node ? ` ${d.node}:` : ''} ${d.message}`);
  }
  io.out(lines.join('\n') + '\n');
}

function valueTable(report: InspectReport): string[] {
  const rows = report.values
    .filter((v) => v.kind !== 'initializer' && v.kind !== 'constant')
    .map((v) => [v.name, v.producer ?? v.kind, v.dtype, formatShape(v.shape ?? undefined), v.bytes === null ? '?' : formatBytes(v.bytes)]);
  const header = ['tensor', 'op', 'dtype', 'shape', 'bytes'];
  const widths = header.map((h, i) => Math.min(48, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
  const fmt = (r: readonly string[]): string =>
    r.map((cell, i) => (i === r.length - 1 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ');
  return [fmt(header), ...rows.map(fmt)];
}
