// `heapscope solve`: plan a MiniMalloc CSV problem with a strategy, report its
// peak against the lower bound (and, with offsets the input fixes, against the
// bound of the live bytes alone), and optionally write the solution CSV.

import { performance } from 'node:perf_hooks';
import { isTflite } from '../src/model/tflite/decode-tflite';
import { looksLikePlanFile } from '../src/planner/assembly/plan-file';
import { assignOffsets } from '../src/planner/assembly/assign-offsets';
import type { PlacementSearch } from '../src/planner/assembly/placement';
import { portfolioKept } from '../src/planner/explain/portfolio-words';
import { lowerBound } from '../src/planner/problem/lower-bound';
import { parseMinimallocCsv, writeMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import type { PlacementProblem } from '../src/planner/problem/problem';
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
  readonly lowerBound: number; // with the offsets the input fixes: the peak of their placement is a bound too
  readonly fixedOffsets: number; // buffers whose offset the input fixes; all of them: a check of the placement given, nothing placed
  readonly liveBytesBound: number; // the bound of the buffers' live bytes alone, fixed offsets left out: what any placement of them needs
  readonly valid: boolean;
  readonly optimal: boolean; // proven: peak == lower bound, or an exhaustive search (search.proof says which)
  readonly search: PlacementSearch; // how the search ended: 'iterations' when counted work stopped it (no --budget-ms; the same on any machine), 'time' when --budget-ms did, 'done' when every search ended before either
  readonly portfolio?: { readonly winner: string }; // strategy best: the strategy whose plan it kept in the largest region, as plan's portfolio.winner
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
    fixedOffsets: problem.buffers.filter((b) => b.fixedOffset !== undefined).length,
    liveBytesBound: liveBytesBound(problem, result.lowerBound),
    valid: validation.valid,
    optimal: result.optimal,
    search: { proven: result.optimal, stoppedBy: result.optimal ? 'optimal' : result.stats.stoppedBy, ...(result.optimal && { proof: result.peak <= result.lowerBound ? 'lower-bound' : 'search' }) },
    ...(result.winner !== undefined && { portfolio: { winner: result.winner } }),
    elapsedMs,
    regions: result.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound })),
  };
}

/**
 * The lower bound of the problem's buffers with no offset fixed: what any
 * placement of them needs. With offsets fixed, `lowerBound` is at least the
 * top of the fixed placement, so a wasteful placement given back is a bound
 * of itself; this one says what it wastes.
 */
function liveBytesBound(problem: PlacementProblem, withFixed: number): number {
  if (problem.buffers.every((b) => b.fixedOffset === undefined)) return withFixed;
  return lowerBound({ ...problem, buffers: problem.buffers.map(({ fixedOffset: _fixed, ...b }) => b) }).lowerBound;
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

/** The optimal line: what proved the peak the lowest, or why nothing did; with offsets fixed, that it is the lowest only around them. */
function optimalText(r: SolveReport, timed: boolean): string {
  if (!r.optimal) return `not proven; ${searchStop(r.search.stoppedBy, timed)}`;
  const fixed = r.fixedOffsets > 0;
  if (r.search.proof === 'search') {
    // alignment keeps such a peak above the live bytes with offsets fixed or not: what the fixed ones cost is not known
    return fixed
      ? 'yes given the fixed offsets, proven by an exhaustive search: no placement of the other buffers around them peaks lower, though the peak is above the lower bound'
      : 'yes, proven by an exhaustive search: no placement of these buffers peaks lower, though the peak is above the lower bound';
  }
  const wasted = r.peak - r.liveBytesBound;
  if (!fixed || wasted === 0) return 'yes, proven: the peak is the lower bound';
  return `yes given the fixed offsets, proven: the peak is the lower bound with them; ${formatBytesExact(wasted)} above what these buffers' live bytes need`;
}

/** The fixed line: how many offsets the input fixed, and what that makes of the run; undefined when none. */
function fixedText(r: SolveReport): string | undefined {
  if (r.fixedOffsets === 0) return undefined;
  const of = `${r.fixedOffsets} of ${counted(r.buffers, 'offset')} fixed by the input`;
  if (r.fixedOffsets === r.buffers) return `${of}: a check of the placement given, nothing left to place`;
  const free = r.buffers - r.fixedOffsets;
  return `${of}; the other ${free === 1 ? 'buffer' : `${free} buffers`} placed around them`;
}

/** The lower bound line: with offsets fixed, the bound with them beside the bound of the live bytes alone. */
function lowerBoundText(r: SolveReport): string {
  const gap = r.lowerBound > 0 ? ((r.peak / r.lowerBound - 1) * 100).toFixed(2) : '0.00';
  const searched = r.search.proof === 'search' ? ' (the bound counts live bytes, not alignment or the holes between buffers: no placement reaches it)' : '';
  if (r.fixedOffsets === 0) return `${formatBytesExact(r.lowerBound)}; gap ${gap} %${searched}`;
  if (r.liveBytesBound === r.lowerBound) return `${formatBytesExact(r.lowerBound)}, with the fixed offsets or without; gap ${gap} %${searched}`;
  return `${formatBytesExact(r.lowerBound)} with the fixed offsets (gap ${gap} %${searched}); ${formatBytesExact(r.liveBytesBound)} for these buffers' live bytes alone, what any placement of them needs`;
}

function solveText(r: SolveReport, out: string | undefined, timed: boolean): string {
  const fixed = fixedText(r);
  // with every offset fixed nothing was placed: which strategy "won" says nothing
  const kept = r.fixedOffsets === r.buffers ? undefined : portfolioKept(r)?.kept;
  const lines = [
    `${r.file}: ${counted(r.buffers, 'buffer')}, strategy ${r.strategy}`,
    ...(fixed === undefined ? [] : [`  fixed         ${fixed}`]),
    `  peak          ${formatBytesExact(r.peak)}`,
    `  lower bound   ${lowerBoundText(r)}`,
    `  optimal       ${optimalText(r, timed)}`,
    ...(kept === undefined ? [] : [`  strategy      ${kept}`]),
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
