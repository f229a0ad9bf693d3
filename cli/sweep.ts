// `heapscope sweep`: how a model's plan grows with one symbolic dim. Plans the
// model at each value (decoded once, inferred and planned per value), prints
// the curve, and with --budget the largest value whose plan fits, by bisection.
// Each point's plan gives figures only: nothing of its explanation is read.

import { decodeModel } from '../src/model/decode-model';
import { inferShapes } from '../src/model/infer/shapes';
import type { InferredModel } from '../src/model/inferred';
import type { IrModel } from '../src/model/ir';
import { planModel } from '../src/planner/plan';
import type { PlanDiagnostic } from '../src/planner/problem/build-buffers';
import { PINS_SPILL_OFF, PINS_UNUSED, UNMATCHED_PIN } from '../src/planner/spill/unmatched-pins';
import { fitsUpToText, MAX_SWEEP_POINTS, sweepDim, sweepValues, type SweepCrossing, type SweepPoint, type SweepResult } from '../src/planner/sweep/dim-sweep';
import { sweepPoint } from '../src/planner/sweep/sweep-point';
import { sweepAssumptionLines, sweepAssumptions, type SweepAssumptionLine, type SweepAssumptions } from '../src/planner/sweep/sweep-assumptions';
import { decodeStepDim, withDecodeStep, type SweepAssumedDim } from '../src/planner/sweep/decode-step';
import type { TargetProfile } from '../src/planner/targets/target';
import { assert } from '../src/shared/assert';
import { InputError } from '../src/shared/errors';
import { refusedGrowthAxis, TFLITE_FIXED_NOTE, TFLM_FIXED_NOTE } from '../src/worker/growth-axes';
import { dimByKey } from '../src/model/infer/dims';
import { counted, formatBytes, formatBytesExact, MAX_EXACT_POWER, PAST_LIMIT_UNLIMITED } from '../src/shared/format';
import { shortName } from '../src/shared/short-name';
import { parseByteSize, sweptAndFixed, type ParsedArgs } from './args';
import { displaySafe, readModelFile, type Output } from './io';
import { inferOptions, planTarget, strategyOption } from './plan';
import { noteDimsGivenTwice, noteIgnoredOptions } from './option-notes';
import { forEachFile, withProfileError } from './run-files';

/** Runs `sweep`; returns the exit code (2 when a file failed). */
export function runSweep(args: ParsedArgs, io: Output): number {
  const entries = Object.entries(args.ranges);
  if (entries.length !== 1) throw new InputError('bad-argument', 'sweep needs exactly one --dim NAME=FROM..TO (the dim to sweep)');
  const [dim, [from, to]] = entries[0]!;
  const pointsText = args.options.get('--points');
  if (pointsText !== undefined && (!/^\d+$/.test(pointsText) || Number(pointsText) > MAX_SWEEP_POINTS)) {
    throw new InputError('bad-argument', `--points must be a whole number from 2 to ${MAX_SWEEP_POINTS}, got "${pointsText}"`);
  }
  const points = pointsText === undefined ? undefined : Number(pointsText);
  const values = sweepValues(from, to, points);
  const budgetText = args.options.get('--budget');
  const budget = budgetText === undefined ? undefined : parseByteSize(budgetText, '--budget');
  const target = withProfileError(args, io, () => planTarget(args));
  const strategy = strategyOption(args);
  return forEachFile(
    args,
    io,
    (file) => {
      const ir = decodeModel(readModelFile(file), { name: file });
      const { result, bound, pinNotes } = sweepFile(ir, dim, values, { args, target, strategy, budget });
      // as plan says them: a dim besides the swept one given by two spellings, then each option the model ignored
      // and the target's pins that act nowhere, as plan says them: once for the model, the same at every point (they match by name)
      noteDimsGivenTwice(io, file, bound);
      noteIgnoredOptions(io, file, { diagnostics: [...(bound.diagnostics ?? []), ...pinNotes] });
      return result;
    },
    (file, result, out) => out.out(sweepText(displaySafe(file), displaySafe(result), { budget, limited: target.regions.some((r) => r.sizeLimit !== undefined) })),
  );
}

