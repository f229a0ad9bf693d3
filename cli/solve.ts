// `heapscope solve`: plan a MiniMalloc CSV problem with a strategy, report its
// peak against the lower bound, and optionally write the solution CSV.

import { performance } from 'node:perf_hooks';
import { isTflite } from '../src/model/tflite/decode-tflite';
import { looksLikePlanFile } from '../src/planner/assembly/plan-file';
import { assignOffsets } from '../src/planner/assembly/assign-offsets';
import type { PlacementSearch } from '../src/planner/assembly/placement';
import { parseMinimallocCsv, writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { InvariantError } from '../src/shared/assert';
import { InputError, toErrorData } from '../src/shared/errors';
import { counted, formatBytesExact } from '../src/shared/format';
import { budgetMsOption, type ParsedArgs } from './args';
import { displaySafe, readInputFile, type FileLimit, type Output } from './io';
import { strategyOption } from './plan';
import { checkJsonStdout, checkOutputPlaces, checkOutputs, checkTextStdout, writeOutputFile } from './outputs';

/** The JSON report of `solve`. */
export interface SolveReport {
  readonly file: string;
  readonly strategy: string;
  readonly buffers: number;
  readonly peak: number;
  readonly lowerBound: number;
  readonly valid: boolean;
  readonly optimal: boolean; // proven: peak == lower bound, or an exhaustive search (search.proof says which)
  readonly search: PlacementSearch; // how the search ended: 'iterations' when counted work stopped it (no --budget-ms; the same on any machine), 'time' when --budget-ms did, 'done' when every search ended before either
  readonly elapsedMs: number;
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly lowerBound: number }[];
}

/** Largest problem CSV read. */
const CSV_LIMIT: FileLimit = { bytes: 512 * 1024 * 1024, what: 'problem CSV' };

/** Runs `solve`; returns the exit code. With --json, a problem file that fails prints `{ file, error: { code, message } }`, as `plan` does. */
export function runSolve(args: ParsedArgs, io: Output): number {
  if (args.files.length !== 1) {
    throw new InputError('bad-argument', `solve takes one problem.csv, got ${args.files.length === 0 ? 'none' : args.files.length}`);
  }
  const file = args.files[0]!;
  const strategy = strategyOption(args) ?? 'best';
  const out = args.options.get('--out');
  // The solution fixes every offset: written over the problem, the next solve would have nothing left to place.
  if (out !== undefined) checkOutputs([{ path: file, role: 'the problem it solves' }], [{ option: '--out', path: out }]);
  if (out !== undefined) (args.flags.has('--json') ? checkJsonStdout : checkTextStdout)([{ option: '--out', path: out }]);
  // before the solve: a large problem takes a while, and its solution would have nowhere to go
  if (out !== undefined) checkOutputPlaces([{ option: '--out', path: out }]);
  const budgetMs = budgetMsOption(args);
  const failed = (error: unknown): unknown => {
    if (error instanceof InputError && args.flags.has('--json')) io.out(JSON.stringify({ file, error: toErrorData(error) }) + '\n');
    return error;
  };
  let bytes: Uint8Array;
  try {
    bytes = readInputFile(file, CSV_LIMIT); // its errors name the file already
  } catch (error) {
    throw failed(error);
  }
  let report: SolveReport;
  try {
    report = solveFile(file, bytes, strategy, budgetMs, out);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // writing the solution names its own file; the problem's errors are about its content, and
    // one too large to compute exactly ('too-large') is no bad CSV, so it keeps its code
    throw failed(error.code === 'io' ? error : new InputError(error.code === 'bad-argument' ? 'bad-csv' : error.code, `${file}: ${error.message}`));
  }
  io.out(args.flags.has('--json') ? JSON.stringify(report) + '\n' : solveText(displaySafe(report), out, budgetMs !== undefined));
  return 0;
}

