// `heapscope plan`: decode, infer and plan one or more models for a target;
// print the plan's size and its explanation, as text or JSON (Lines).

import { splitBetweenRegions } from '../src/planner/assembly/plan-records';
import { planLowerEstimate, planRefused, regionNeedEstimated } from '../src/planner/assembly/assumptions';
import { decodeModel } from '../src/model/decode-model';
import { inferShapes, type InferOptions } from '../src/model/infer/shapes';
import type { InferredModel } from '../src/model/inferred';
import { asciiChart } from '../src/planner/export/ascii-chart';
import { applyTargetChange, choiceOption, readTargetChange } from '../src/planner/explain/target-change';
import { planModel, type ModelPlan } from '../src/planner/plan';
import { STRATEGY_NAMES } from '../src/planner/strategies/strategy-names';
import type { TargetProfile } from '../src/planner/targets/target';
import { InputError } from '../src/shared/errors';
import { shortName } from '../src/shared/short-name';
import { counted, formatBytes, formatBytesApart, formatBytesExact, formatCount, MAX_EXACT_POWER } from '../src/shared/format';
import { budgetMsOption, parseByteSize, type ParsedArgs } from './args';
import { displaySafe, readModelFile, type Output } from './io';
import { peakLiveLines, portfolioLines, suggestionLines } from './plan-explain';
import { emptyPeakWords } from '../src/planner/explain/empty-peak';
import { heldWeights, ioLines, ioOfUnknownSize, needsLines, spillLines, weightsLine } from './plan-spill';
import { runtimeLines } from './plan-runtime';
import { EXPORT_OPTIONS, wantsExports, writeExports } from './plan-exports';
import { forEachFile, withProfileError } from './run-files';
import { jsonRegions } from './json-fields';
import { gapFields, gapLines, regionsWithGap } from './plan-gap';
import { checkJsonStdout, checkOutputPlaces, checkTextStdout, type CommandInput } from './outputs';
import { ignoredOptions, noteDimsGivenTwice, noteIgnoredOptions } from './option-notes';
import { resolveTarget, targetSettingName } from './targets';
import { assumptionLines, knownFitLines, TOP_WARNINGS, unknownCount, unknownHint } from './plan-assumptions';

/** Options of `plan` that change fields of the target (explain/target-change.ts). */
export const TARGET_CHANGE_OPTIONS = ['--order', '--fusion', '--compute-units', '--sram', '--dw-pw-cache', '--scratch-placement', '--spill', '--weights', '--io'];

/** Target-change options that take a byte size: they accept the units --budget does (512KiB, 1MiB, 1.5MB). */
const BYTE_OPTIONS: readonly string[] = ['--sram', '--dw-pw-cache'];

/** The target of --target with the target-change options applied. */
export function planTarget(args: ParsedArgs): TargetProfile {
  const option = (name: string): string | undefined => {
    const value = args.options.get(name);
    return value === undefined || !BYTE_OPTIONS.includes(name) ? value : String(parseByteSize(value, name));
  };
  return applyTargetChange(resolveTarget(args.options.get('--target')), readTargetChange(option));
}

/** Buffers listed under "live at peak" in the text output. */
const TOP_BUFFERS = 10;

/** The strategy named by --strategy, checked; undefined when absent. */
export function strategyOption(args: ParsedArgs): string | undefined {
  return choiceOption(args.options.get('--strategy'), '--strategy', STRATEGY_NAMES);
}

/** Decodes, infers and plans one model file. */
export function planFile(file: string, infer: InferOptions, target: TargetProfile, strategy?: string): ModelPlan {
  return planModelFile(file, infer, target, strategy).plan;
}

/** Decodes, infers and plans one model file (its bytes when already read); the inferred model too; with `suggest`, the plan's suggestions. */
export function planModelFile(
  file: string,
  infer: InferOptions,
  target: TargetProfile,
  strategy?: string,
  bytes: Uint8Array = readModelFile(file),
  suggest = false,
  budgetMs?: number, // --budget-ms: best's searches stop by the clock instead of counted work
): { readonly model: InferredModel; readonly plan: ModelPlan } {
  const model = inferShapes(decodeModel(bytes, { name: file }), { ...infer, fileShapes: target.planning.runtime === 'tflm' });
  return { model, plan: planModel(model, target, { ...(strategy !== undefined && { strategy }), suggest, ...(budgetMs !== undefined && { planOptions: { budgetMs } }) }) };
}