interface SweepSettings {
  readonly args: ParsedArgs;
  readonly target: TargetProfile;
  readonly strategy: string | undefined;
  readonly budget: number | undefined;
}

/**
 * A sweep as `sweep --json` gives it: `fitsUpTo` null when no value is known
 * to fit; `assumed`: dims bound at every point beyond the --dim options (a
 * decode step's sequence length when the swept dim is a decoder's cache length).
 */
export type CliSweepResult = Omit<SweepResult, 'fitsUpTo' | 'points'> & {
  readonly points: readonly CliSweepPoint[];
  readonly fitsUpTo: number | null;
  readonly assumed: readonly SweepAssumedDim[];
  readonly assumptions: SweepAssumptions; // default dims and If branches the points rest on, with the values where they hold
  readonly assumes: readonly SweepAssumptionLine[]; // every assumption in words, as the text prints it
};

/** A point as `sweep --json` gives it: a value that could not be planned has `peak` and `lowerBound` null and its `error`; its default dims and branches are the sweep's `assumptions`. */
export type CliSweepPoint = Omit<SweepPoint, 'peak' | 'lowerBound' | 'defaults' | 'branches'> & { readonly peak: number | null; readonly lowerBound: number | null };

/** A sweep of one model, and the model as the options besides the swept dim bind it. */
export interface SweptFile {
  readonly result: CliSweepResult;
  readonly bound: InferredModel; // for the options they ignore, the same at every point (they bind by name); a swept input's axes: the first point's model
  readonly pinNotes: readonly PlanDiagnostic[]; // the first point's plan's diagnostics of the target's pins (spill/unmatched-pins.ts)
}

