// `heapscope inspect`: decode and infer one or more models, print their tensors.

import { decodeModel } from '../src/model/decode-model';
import { inferShapes, type InferOptions } from '../src/model/infer/shapes';
import { SIZES_NOTHING } from '../src/model/infer/dims';
import { inspectReport, type InspectReport } from '../src/model/inspect-report';
import { counted, formatBytes, formatShape } from '../src/shared/format';
import { shortName } from '../src/shared/short-name';
import type { ParsedArgs } from './args';
import { displaySafe, readModelFile, type Output } from './io';
import { inferOptions } from './plan';
import { noteIgnoredOptions } from './option-notes';
import { forEachFile } from './run-files';

/** Decodes, infers and reports one model file. */
export function inspectFile(file: string, infer: InferOptions): InspectReport {
  const model = decodeModel(readModelFile(file), { name: file });
  return inspectReport(inferShapes(model, infer));
}

/** Runs `inspect`; returns the exit code. */
export function runInspect(args: ParsedArgs, io: Output): number {
  const work = (file: string): InspectReport => {
    const report = inspectFile(file, inferOptions(args));
    noteIgnoredOptions(io, file, report); // a misspelled --dim shows in a CI log, as plan's does
    return report;
  };
  return forEachFile(args, io, work, (file, report, out) => printInspect(displaySafe(file), displaySafe(report), out));
}

function printInspect(file: string, report: InspectReport, io: Output): void {
  const opsets = report.opsets.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ');
  const lines = [
    `${file}`,
    `  producer     ${report.producer || '(not given)'}, IR ${report.irVersion}, opsets ${opsets}`,
    `  nodes        ${report.nodes}`,
    `  activations  ${counted(report.activations, 'tensor')}, ${activationTotal(report)}`,
    `  constants    ${report.constants} computed from constants (not activations)`,
  ];
  if (report.dims.length > 0) {
    lines.push('  dims');
    for (const d of report.dims) lines.push(`    ${d.name}=${d.value}  ${d.axes.join(', ')}  ${dimSource(d)}`);
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

/** The activations' total: a lower bound, and said so, when some sizes are unknown (never counted as 0 bytes). */
function activationTotal(report: InspectReport): string {
  const unknown = report.unknownActivations;
  const bodies = report.bodyNodes > 0;
  if (unknown > 0 && unknown === report.activations) return `all of unknown size${bodies ? ' in the main graph (If/Loop/Scan bodies not counted)' : ''}`;
  const left = [bodies ? 'If/Loop/Scan bodies' : '', unknown > 0 ? `${counted(unknown, 'tensor')} of unknown size` : ''].filter((w) => w !== '').join(' and ');
  return `${unknown > 0 ? '≥ ' : ''}${formatBytes(report.activationBytes)} in total${bodies ? ' in the main graph' : ''}${left === '' ? '' : ` (${left} not counted)`}`;
}

/** The widest a column of the tensor table gets but the last. */
const COLUMN_CHARS = 48;

/** Where a dim's value comes from, in the dims list; a dim that sizes nothing says so, given or default. */
function dimSource(d: InspectReport['dims'][number]): string {
  const nothing = SIZES_NOTHING;
  if (d.source === 'default') return d.sizesNothing === true ? nothing : `default: ${d.rule}`;
  if (d.source === 'derived') return `from the dims given: ${d.rule}`;
  const given = d.givenAs === undefined ? 'given' : `given as ${d.givenAs}`; // by an input axis: the key the user wrote
  return d.sizesNothing === true ? `${given}; ${nothing}` : given;
}

/**
 * The tensor table. The name comes last: a name of any length (shortName'd in
 * text to 120 characters) then never pushes the columns after it out of line;
 * a cell wider than its column (a shape of many dims) is cut in its middle.
 */
function valueTable(report: InspectReport): string[] {
  const rows = report.values
    .filter((v) => v.kind !== 'initializer' && v.kind !== 'constant')
    .map((v) => [v.producer ?? (v.state === true ? 'state' : v.kind), v.dtype, formatShape(v.shape ?? undefined), v.bytes === null ? '?' : formatBytes(v.bytes), v.name]);
  const header = ['op', 'dtype', 'shape', 'bytes', 'tensor'];
  const widths = header.map((h, i) => Math.min(COLUMN_CHARS, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
  const last = header.length - 1;
  const fmt = (r: readonly string[]): string =>
    r
      .map((text, i) => {
        if (i === last) return text;
        const cell = shortName(text, widths[i]!, 'middle');
        return i === last - 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ');
  return [fmt(header), ...rows.map(fmt)];
}