/** The inference options the command line gives: --dim, --shape, --input. */
export function inferOptions(args: ParsedArgs): InferOptions {
  return { dims: args.dims, shapes: args.shapes, inputValues: args.inputValues };
}

/**
 * Why a plan fails --strict, one sentence per reason (each its own line on
 * stderr), none when it rests on nothing assumed (a plan saved before plans
 * recorded their assumptions: its `complete` alone).
 */
export function strictProblems(plan: Pick<ModelPlan, 'complete'> & { readonly assumptions?: ModelPlan['assumptions']; readonly diagnostics?: ModelPlan['diagnostics']; readonly runtimePlan?: ModelPlan['runtimePlan'] }): string[] {
  const problems: string[] = [];
  const defaults = (plan.assumptions?.dims ?? []).filter((d) => !d.bound);
  if (!plan.complete) {
    const unknown = plan.assumptions?.unknown ?? [];
    const first = unknown[0];
    const which = first === undefined ? 'tensors of unknown size' : `${unknownCount(unknown)} of unknown size, first '${first.tensor}' (${first.reason})`;
    problems.push(`the plan is incomplete: ${which}; ${unknownHint(unknown, 'give shapes with --shape NAME=DIMS')}`);
  }
  if (defaults.length > 0) {
    problems.push(`the plan rests on default dims ${defaults.map((d) => `${d.name}=${d.value}`).join(', ')}; bind them with --dim NAME=VALUE`);
  }
  // dims given against one another (a total length other than sequence + past): shapes that combine them may not agree
  for (const mismatch of (plan.diagnostics ?? []).filter((d) => d.code === 'dim-mismatch')) problems.push(`the dims given contradict the graph: ${mismatch.message}`);
  const kernels = plan.assumptions?.kernels ?? [];
  if (kernels.length > 0) {
    const first = kernels[0]!;
    const more = kernels.length > 1 ? ` and ${kernels.length - 1} more` : '';
    problems.push(`the plan assumes no scratch for ${kernels.length} kernel(s) whose scratch requests are not known, first custom operator ${first.op} (${first.node})${more}; the arena to declare is a lower estimate and may be too small`);
  }
  // a fused attention op's kernel workspace no scratch rule plans: the figures leave it out, as they leave out an unknown kernel's scratch
  const workspace = plan.assumptions?.workspace ?? [];
  if (workspace.length > 0) problems.push(`the figures leave out ${workspaceWords(workspace)}; add a scratch rule for ${[...new Set(workspace.map((w) => shortName(w.opType)))].join(', ')} to the target to plan it`);
  // TensorFlow Lite Micro's reference kernels refuse the model: no arena makes AllocateTensors() succeed
  const refused = plan.runtimePlan?.refused ?? [];
  if (refused.length > 0) problems.push(`no tensor arena works: ${refused[0]}${refused.length > 1 ? ` (and ${refused.length - 1} more reason(s))` : ''}`);
  return problems;
}

/** "the kernel workspace of 5 fused attention operator(s), largest 'GptAttention_0' (about 5.25 KiB (5,376 B))": what --strict refuses a plan for. */
function workspaceWords(workspace: NonNullable<ModelPlan['assumptions']['workspace']>): string {
  const largest = workspace[0]!;
  const size = largest.bytes === undefined ? 'of unknown size' : `${largest.lowerEstimate ? 'at least' : 'about'} ${formatBytesExact(largest.bytes)}`;
  return `the kernel workspace of ${formatCount(workspace.length)} fused attention operator(s) the target has no scratch rule for, largest '${shortName(largest.node)}' (${size})`;
}

/** The files `plan` reads for one model: the model, and the --target profile when it is a file. */
function planInputs(args: ParsedArgs, file: string): CommandInput[] {
  const target = args.options.get('--target');
  const profile = target === undefined || targetSettingName(target) !== 'custom' ? [] : [{ path: target, role: 'the target profile it reads' }];
  return [{ path: file, role: 'the model it plans' }, ...profile];
}