/** The sweep of one decoded model. */
export function sweepFile(ir: IrModel, dim: string, values: readonly number[], s: SweepSettings): SweptFile {
  if (ir.format === 'tflite' && s.target.planning.runtime === 'tflm') throw new InputError('bad-argument', `${dim}: ${TFLM_FIXED_NOTE}`);
  const given = inferOptions(s.args);
  const axes = fixedAxes(ir, dim);
  // a dim swept by name is judged on the model as the other options bind it (a tie to other dims, a decode step)
  const bound = axes === undefined ? inferShapes(ir, given) : undefined;
  const refused = bound === undefined ? undefined : tiedDim(bound, dim);
  if (refused !== undefined) throw new InputError('bad-argument', refused);
  const assumed = bound === undefined ? undefined : decodeStep(bound, dim);
  const base = { ...given, dims: withDecodeStep(given.dims ?? {}, assumed) };
  let firstInferred: InferredModel | undefined; // an input's axes swept: the model of the first point inferred
  let pinNotes: readonly PlanDiagnostic[] | undefined; // of the first point planned
  const failures = new Map<number, InputError>();
  const planAt = (value: number): SweepPoint => {
    try {
      return planValue(value);
    } catch (error) {
      if (!(error instanceof InputError) || error instanceof MissingDimError) throw error;
      failures.set(value, error);
      return { value, peak: 0, lowerBound: 0, regions: [], complete: false, fits: false, error: error.message };
    }
  };
  const planValue = (value: number): SweepPoint => {
    const model =
      axes === undefined
        ? inferShapes(ir, { ...base, dims: { ...base.dims, [dim]: value } })
        : inferShapes(ir, { ...base, shapes: { ...base.shapes, [axes.input]: axes.shape.map((d, i) => (axes.axes.includes(i) ? value : d)) } });
    firstInferred ??= model;
    const swept = axes === undefined ? dimByKey(model.dims, dim) : undefined;
    if (axes === undefined && swept === undefined) {
      const names = model.dims.map((d) => d.name);
      // a .tflite keeps the shapes its file states: an input axis given as INPUT:AXIS is refused as well
      const allFixed = model.format === 'tflite' ? ' (all its dims are fixed, and a .tflite model keeps the shapes its file states: nothing of it can be swept)' : ' (all its dims are fixed: sweep an input axis as INPUT:AXIS, e.g. image:2,3 for both spatial axes)';
      throw new MissingDimError('bad-argument', `the model has no symbolic dim "${dim}"${names.length > 0 ? ` (its dims: ${names.join(', ')})` : allFixed}`);
    }
    // the same dim fixed by another spelling (its name, or an axis it sizes) would be overridden at every point
    const fixed = swept === undefined ? undefined : Object.keys(given.dims ?? {}).find((key) => key !== dim && dimByKey(model.dims, key)?.name === swept.name);
    if (fixed !== undefined) {
      const range = `${values[0]}..${values[values.length - 1]}`;
      throw new MissingDimError('bad-argument', `${sweptAndFixed(dim, range, String(given.dims![fixed]), fixed).message} (both name the dim ${swept!.name})`);
    }
    // a point's figures are read; at the largest value also the bytes a runtime keeping a decoder's past inputs would add
    // (its buffers placed once more: one placement for the sweep, not one per point)
    const plan = planModel(model, s.target, { ...(s.strategy !== undefined && { strategy: s.strategy }), kvPastKept: value === values[values.length - 1] });
    pinNotes ??= plan.diagnostics.filter((d) => PIN_CODES.has(d.code));
    return withinBudget(sweepPoint(value, model, plan), s.budget);
  };
  const result = sweepDim(dim, values, planAt, (p: SweepPoint) => p.fits);
  // a value that cannot be planned is a point of the curve; when none can be, the sweep itself fails
  if (result.points.every((p) => p.error !== undefined)) throw failures.get(result.points[0]!.value)!;
  // the default dims and branches are said once for the sweep (`assumptions`); a point keeps its own figures
  const points = result.points.map(({ defaults: _defaults, branches: _branches, ...p }) => (p.error === undefined ? p : { ...p, peak: null, lowerBound: null }));
  // a point was planned, so inferred: its options besides the swept axes bind it as they bind the model alone
  const noted = bound ?? firstInferred;
  assert(noted !== undefined, 'a sweep with a point planned has a model inferred');
  const said = { assumptions: sweepAssumptions(result.points), assumes: sweepAssumptionLines(result.points, dim) };
  return { result: { ...result, points, fitsUpTo: result.fitsUpTo ?? null, assumed: assumed === undefined ? [] : [assumed], ...said }, bound: noted, pinNotes: pinNotes ?? [] };
}

/** The codes of a plan's diagnostics of the target's pins, which a model alone does not give. */
const PIN_CODES: ReadonlySet<string> = new Set([UNMATCHED_PIN, PINS_UNUSED, PINS_SPILL_OFF]);

/** The swept dim is not one of the model's, or is fixed as well: every value would fail alike, so the sweep fails. */
class MissingDimError extends InputError {}

/**
 * The point as the sweep judges it: it fits as `plan` says it does (every
 * region within its limit), and within --budget when given; the same test
 * decides `fitsUpTo`, so no point over the budget says it fits.
 */
function withinBudget(point: SweepPoint, budget: number | undefined): SweepPoint {
  // a size known to pass 2^53 − 1 bytes is over any budget, whatever the peak of the sizes known
  return budget === undefined || (point.peak <= budget && point.pastLimit === undefined) ? point : { ...point, fits: false };
}

/** The decode step a sweep of `dim` is planned as (planner/sweep/decode-step.ts), judged on the model as the other options bind it. */
function decodeStep(model: InferredModel, dim: string): SweepAssumedDim | undefined {
  const name = dimByKey(model.dims, dim)?.name;
  return name === undefined ? undefined : decodeStepDim(model, name);
}

/** Why `dim` cannot be swept alone, as the page's Growth refuses it (a total length the graph ties to the sequence and past lengths, a dim a shape given leaves sizing nothing); undefined when it can. */
function tiedDim(model: InferredModel, dim: string): string | undefined {
  const name = dimByKey(model.dims, dim)?.name;
  return name === undefined ? undefined : refusedGrowthAxis(model, { kind: 'dim', name });
}