/** Reads, solves and validates one problem file; writes the solution to `out` when given. */
function solveFile(file: string, bytes: Uint8Array, strategy: string, budgetMs: number | undefined, out: string | undefined): SolveReport {
  const problem = parseMinimallocCsv(problemText(bytes));
  const started = performance.now();
  const result = assignOffsets(problem, strategy, budgetMs === undefined ? {} : { budgetMs });
  const elapsedMs = Math.round((performance.now() - started) * 10) / 10;
  const validation = validatePlan(problem, result);
  if (!validation.valid) throw new InvariantError(`the ${strategy} plan of ${file} is invalid: ${validation.violations[0]!.message}`);
  if (out !== undefined) writeOutputFile(out, writeMinimallocCsv(problem, result.offsets));
  return {
    file,
    strategy,
    buffers: problem.buffers.length,
    peak: result.peak,
    lowerBound: result.lowerBound,
    valid: validation.valid,
    optimal: result.optimal,
    search: { proven: result.optimal, stoppedBy: result.optimal ? 'optimal' : result.stats.stoppedBy, ...(result.optimal && { proof: result.peak <= result.lowerBound ? 'lower-bound' : 'search' }) },
    elapsedMs,
    regions: result.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound })),
  };
}

/** Why a search that proved nothing ended, in words; with --budget-ms (`timed`) no plan is promised the same on any machine. */
function searchStop(stoppedBy: PlacementSearch['stoppedBy'], timed: boolean): string {
  switch (stoppedBy) {
    case 'optimal':
      return 'proven optimal';
    case 'done':
      return timed ? 'nothing left to try (every search ended before the time budget)' : 'nothing left to try';
    case 'iterations':
      return timed ? 'stopped by counted work' : 'stopped by counted work (the same plan on any machine)';
    case 'time':
      return 'stopped at the time budget';
  }
}

/** The optimal line: what proved the peak the lowest, or why nothing did. */
function optimalText(r: SolveReport, timed: boolean): string {
  if (!r.optimal) return `not proven; ${searchStop(r.search.stoppedBy, timed)}`;
  return r.search.proof === 'search' ? 'yes, proven by an exhaustive search: no placement of these buffers peaks lower, though the peak is above the lower bound' : 'yes, proven: the peak is the lower bound';
}

function solveText(r: SolveReport, out: string | undefined, timed: boolean): string {
  const gap = r.lowerBound > 0 ? ((r.peak / r.lowerBound - 1) * 100).toFixed(2) : '0.00';
  const lines = [
    `${r.file}: ${counted(r.buffers, 'buffer')}, strategy ${r.strategy}`,
    `  peak          ${formatBytesExact(r.peak)}`,
    `  lower bound   ${formatBytesExact(r.lowerBound)}; gap ${gap} %${r.search.proof === 'search' ? ' (the bound counts live bytes, not alignment or the holes between buffers: no placement reaches it)' : ''}`,
    `  optimal       ${optimalText(r, timed)}`,
    `  valid         ${r.valid ? 'yes' : 'no'}`,
    `  time          ${r.elapsedMs} ms`,
  ];
  if (out !== undefined) lines.push(`  solution      written to ${out}`);
  return lines.join('\n') + '\n';
}

/** Bytes read for the binary check: a CSV holds no NUL byte; models hold them within their first kilobytes. */
const BINARY_PROBE_BYTES = 64 * 1024;

/**
 * The problem file as text. A binary file is refused in one line naming what
 * it looks like (a model given to `solve` instead of `plan`), and so is a
 * heapscope saved plan, instead of their bytes read as a CSV header.
 */
export function problemText(bytes: Uint8Array): string {
  if (looksLikePlanFile(bytes)) {
    throw new InputError('bad-csv', 'this is a heapscope saved plan (plan --save), not a placement-problem CSV; `heapscope plan MODEL --csv FILE` writes a plan\'s problem CSV for solve, and `heapscope diff` compares saved plans');
  }
  if (!bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return new TextDecoder().decode(bytes);
  // ONNX has no magic; a ModelProto opens with field 1 (ir_version) as a varint: byte 0x08.
  const model = isTflite(bytes) ? 'a TensorFlow Lite model (.tflite)' : bytes[0] === 0x08 ? 'an ONNX model' : undefined;
  if (model === undefined) throw new InputError('bad-csv', 'not a CSV: it holds binary data (a placement problem is text, header id,lower,upper,size)');
  throw new InputError('bad-csv', `looks like ${model}, not a placement-problem CSV; to plan a model use \`heapscope plan\``);
}