/** Runs `plan`; returns the exit code: 2 for bad input or a --strict failure, 3 when a region is over its size limit. */
export function runPlan(args: ParsedArgs, io: Output): number {
  const target = withProfileError(args, io, () => planTarget(args));
  const strategy = strategyOption(args);
  const budgetMs = budgetMsOption(args);
  const ascii = args.flags.has('--ascii');
  const exports = wantsExports(args);
  if (exports && args.files.length > 1) {
    const given = EXPORT_OPTIONS.filter((o) => args.options.has(o));
    throw new InputError('bad-argument', `${given.join(', ')} ${given.length === 1 ? 'writes' : 'write'} the plan of one model; got ${args.files.length} files`);
  }
  const outputs = EXPORT_OPTIONS.flatMap((option) => exportPath(args, option));
  if (args.flags.has('--json')) checkJsonStdout(outputs);
  else checkTextStdout(outputs);
  checkOutputPlaces(outputs);
  const strict = args.flags.has('--strict');
  let overLimit = false;
  let strictFailed = false;
  const code = forEachFile(
    args,
    io,
    (file) => {
      const bytes = readModelFile(file);
      const { model, plan } = planModelFile(file, inferOptions(args), target, strategy, bytes, true, budgetMs);
      overLimit ||= !plan.fits;
      // Exports first: a file that cannot be written is this file's one message, not a second line after --strict's.
      const written = exports ? { written: writeExports(args, { file, model, plan, target, strategy, bytes }, planInputs(args, file)) } : {};
      // one dim given by two spellings: a note, as for one option given twice (the plan's diagnostics say it too)
      noteDimsGivenTwice(io, file, plan);
      const over = overLimitLine(plan);
      if (over !== undefined) io.err(`heapscope: ${file}: ${over}\n`);
      // without a limit the verdict line is silent: the refusal is told all the same (--strict refuses it in its own line)
      const refused = over === undefined && !strict ? refusedWarningLine(file, plan) : undefined;
      if (refused !== undefined) io.err(refused);
      noteIgnoredOptions(io, file, plan, strict);
      for (const problem of strict ? [...strictProblems(plan), ...ignoredOptions(plan)] : []) {
        strictFailed = true;
        io.err(`heapscope: ${file}: --strict: ${problem}\n`);
      }
      if (!args.flags.has('--json')) return { ...plan, ...written };
      const json = { ...plan, ...gapFields(plan), regions: regionsWithGap(jsonRegions(plan.regions)) };
      return ascii ? { ...json, ascii: asciiChart(plan), ...written } : { ...json, ...written };
    },
    (file, result, out) => {
      const plan = displaySafe(result);
      const written = (plan.written ?? []).map((path) => `  written       ${path}\n`).join('');
      out.out(planText(displaySafe(file), plan) + written + (ascii ? '\n' + asciiChart(plan) : ''));
    },
  );
  // --strict's refusal outranks exit 3: a size verdict resting on assumptions is not verified.
  if (code !== 0 || strictFailed) return 2;
  return overLimit ? 3 : 0;
}

/** The verdict of exit 3 on stderr, one line for the file: each region over its size limit; undefined when the plan fits. */
function overLimitLine(plan: ModelPlan): string | undefined {
  const least = planLowerEstimate(plan) ? 'at least ' : ''; // a size unknown, or a TFLM kernel's scratch
  // TensorFlow Lite Micro refuses the model: no arena fits the limit, whatever the figures it would plan were it accepted, so no "needs" of more bytes
  const over = refusedUnfit(plan)
    ? refusedRegions(plan).map((r) => `region ${r.name}: no tensor arena works, within its size limit of ${formatCount(r.sizeLimit!)} bytes or any other: TensorFlow Lite Micro refuses the model ('refused')`)
    : plan.regions
        .filter((r) => r.overBy > 0 || r.pastLimit !== undefined)
        .map((r) =>
          r.pastLimit !== undefined
            ? `region ${r.name} holds '${r.pastLimit[0]}', which needs more than ${MAX_EXACT_POWER} bytes (${formatCount(Number.MAX_SAFE_INTEGER)}): over its size limit of ${formatCount(r.sizeLimit ?? 0)} bytes, as over any`
            : `region ${r.name} needs ${least}${formatCount(r.used ?? r.peak)} bytes${regionNeedEstimated(plan, r) ? ' (an estimate: TensorFlow Lite Micro\'s tail rests on estimated parts)' : ''}, ${least}${formatCount(r.overBy)} over its size limit of ${formatCount(r.sizeLimit ?? 0)} bytes`,
        );
  return over.length === 0 ? undefined : `DOES NOT FIT: ${over.join('; ')}`;
}