/**
 * `INPUT:AXIS[,AXIS…]` naming fixed axes of a graph input with a fully known
 * shape: the sweep then gives that input's shape with those axes at each value
 * (as --shape would), for a model whose size has no symbolic dim.
 */
function fixedAxes(ir: IrModel, dim: string): { input: string; shape: readonly number[]; axes: readonly number[] } | undefined {
  const m = /^(.+):(\d+(?:,\d+)*)$/.exec(dim);
  if (m === null) return undefined;
  const input = ir.graph.inputs.find((i) => i.name === m[1]);
  const shape = input?.shape;
  if (shape === undefined || !shape.every((d): d is number => typeof d === 'number' && d >= 0)) return undefined;
  if (ir.format === 'tflite') throw new InputError('bad-argument', `${dim}: ${TFLITE_FIXED_NOTE}`);
  const axes = m[2]!.split(',').map(Number);
  if (axes.some((a) => a >= shape.length)) throw new InputError('bad-argument', `input "${m[1]}" has ${shape.length} axes; ${dim} names one past them`);
  return { input: m[1]!, shape, axes };
}

/** What a point must fit: --budget, and the target's region size limits when it has any. */
interface FitTerms {
  readonly budget: number | undefined;
  readonly limited: boolean;
}

function sweepText(file: string, r: CliSweepResult, terms: FitTerms): string {
  const lines = [`${file}: sweep of ${r.dim}, ${counted(r.points.length, 'value')}`];
  for (const a of r.assumed) lines.push(`  every value planned with ${a.name}=${a.value}: ${a.reason} (--dim ${a.name}=N to plan another length)`);
  // as `plan` says them, under the same labels
  for (const a of r.assumes) lines.push(`  ${a.label.padEnd(13)} ${a.text}${a.defaultDim === true ? ' — set with --dim' : ''}`);
  const peakText = (p: CliSweepPoint): string => `${p.complete ? '' : '≥ '}${formatBytes(p.peak ?? undefined)}`;
  const planned = r.points.filter((p) => p.peak !== null && p.lowerBound !== null);
  // columns as wide as their widest entry, so a 16-digit value or "≥ 1.50 PiB" keeps the rows aligned
  const w = {
    value: Math.max(8, r.dim.length, ...r.points.map((p) => String(p.value).length)),
    peak: Math.max(12, ...planned.map((p) => peakText(p).length)),
    bound: Math.max(12, ...planned.map((p) => formatBytes(p.lowerBound!).length)),
  };
  lines.push(`  ${r.dim.padStart(w.value)}  ${'peak'.padStart(w.peak)}  ${'bound'.padStart(w.bound)}  largest buffer`);
  for (const p of r.points) {
    if (p.peak === null || p.lowerBound === null) {
      lines.push(`  ${String(p.value).padStart(w.value)}  cannot be planned: ${p.error ?? 'unknown'}`);
      continue;
    }
    const largest = p.largest === undefined ? '' : `${formatBytes(p.largest.size)} ${p.largest.name}`;
    const regions = r.points.some((q) => q.regions.length > 1) ? `  [${p.regions.map((g) => `${g.name} ${formatBytes(g.peak)}`).join(', ')}]` : '';
    const over = p.regions.filter((g) => (g.overBy ?? 0) > 0).map((g) => `${g.name} ${formatBytes(g.overBy!)} over its limit`);
    if (terms.budget !== undefined && p.peak > terms.budget) over.push(`peak ${formatBytes(p.peak - terms.budget)} over the budget`);
    // over any limit or budget: a size known, past what one can be; over none where there is no budget and no region with a limit holds it
    if (p.pastLimit !== undefined && (terms.budget !== undefined || p.regions.some((g) => g.pastLimit !== undefined))) over.push(`'${p.pastLimit}' needs more than ${MAX_EXACT_POWER} bytes, over any limit or budget`);
    // a lower estimate within what it must fit: whether it fits is not known, and the row says so
    const verdict = over.length > 0 ? `  DOES NOT FIT: ${over.join(', ')}` : !p.complete && (terms.budget !== undefined || terms.limited) ? `  NOT KNOWN TO FIT: ${openWhy(p.pastLimit)}` : '';
    lines.push(`  ${String(p.value).padStart(w.value)}  ${peakText(p).padStart(w.peak)}  ${formatBytes(p.lowerBound).padStart(w.bound)}  ${largest}${regions}${verdict}`);
  }
  const open = r.points.filter((p) => !p.complete && p.error === undefined);
  // a size past 2^53 − 1 bytes is known, too large: its points are named apart from those with a size unknown
  const unknownAt = open.filter((p) => p.pastLimit === undefined);
  const pastAt = open.filter((p) => p.pastLimit !== undefined);
  if (unknownAt.length > 0) {
    lines.push(`  ≥: a lower estimate, some sizes unknown (at ${valueList(unknownAt.map((p) => p.value))}); first at ${r.dim}=${unknownAt[0]!.value}: ${unknownAt[0]!.unknown ?? 'unknown'}`);
  }
  if (pastAt.length > 0) {
    lines.push(`  ≥: a lower estimate, some sizes too large, planned as 0 bytes (at ${valueList(pastAt.map((p) => p.value))}); first at ${r.dim}=${pastAt[0]!.value}: '${pastAt[0]!.pastLimit!}' needs more than ${MAX_EXACT_POWER} bytes, over any size limit or budget`);
  }
  const workspace = workspaceLine(r);
  if (workspace !== undefined) lines.push(workspace);
  lines.push(`  ${monotonicLine(r)}`);
  const { budget, limited } = terms;
  if (budget !== undefined || limited) {
    const unsure = open.some((p) => p.fits);
    const fits = r.fitsUpTo === null ? `no value of ${r.dim} ${unsure ? 'is known to fit' : 'fits'}` : fitsUpToText(r.dim, r.fitsUpTo, r.points[r.points.length - 1]?.value);
    const against = [budget === undefined ? '' : `budget ${formatBytesExact(budget)}`, limited ? 'the region size limits' : ''].filter((w) => w !== '').join(' and ');
    lines.push(`  ${against}: ${fits}`);
    for (const c of r.crossings) lines.push(`    ${crossingText(c, r.dim, budget === undefined ? 'the size limits' : 'the budget')}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Kernel workspace the peaks leave out: fused attention ops the target has no
 * scratch rule for, with ONNX Runtime's CPU estimate of the largest over the
 * sweep (unknown said as unknown, never 0); undefined when there is none.
 */
function workspaceLine(r: CliSweepResult): string | undefined {
  const at = r.points.filter((p) => p.workspace !== undefined);
  if (at.length === 0) return undefined;
  const top = at.reduce((a, b) => ((b.workspace!.largest.bytes ?? -1) > (a.workspace!.largest.bytes ?? -1) ? b : a));
  const { operators, largest, unknown } = top.workspace!;
  const op = shortName(largest.opType);
  const where = `'${shortName(largest.node)}' at ${r.dim}=${top.value}`;
  const size = largest.bytes === undefined ? `workspace of unknown size for ${where} (${largest.reason ?? 'not known from its shapes'})` : `${largest.lowerEstimate ? 'at least' : 'about'} ${formatBytesExact(largest.bytes)} for the largest${unknown === undefined ? '' : ' known'}, ${where} (${largest.parts})${unknown === undefined ? '' : `, and workspace of unknown size for ${unknown} more`}`;
  return `  not counted: kernel workspace of ${counted(operators, 'fused attention operator')} the target has no scratch rule for; ONNX Runtime's CPU kernel allocates ${size}, not in these peaks — add a scratch rule for ${op} to the target to plan it`;
}

/**
 * The verdict `monotonic` carries, in one line: yes, or no and where the peak
 * first falls, over the values with every size known; then the values left
 * out of it, how many and why (lower estimates, values that cannot be planned).
 */
export function monotonicLine(r: CliSweepResult): string {
  const known = r.points.filter((p) => p.error === undefined && p.complete && p.peak !== null);
  const failed = r.points.filter((p) => p.error !== undefined || p.peak === null).map((p) => p.value);
  // a lower estimate for a size past 2^53 − 1 bytes has that size known, too large: said apart from sizes unknown
  const tooLarge = new Set(r.points.filter((p) => p.pastLimit !== undefined).map((p) => p.value));
  const unknownAt = r.monotonicLeftOut.filter((v) => !tooLarge.has(v));
  const pastAt = r.monotonicLeftOut.filter((v) => tooLarge.has(v));
  const left = [
    unknownAt.length === 0 ? '' : `${counted(unknownAt.length, 'lower estimate')}, some sizes unknown (at ${valueList(unknownAt, false)})`,
    pastAt.length === 0 ? '' : `${counted(pastAt.length, 'lower estimate')}, some sizes too large (at ${valueList(pastAt, false)})`,
    failed.length === 0 ? '' : `${failed.length} that cannot be planned (at ${valueList(failed, false)})`,
  ].filter((w) => w !== '');
  const leftOut = left.length === 0 ? '' : `; left out: ${left.join('; ')}`;
  if (known.length < 2) return `monotonic: not judged, fewer than two values have every size known${leftOut}`;
  const over = `(${known.length} values${left.length === 0 ? '' : ' with every size known'})`;
  const fall = known.findIndex((p, i) => i > 0 && p.peak! < known[i - 1]!.peak!);
  if (fall < 0) return `monotonic: yes, the peak never falls as ${r.dim} grows ${over}${leftOut}`;
  const [from, to] = [known[fall - 1]!, known[fall]!];
  return `monotonic: no, the peak falls from ${formatBytes(from.peak!)} at ${r.dim}=${from.value} to ${formatBytes(to.peak!)} at ${r.dim}=${to.value} ${over}${leftOut}`;
}

/**
 * Why a lower estimate that is not over is not known to fit: a size unknown,
 * or a tensor past 2^53 − 1 bytes in no region with a size limit (one in such
 * a region, or with a budget, does not fit), judged as `plan` judges it.
 */
function openWhy(pastLimit: string | undefined): string {
  return pastLimit === undefined ? 'some sizes unknown' : `'${pastLimit}' needs more than ${MAX_EXACT_POWER} bytes, ${PAST_LIMIT_UNLIMITED}`;
}

/** One crossing of what a point must fit (`against`: the budget, or the size limits without one), in words. */
function crossingText(c: SweepCrossing, dim: string, against: string): string {
  const why = `${c.pastLimit === undefined ? 'some sizes are unknown' : openWhy(c.pastLimit)}, and the lower estimate is within ${against}`;
  if (c.notFitting === 'below') return `not known to fit from ${dim}=${c.above}, after not fitting up to ${dim}=${c.below}: ${why}`;
  if (c.notFitting === 'above') return `does not fit from ${dim}=${c.above}; not known to fit up to ${dim}=${c.below}: ${why}`;
  if (c.unknown === true && c.fitsBelow) return `not known to fit from ${dim}=${c.above}: ${why}`;
  if (c.unknown === true) return `fits from ${dim}=${c.above}; not known to fit at ${dim}=${c.below}: ${why}`;
  return `${c.fitsBelow ? 'stops fitting' : 'fits again'} between ${c.below} and ${c.above}`;
}

/** "1, 2, 4" or "1, 2, … 256 (9 values)"; without the count when the sentence states it already ("9 lower estimates (at 1, 2, … 256)"). */
function valueList(values: readonly number[], withCount = true): string {
  if (values.length <= 6) return values.join(', ');
  return `${values.slice(0, 3).join(', ')}, … ${values[values.length - 1]}${withCount ? ` (${counted(values.length, 'value')})` : ''}`;
}