/**
 * TensorFlow Lite Micro refuses the model (no arena makes AllocateTensors()
 * succeed) while no region has a size limit, so `fits` stays true and the exit
 * 0, as for any plan without a limit: the warning line says so on stderr
 * (`heapscope: warning: FILE: no tensor arena works: …`), where a CI log shows
 * it, for plan and for each side of diff without --budget; `why` says what
 * leaves the exit code as it is (diff --budget: it judges b alone, not a).
 * Undefined when TFLM accepts the model.
 */
export function refusedWarningLine(file: string, plan: Pick<ModelPlan, 'runtimePlan'>, why = 'fits is judged on size limits and no region has one, so this exits 0'): string | undefined {
  const refused = plan.runtimePlan?.refused ?? [];
  if (refused.length === 0) return undefined;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more reason(s))` : '';
  return `heapscope: warning: ${file}: no tensor arena works: ${refused[0]}${more}; ${why}; --strict makes it fail\n`;
}

/** Whether the plan does not fit because TensorFlow Lite Micro refuses its model: the refusal is the verdict, whatever its figures. */
function refusedUnfit(plan: ModelPlan): boolean {
  return !plan.fits && planRefused(plan);
}

/** The limited regions a refused model does not fit: the tensor arena (and any region over its limit). */
function refusedRegions(plan: ModelPlan): ModelPlan['regions'] {
  return plan.regions.filter((r) => r.sizeLimit !== undefined && (r.runtimeHead !== undefined || r.overBy > 0));
}

/** The path an export option gives, as a list of none or one output. */
function exportPath(args: ParsedArgs, option: string): { option: string; path: string }[] {
  const path = args.options.get(option);
  return path === undefined ? [] : [{ option, path }];
}

/** DRAM traffic, and the fusion units with what each saves (M2, M5). */
function fusionLines(plan: ModelPlan): string[] {
  const { before, after } = plan.traffic;
  const least = plan.complete ? '' : 'at least '; // tensors of unknown size move no bytes here
  if (plan.fusionUnits.length === 0) return [`  DRAM traffic  ${least}${formatBytes(before)}`];
  const saved = before === 0 ? 0 : ((before - after) / before) * 100;
  const kinds = (k: string) => plan.fusionUnits.filter((u) => u.kind === k).length;
  return [
    `  DRAM traffic  ${least}${formatBytes(before)} without fusion -> ${least}${formatBytes(after)} with it (${saved.toFixed(1)} % saved${plan.complete ? '' : ', of the sizes known'})`,
    `  fusion units  ${plan.fusionUnits.length}: ${kinds('tfu')} template (M2), ${kinds('dw-pw')} depthwise+pointwise (M5)`,
    ...plan.fusionUnits.slice(0, TOP_BUFFERS).map(
      (u) => `    ${u.name.padEnd(8)} ${String(u.nodes.length).padStart(3)} layers, on chip ${formatBytes(u.onChipBytes)}, saves ${formatBytes(u.trafficSaved)}`,
    ),
    ...(plan.fusionUnits.length > TOP_BUFFERS ? [`    ... and ${plan.fusionUnits.length - TOP_BUFFERS} more`] : []),
  ];
}

/** Compute-unit functions and boundary decisions (M3), when the target has several units. */
function unitLines(plan: ModelPlan): string[] {
  if (plan.functions.length <= 1 && plan.boundaries.length === 0) return [];
  const perUnit = new Map<string, number>();
  for (const f of plan.functions) perUnit.set(f.unit, (perUnit.get(f.unit) ?? 0) + 1);
  const reasons = new Map<string, number>();
  for (const b of plan.boundaries) if (!b.shared) reasons.set(b.reason, (reasons.get(b.reason) ?? 0) + 1);
  const shared = plan.boundaries.filter((b) => b.shared).length;
  const copies = [...reasons].map(([r, n]) => `${n} ${r}`).join(', ');
  return [
    `  functions     ${plan.functions.length}: ${[...perUnit].map(([u, n]) => `${n} on ${u}`).join(', ')}`,
    `  boundaries    ${plan.boundaries.length}: ${shared} shared${copies === '' ? '' : `, copied: ${copies}`}`,
  ];
}

/** What the strategy's own bound rests on, and whether the peak is proven at it (never the lowest of any plan: it is above the lower bound). */
function ownBoundWhy(plan: ModelPlan, split: boolean): string {
  const choices = split ? 'its split between regions and its sharing choices' : 'its sharing choices';
  const proof = plan.search?.proof;
  if (proof === 'search') return 'an exhaustive search proved no placement of its buffers lower: the peak is the lowest for them, not proven against the lower bound';
  if (proof === 'region-bounds') return `${choices}; every region is at its own bound: the peak is the lowest for this split, not proven against the lower bound`;
  return choices;
}

/** The human-readable summary of a plan. */
export function planText(file: string, plan: ModelPlan): string {
  const bytes = formatBytesExact;
  const estimate = plan.complete ? '' : `, a lower estimate: ${plan.assumptions.unknown.every((u) => u.pastLimit === true) ? `some sizes pass ${MAX_EXACT_POWER} bytes` : 'some sizes are unknown'}`;
  const least = plan.complete ? '' : 'at least '; // every region's figure is a lower estimate too
  const over = plan.regions.filter((r) => r.overBy > 0);
  const overLeast = planLowerEstimate(plan) ? 'at least ' : ''; // what a region needs: a TFLM kernel's unknown scratch too
  const lines = [
    `${file}: target ${plan.target}, strategy ${plan.strategy}, ${counted(plan.steps.length, 'step')}, ${counted(plan.buffers.length, 'buffer')}`,
    ...knownFitLines(plan),
    // refused by TensorFlow Lite Micro: the refusal is the verdict, and no "needs more" (no memory makes it fit)
    ...(refusedUnfit(plan)
      ? refusedRegions(plan).map((r) => `  DOES NOT FIT  region ${r.name}: no tensor arena works, within its ${formatBytes(r.sizeLimit)} limit or any other: TensorFlow Lite Micro refuses the model (why: 'refused' below)`)
      : [
          ...over.map((r) => {
            // in bytes when need and limit round alike, as the page writes them
            const [need, limit] = formatBytesApart(r.used ?? r.peak, r.sizeLimit ?? 0);
            return `  DOES NOT FIT  region ${r.name} needs ${overLeast}${need}${regionNeedEstimated(plan, r) ? ' (estimate)' : ''}${heldWeights(r)}, ${overLeast}${formatBytes(r.overBy)} over its ${limit} limit`;
          }),
          ...needsLines(plan, planLowerEstimate(plan)),
        ]),
    `  peak          ${bytes(plan.peak)}${estimate}`,
    ...gapLines(plan),
  ];
  const split = splitBetweenRegions(plan);
  if (plan.strategyBound !== undefined) lines.push(`  ${plan.strategy}'s own bound ${bytes(plan.strategyBound)} (${ownBoundWhy(plan, split)})`);
  lines.push(...portfolioLines(plan));
  lines.push(...assumptionLines(plan));
  // a region's name may be longer than the label column: the region lines then share a wider one, two spaces from the figures
  const regionLabel = Math.max(13, ...plan.regions.map((r) => `region ${r.name}`.length + 1));
  for (const r of plan.regions) {
    const limit = r.sizeLimit === undefined ? '' : `, limit ${formatBytes(r.sizeLimit)}${r.overBy > 0 ? `, ${formatBytes(r.overBy)} OVER` : ''}`;
    const spilled = (r.spilled ?? 0) > 0 ? `, ${formatBytes(r.spilled!)} of buffers spilled here in all over the run` : '';
    // weights of unknown size are counted as 0 bytes: the bytes set aside for them are a lower estimate
    const weightsLeast = (r.weights ?? 0) > 0 && (plan.weights.unknownSizes ?? 0) > 0 ? '≥ ' : '';
    const weights = (r.weights ?? 0) > 0 ? ` + ${weightsLeast}${formatBytes(r.weights!)} weights` : '';
    // a tail with a kernel's scratch not known is a lower estimate, and so is the sum
    const tailLeast = (r.runtimeTail ?? 0) > 0 && (plan.assumptions?.kernels ?? []).length > 0 ? '≥ ' : '';
    const tail = (r.runtimeTail ?? 0) > 0 ? ` + ${tailLeast}${formatBytes(r.runtimeTail!)} runtime tail and planning` : '';
    // the runtime's head when it is not the placement shown (the plan written is another one): the sum starts from it
    const head = r.runtimeHead !== undefined && r.runtimeHead !== r.peak ? `; the plan written: head ${formatBytes(r.runtimeHead)}` : '';
    const held = weights + tail === '' ? '' : `${head === '' ? ',' : head}${weights}${tail} = ${tailLeast || weightsLeast}${formatBytes(r.used!)}`;
    const ioLeast = ioOfUnknownSize(plan, r.name) ? 'at least ' : '';
    const io = (r.io ?? 0) > 0 || ioLeast !== '' ? `, ${ioLeast}${formatBytes(r.io ?? 0)} of graph I/O placed here over the run` : '';
    lines.push(`  ${`region ${r.name}`.padEnd(regionLabel)} ${least}${formatBytes(r.peak)} (bound ${formatBytes(r.lowerBound)}, ${r.fast ? 'fast' : 'slow'}${limit}${spilled}${io}${held})`);
  }
  lines.push(...spillLines(plan));
  lines.push(...runtimeLines(plan));
  lines.push(weightsLine(plan));
  lines.push(...ioLines(plan));
  const w = plan.waste;
  lines.push(`  waste         holes ${formatBytes(w.holes)}, alignment padding ${formatBytes(w.alignmentPadding)}, scratch growth ${formatBytes(w.scratchGrowth)}`);
  const o = plan.order;
  if (o.policy !== 'file') {
    const kept = o.keptFileOrder ? ' (no better than the file order, which is kept)' : '';
    lines.push(`  order         ${o.policy}: most bytes live ${formatBytes(o.maxLiveBefore)} in file order -> ${formatBytes(o.maxLiveAfter)}${kept}`);
  }
  if (plan.scratch !== undefined) {
    // each figure is a whole plan's peak, the plan's own first; apart in bytes where they round alike (5.52 KiB apart read as a tie)
    const s = plan.scratch;
    const [free, joint] = formatBytesApart(s.freeAreasPeak, s.withActivationsPeak);
    const ways = [`in free areas (M4) ${free}`, `planned with the activations ${joint}`];
    const [own, other] = s.placement === 'free-areas' ? ways : [ways[1], ways[0]];
    lines.push(`  scratch       ${counted(s.buffers, 'buffer')}, ${s.placement}; the plan's peak with scratch ${own}, with scratch ${other}`);
  }
  lines.push(...fusionLines(plan), ...unitLines(plan));
  const empty = emptyPeakWords(plan); // a step where nothing is live is no peak to explain
  if (empty !== undefined) lines.push(`  peak step     none: ${empty}`);
  else if (plan.peakStep !== undefined) {
    const step = plan.steps[plan.peakStep];
    lines.push(`  peak step     ${plan.peakStep}${step ? ` (${step.opType} '${step.node}')` : ''} in region ${plan.peakRegion}; live there:`);
    lines.push(...peakLiveLines(plan, TOP_BUFFERS));
  }
  lines.push(...suggestionLines(plan));
  // those said as warnings among the assumptions are not listed again
  const rest = plan.diagnostics.filter((d) => !TOP_WARNINGS.has(d.code));
  if (rest.length > 0) {
    lines.push(`  diagnostics (${rest.length}):`);
    for (const d of rest) lines.push(`    [${d.code}] ${d.message}`);
  }
  return lines.join('\n') + '\n';
}
