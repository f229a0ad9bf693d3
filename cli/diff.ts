// `heapscope diff`: compare two plans (models planned here, or saved plan files)
// and say why B's peak differs from A's, and which buffers changed region and
// the bytes they move; `--budget` fails CI when B is too big.

import { diffPlans, type PlanDiff, type RuntimeArenaFigures, type RuntimeDelta } from '../src/planner/diff/diff-plans';
import { isPlanFileText, readPlanFile, toPlanFile, type PlanFile } from '../src/planner/assembly/plan-file';
import { STRATEGY_NAMES } from '../src/planner/strategies/strategy-names';
import { sideLabels } from '../src/planner/diff/side-labels';
import { changeKindOf, MOVE_WORDS } from '../src/planner/diff/move-kind';
import { inputValues, shapeLabel, shapeOverrides, valueLabel } from '../src/planner/diff/input-changes';
import { arenaDeltaNote, declaredArenaText, deltaBound, deltaNote, deltaPrefix, noArenaReason, percentChange, regionChangeLines } from '../src/planner/diff/delta-words';
import { InputError, toErrorData } from '../src/shared/errors';
import { counted, formatBytes, formatCount, formatSignedBytes, MAX_EXACT_POWER, MINUS } from '../src/shared/format';
import { budgetMsOption, parseByteSize, type ParsedArgs } from './args';
import { displaySafe, readInputFile, type Output } from './io';
import { planModelFile, refusedWarningLine, strategyOption, strictProblems } from './plan';
import { dimsGivenTwice, ignoredOptions, pinsSpillOff } from './option-notes';
import { resolveTarget, TargetProfileError, targetSettingName } from './targets';
import { applyTargetChange, choiceOption, readTargetChange } from '../src/planner/explain/target-change';
import { planWithSavedSettings, savedSettingsLines, type SavedSettingsUse, type SideOptions } from './diff-saved-settings';
import { jsonRegionDeltas } from './json-fields';
import { bArena, bArenaField, bLowerEstimate, bNeeds, budgetVerdict, plannedAside, unknownWhy } from './diff-budget';

/** What a side TensorFlow Lite Micro refuses is told, in the words `plan` prints on its arena line. */
const REFUSED_WORDS = 'TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena';
/** The end of a refused side's DOES NOT FIT line, as `plan` ends it. */
const REFUSED_MODEL = 'TensorFlow Lite Micro refuses the model (why: its tflm-unsupported diagnostic)';

/** Exit code when B's peak exceeds --budget (0 ok, 1 internal error, 2 bad input). */
export const OVER_BUDGET_EXIT = 3;

/** Causes listed in the text report. */
const TOP_CAUSES = 8;
/** Buffers that changed region listed in the text report. */
const TOP_MOVES = 8;

/** Runs `diff`; returns the exit code. */
export function runDiff(args: ParsedArgs, io: Output): number {
  if (args.files.length !== 2) {
    throw new InputError('bad-argument', `diff takes two models or saved plans, a and b; got ${args.files.length === 0 ? 'none' : args.files.length}`);
  }
  const [fileA, fileB] = args.files as [string, string];
  const budgetText = args.options.get('--budget');
  const budget = budgetText === undefined ? undefined : parseByteSize(budgetText, '--budget');
  const { a: optsA, b: optsB } = sideOptions(args);
  const loaded = loadSides(fileA, fileB, optsA, optsB, args.flags.has('--json') ? io : undefined);
  const { planA, planB, savedSettings } = loaded;
  const diff = diffPlans(planA, planB);
  const need = bNeeds(diff);
  const verdict = budget === undefined ? undefined : budgetVerdict(diff, budget);
  // a model TensorFlow Lite Micro refuses is over any budget: no arena makes AllocateTensors() succeed
  const over = verdict === 'over' || verdict === 'refused';
  if (args.flags.has('--json')) {
    const changed = diff.buffers.filter((b) => b.status !== 'same');
    // budgetJudged: the figure the verdict compares with the budget, named by its field (on tflm, b's file as it is);
    // for a b TensorFlow Lite Micro refuses, the refusal (refusedB) is the verdict and `bytes` what b would need were it accepted
    // for a b with a tensor past 2^53 − 1 bytes, that tensor (pastLimitB) is the verdict: `bytes` counts it as 0
    const judged = { of: verdict === 'refused' ? 'refusedB' : diff.pastLimitB !== undefined && verdict === 'over' ? 'pastLimitB' : (bArenaField(diff) ?? 'peakB'), bytes: need };
    const extra = budget === undefined ? {} : { budget, overBudget: over, budgetVerdict: verdict, budgetJudged: judged };
    // how each side's placement search ended ('iterations': counted work, the same on any machine); absent for a saved plan that has no record
    const searches = { ...(planA.plan.search !== undefined && { searchA: planA.plan.search }), ...(planB.plan.search !== undefined && { searchB: planB.plan.search }) };
    // savedSettings: what the model side took from the saved plan on the other side
    // diagnosticsA, diagnosticsB: each side's plan diagnostics, as `plan --json` gives them (a --dim the model lacks: unknown-dim)
    const diagnostics = { diagnosticsA: planA.plan.diagnostics, diagnosticsB: planB.plan.diagnostics };
    io.out(JSON.stringify({ a: fileA, b: fileB, ...diff, regions: jsonRegionDeltas(diff.regions), ...searches, buffers: changed, ...extra, ...diagnostics, ...(savedSettings !== undefined && { savedSettings }) }) + '\n');
  } else {
    const notes = savedSettings === undefined ? [] : savedSettingsLines(displaySafe(savedSettings));
    io.out(diffText(displaySafe(fileA), displaySafe(fileB), displaySafe(planA), displaySafe(planB), displaySafe(diff), budget, notes));
  }
  // one dim given under two spellings: the note `plan` gives (each side's diagnostics list it too)
  const sides = { a: { file: fileA, plan: planA }, b: { file: fileB, plan: planB } };
  const strict = args.flags.has('--strict');
  for (const line of dimTwiceNotes(loaded.planned.map((side) => sides[side]), !strict)) io.err(line);
  const written = plannedAside(diff);
  // a lower estimate of what b needs makes the excess a lower estimate too
  const least = bLowerEstimate(diff) ? 'at least ' : '';
  if (verdict === 'refused') io.err(`heapscope: ${fileB}: no tensor arena works, within the budget of ${formatCount(budget!)} bytes or any other: ${displaySafe(planB.plan.runtimePlan?.refused?.[0] ?? '')}\n`);
  else if (over && diff.pastLimitB !== undefined) io.err(`heapscope: ${fileB}: '${displaySafe(diff.pastLimitB)}' needs more than ${MAX_EXACT_POWER} bytes (${formatCount(Number.MAX_SAFE_INTEGER)}), over the budget of ${formatCount(budget!)} bytes, as over any\n`);
  else if (over && budget !== undefined) io.err(`heapscope: ${fileB} needs ${least}${formatCount(need)} bytes${written === undefined ? '' : ' as it is'}, over the budget of ${formatCount(budget)} bytes by ${least}${formatCount(need - budget)}${written === undefined ? '' : ` (${least}${formatCount(written)} with heapscope's plan written in: plan --target tflm --save-tflite)`}\n`);
  if (verdict === 'unknown') io.err(`heapscope: ${fileB} needs at least ${formatCount(need)} bytes (${unknownWhy(diff)}), within the budget of ${formatCount(budget!)} bytes only as far as known\n`);
  // a side TensorFlow Lite Micro refuses, judged by no --budget nor size limit: plan's warning (--strict refuses it in its own line); one model as both sides, once
  const refused = budget === undefined && !strict ? [sides.a, sides.b].filter((s) => s.plan.plan.fits).map((s) => refusedWarningLine(s.file, s.plan.plan)) : [];
  for (const line of new Set(refused)) if (line !== undefined) io.err(line);
  // --budget judges b alone: a side a TensorFlow Lite Micro refuses is told all the same, unless b's refusal line names the same model
  const aRefused = budget !== undefined && !strict && !(verdict === 'refused' && fileA === fileB) ? refusedWarningLine(fileA, planA.plan, "--budget judges b alone, so a's refusal leaves the exit code as it is") : undefined;
  if (aRefused !== undefined) io.err(aRefused);
  let strictFailed = false;
  if (strict) {
    for (const [name, file, side] of [['a', fileA, planA], ['b', fileB, planB]] as const) {
      // an option the model had no use for is this command's, on a side planned here (a saved plan's were another command's)
      const ignored = loaded.planned.includes(name) ? ignoredOptions(side.plan) : [];
      for (const problem of [...strictProblems(side.plan), ...ignored]) {
        strictFailed = true;
        io.err(`heapscope: ${file} (${name}): --strict: ${problem}\n`);
      }
    }
  }
  // --strict's refusal outranks exit 3, as in `plan`: a budget verdict resting on assumptions is not verified.
  return strictFailed ? 2 : over ? OVER_BUDGET_EXIT : 0;
}

/**
 * A saved plan, or JSON that is read as one (and refused with the field that is
 * wrong): an ONNX model never starts with '{'.
 */
function isSavedPlan(bytes: Uint8Array): boolean {
  if (isPlanFileText(bytes)) return true;
  const first = bytes.find((x) => x !== 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0d);
  return first === 0x7b;
}

/** The memory-map options diff takes for both sides, each with a --b-* form for side b (--b-spill, --b-weights, --b-io). */
export const DIFF_MAP_OPTIONS = ['--spill', '--weights', '--io'] as const;

/** Plain options for both sides; --b-* options on top of them for side b. */
function sideOptions(args: ParsedArgs): { a: SideOptions; b: SideOptions } {
  const strategy = strategyOption(args);
  const bStrategy = choiceOption(args.options.get('--b-strategy'), '--b-strategy', STRATEGY_NAMES);
  const target = args.options.get('--target');
  const bTarget = args.options.get('--b-target');
  const mapA = new Map(DIFF_MAP_OPTIONS.map((name) => [name, args.options.get(name)]));
  const mapB = new Map(DIFF_MAP_OPTIONS.map((name) => [name, args.options.get(`--b-${name.slice(2)}`) ?? mapA.get(name)]));
  const plainMap = DIFF_MAP_OPTIONS.filter((name) => mapA.get(name) !== undefined);
  const bMap = DIFF_MAP_OPTIONS.map((name) => `--b-${name.slice(2)}`).filter((name) => args.options.get(name) !== undefined);
  const budgetMs = budgetMsOption(args);
  const plain = [...(Object.keys(args.dims).length > 0 ? ['--dim'] : []), ...(strategy === undefined ? [] : ['--strategy']), ...(target === undefined ? [] : ['--target']), ...(budgetMs === undefined ? [] : ['--budget-ms']), ...plainMap];
  const bOnly = [...(Object.keys(args.bDims).length > 0 ? ['--b-dim'] : []), ...(bStrategy === undefined ? [] : ['--b-strategy']), ...(bTarget === undefined ? [] : ['--b-target']), ...bMap];
  return {
    a: { dims: args.dims, shapes: args.shapes, inputValues: args.inputValues, strategy, target, memoryMap: Object.fromEntries(mapA), given: plain, ...(budgetMs !== undefined && { budgetMs }) },
    b: { dims: Object.assign(Object.create(null) as Record<string, number>, args.dims, args.bDims), dimOptions: Object.fromEntries(Object.keys(args.bDims).map((key) => [key, '--b-dim'])), shapes: args.shapes, inputValues: args.inputValues, strategy: bStrategy ?? strategy, target: bTarget ?? target, memoryMap: Object.fromEntries(mapB), given: [...bOnly, ...plain], ...(budgetMs !== undefined && { budgetMs }) },
  };
}

/**
 * Both sides, read and planned: a model against a saved plan is planned with
 * the plan's saved settings, the command line's on top (diff-saved-settings.ts).
 * A side that fails is bad input; with --json (`io` given) it also prints
 * `{ a, b, file, error: { code, message } }` (`file`: the side that failed),
 * as `plan` prints a file that fails.
 */
function loadSides(fileA: string, fileB: string, optsA: SideOptions, optsB: SideOptions, io: Output | undefined): LoadedSides {
  let failing: string | undefined = fileA;
  try {
    const bytesA = readInputFile(fileA);
    failing = fileB;
    const bytesB = readInputFile(fileB);
    failing = undefined;
    const savedA = isSavedPlan(bytesA);
    const savedB = isSavedPlan(bytesB);
    if (savedA && savedB && optsA.given.length > 0) {
      throw new InputError('bad-argument', `${optsA.given[0]} changes how a model is planned, but ${fileA} and ${fileB} are both saved plans`);
    }
    failing = fileA;
    const readA = savedA ? readSaved(fileA, bytesA, optsA, false) : undefined;
    failing = fileB;
    const readB = savedB ? readSaved(fileB, bytesB, optsB, true) : undefined;
    if (readA !== undefined && readB === undefined) {
      const { plan, use } = planSide(fileB, bytesB, optsB, { saved: readA, planned: 'b', from: 'a' });
      return { planA: readA, planB: plan, savedSettings: use, planned: ['b'] };
    }
    failing = fileA;
    if (readB !== undefined && readA === undefined) {
      const { plan, use } = planSide(fileA, bytesA, optsA, { saved: readB, planned: 'a', from: 'b' });
      return { planA: plan, planB: readB, savedSettings: use, planned: ['a'] };
    }
    const planA = readA ?? planSide(fileA, bytesA, optsA).plan;
    failing = fileB;
    return { planA, planB: readB ?? planSide(fileB, bytesB, optsB).plan, planned: readB === undefined ? ['a', 'b'] : [] };
  } catch (error) {
    const file = error instanceof TargetProfileError ? error.profile : failing;
    if (io !== undefined && error instanceof InputError) io.out(JSON.stringify({ a: fileA, b: fileB, ...(file !== undefined && { file }), error: toErrorData(error) }) + '\n');
    throw error;
  }
}

/** Both sides; `planned`: the sides planned from a model here, not read from a saved plan. */
interface LoadedSides {
  readonly planA: PlanFile;
  readonly planB: PlanFile;
  readonly savedSettings?: SavedSettingsUse;
  readonly planned: readonly ('a' | 'b')[];
}

/**
 * `plan`'s notes for one dim given under two spellings ("heapscope: note: FILE: dim 'seq_len' given twice …")
 * and, with `ignored` (not under --strict, which refuses them), for an option the model had no use for
 * ("--b-dim sequence_lenght=4096 is ignored: …"), for each side planned here; a line both sides share
 * (one model, the same options) is said once.
 */
function dimTwiceNotes(sides: readonly { readonly file: string; readonly plan: PlanFile }[], ignored: boolean): string[] {
  const messages = (plan: PlanFile) => [...dimsGivenTwice(plan.plan), ...(ignored ? ignoredOptions(plan.plan) : []), ...pinsSpillOff(plan.plan)];
  const lines = sides.flatMap(({ file, plan }) => messages(plan).map((message) => `heapscope: note: ${file}: ${message}\n`));
  return [...new Set(lines)];
}

/** A saved plan as written; --b-* options, which plan side b, refuse one as b. */
function readSaved(file: string, bytes: Uint8Array, options: SideOptions, isB: boolean): PlanFile {
  const bOption = options.given.find((o) => o.startsWith('--b-'));
  if (isB && bOption !== undefined) {
    throw new InputError('bad-argument', `${bOption} changes how side b is planned, but ${file} is a saved plan; pass its model instead`);
  }
  return readPlanFile(new TextDecoder().decode(bytes), file);
}

/** A model planned with the side's options, or with the settings of the saved plan on the other side and the options on top. */
function planSide(file: string, bytes: Uint8Array, options: SideOptions, other?: { saved: PlanFile; planned: 'a' | 'b'; from: 'a' | 'b' }): { plan: PlanFile; use?: SavedSettingsUse } {
  try {
    if (other !== undefined) return planWithSavedSettings(file, bytes, other.saved, options, other);
    const profile = applyTargetChange(resolveTarget(options.target), readTargetChange((name) => (Object.hasOwn(options.memoryMap, name) ? options.memoryMap[name] : undefined)));
    const { model, plan } = planModelFile(file, { dims: options.dims, ...(options.dimOptions !== undefined && { dimOptions: options.dimOptions }), shapes: options.shapes, inputValues: options.inputValues }, profile, options.strategy, bytes, false, options.budgetMs);
    return { plan: toPlanFile(model, plan, { model: file, target: targetSettingName(options.target), targetProfile: profile, dims: options.dims }) };
  } catch (error) {
    // a --target profile that fails is named by itself, not by the model
    if (error instanceof InputError && !(error instanceof TargetProfileError) && !error.message.includes(file)) throw new InputError(error.code, `${file}: ${error.message}`);
    throw error;
  }
}

/** The side's settings in one parenthesis: target, strategy, dims, shapes and input values given; what differs follows it (side-labels.ts). */
function settingsText(file: PlanFile): string {
  const dims = Object.entries(file.settings.dims).map(([name, value]) => `${name}=${value}`);
  const shapes = Object.keys(shapeOverrides(file) ?? {}).map((name) => shapeLabel(file, name));
  const values = Object.keys(inputValues(file) ?? {}).map((name) => valueLabel(file, name));
  return [file.settings.target, file.plan.strategy, ...dims, ...shapes, ...values].join(', ');
}

const signed = formatSignedBytes;
/** A byte count beside `signed`, with the same minus sign: "−302,848", not "-302,848". */
const signedCount = (n: number) => `${n < 0 ? MINUS : ''}${formatCount(Math.abs(n))}`;
/** A peak, "≥ 8.06 MiB" when it is a lower estimate. */
const peakBytes = (n: number, complete: boolean) => `${complete ? '' : '≥ '}${formatBytes(n)}`;

/**
 * The tensor arenas both sides declare (TensorFlow Lite Micro), the comparison
 * the firmware makes: with the plan written into each file, and before it the
 * files as they are when that differs on a side.
 */
function runtimeLines(runtime: RuntimeDelta): string[] {
  return [...arenaLines(runtime), ...(['a', 'b'] as const).filter((side) => runtime[side].refused).map((side) => `  ${side}: NO arena works: ${REFUSED_WORDS} (why: its tflm-unsupported diagnostic); its figures are what TFLM would plan were the model accepted`)];
}

/**
 * A side's arena to declare as the page and `plan` write it (declaredArenaText): "80.4 KiB (estimate)" when it rests
 * on the tail's estimated parts, "≥ 73.1 KiB" when a lower estimate. A refused side keeps its figures here: its own
 * line says no arena works.
 */
function arenaText(bytes: number, side: Pick<RuntimeArenaFigures, 'lowerEstimate' | 'tailEstimated'>): string {
  return declaredArenaText(bytes, { estimate: side.tailEstimated, lowerEstimate: side.lowerEstimate, refused: false });
}

/**
 * The arena to declare of the one side that is a TensorFlow Lite Micro plan, when the other is not one: no delta, the
 * other side declaring no arena (its figure is its peak), as the lines say.
 */
function oneSideArenaLines(diff: PlanDiff, a: PlanFile, b: PlanFile): string[] {
  const [side, figures, other, otherFile] = diff.runtimeB !== undefined ? (['b', diff.runtimeB, 'a', a] as const) : diff.runtimeA !== undefined ? (['a', diff.runtimeA, 'b', b] as const) : [];
  if (side === undefined) return [];
  const none = `; ${other} is no TensorFlow Lite Micro plan (${noArenaReason(otherFile.settings)}) and declares no arena`;
  const parts = `head ${formatBytes(figures.head)}, tail and planning ${formatBytes(figures.tail)}`;
  const line = (bytes: number, what: string) => `arena to declare, ${side} only: ${arenaText(bytes, figures)} (TensorFlow Lite Micro, ${what})${none}`;
  const lines = figures.arenaAsIs === figures.arena
    ? [line(figures.arena, `the plan written: ${parts}`)]
    : [line(figures.arenaAsIs, 'the file as it is, flashed unchanged'), line(figures.arena, `the plan written in by --save-tflite: ${parts}`)];
  if (figures.refused) lines.push(`  ${side}: NO arena works: ${REFUSED_WORDS} (why: its tflm-unsupported diagnostic); its figures are what TFLM would plan were the model accepted`);
  return lines;
}

/** The arena-to-declare lines of runtimeLines. */
function arenaLines(runtime: RuntimeDelta): string[] {
  const { a, b } = runtime;
  const bound = deltaBound(!a.lowerEstimate, !b.lowerEstimate);
  const least = deltaPrefix(bound);
  const line = (from: number, to: number, delta: number, what: string) =>
    `arena to declare ${arenaText(from, a)} -> ${arenaText(to, b)}: ${least}${signed(delta)}${percentChange(delta, from)}, ${least}${signedCount(delta)} bytes (TensorFlow Lite Micro, ${what})`;
  const note = arenaDeltaNote(bound);
  const parts = `head ${formatBytes(a.head)} -> ${formatBytes(b.head)}, tail and planning ${formatBytes(a.tail)} -> ${formatBytes(b.tail)}${note === undefined ? '' : `; ${note}`}`;
  if (a.arenaAsIs === a.arena && b.arenaAsIs === b.arena) return [line(a.arena, b.arena, runtime.delta, `the plan written: ${parts}`)];
  return [
    line(a.arenaAsIs, b.arenaAsIs, runtime.deltaAsIs, 'the files as they are, flashed unchanged'),
    line(a.arena, b.arena, runtime.delta, `the plan written in by --save-tflite: ${parts}`),
  ];
}

/** The short human-readable report of a diff. */
export function diffText(fileA: string, fileB: string, a: PlanFile, b: PlanFile, diff: PlanDiff, budget: number | undefined, settingsNotes: readonly string[] = []): string {
  const percent = percentChange(diff.delta, diff.peakA);
  const [labelA, labelB] = sideLabels(a, b);
  const bound = deltaBound(diff.completeA, diff.completeB);
  const least = deltaPrefix(bound);
  const note = deltaNote(bound);
  // an arena on either side: the peak is heapscope's placement, not what that side's firmware declares
  const arenas = diff.runtime !== undefined || diff.runtimeA !== undefined || diff.runtimeB !== undefined;
  const notes = [note, arenas ? "heapscope's placement, not the arena the firmware declares" : undefined].filter((t) => t !== undefined);
  const lines = [
    `a: ${fileA} (${settingsText(a)}) — ${labelA}`,
    `b: ${fileB} (${settingsText(b)}) — ${labelB}`,
    ...settingsNotes,
    ...(diff.runtime === undefined ? oneSideArenaLines(diff, a, b) : runtimeLines(diff.runtime)),
    `peak ${peakBytes(diff.peakA, diff.completeA)} -> ${peakBytes(diff.peakB, diff.completeB)}: ${least}${signed(diff.delta)}${percent}, ${least}${signedCount(diff.delta)} bytes${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`,
  ];
  lines.push(...regionChangeLines(diff, '->').map((line) => `  ${line}`));
  lines.push(...overLines(diff, least));
  lines.push(...movedLines(diff));
  if (diff.causes.length === 0) lines.push('no cause: the two plans need the same memory at their peaks');
  else lines.push(arenas ? 'causes of the peak change, largest first:' : 'causes, largest first:');
  for (const c of diff.causes.slice(0, TOP_CAUSES)) lines.push(`  ${signed(c.bytes).padStart(11)}  ${c.summary}`);
  if (diff.causes.length > TOP_CAUSES) lines.push(`  ... and ${diff.causes.length - TOP_CAUSES} more (--json lists them all)`);
  const counts = new Map<string, number>();
  // a buffer moved is counted by the way it moved: to another region, as a region-moved cause counts them, or within one
  for (const x of diff.buffers) counts.set(changeKindOf(x), (counts.get(changeKindOf(x)) ?? 0) + 1);
  const statuses = ['grown', 'shrunk', ...['unknown'].filter((s) => counts.has(s)), 'new', 'gone', 'between-regions', 'within-region', ...['off-chip', 'on-chip'].filter((s) => counts.has(s)), 'same'];
  const only = diff.modelsDiffer === true ? new Map([['new', 'only in b'], ['gone', 'only in a']]) : new Map<string, string>();
  const moves = new Map<string, string>(Object.entries(MOVE_WORDS));
  const word = (s: string) => only.get(s) ?? moves.get(s) ?? (s === 'off-chip' || s === 'on-chip' ? `moved ${s.replace('-', ' ')}` : s === 'unknown' ? 'of unknown size on a side' : s);
  lines.push(`buffers: ${statuses.map((s) => `${counts.get(s) ?? 0} ${word(s)}`).join(', ')}`);
  lines.push(...diagnosticLines('a', a), ...diagnosticLines('b', b));
  if (budget !== undefined) {
    const need = bNeeds(diff);
    const arena = bArena(diff);
    const what = arena === undefined ? 'its peak is a lower estimate (some sizes unknown)' : `its arena to declare is a lower estimate (${unknownWhy(diff)})`;
    const words = {
      refused: () => 'REFUSED by TensorFlow Lite Micro, over any budget: AllocateTensors() fails whatever the arena',
      over: () => (diff.pastLimitB !== undefined ? `OVER: '${diff.pastLimitB}' needs more than ${MAX_EXACT_POWER} bytes, over any budget` : `OVER by ${bLowerEstimate(diff) ? 'at least ' : ''}${formatBytes(need - budget)}`),
      within: () => `within, ${formatBytes(budget - need)} to spare`,
      unknown: () => `within only as far as known, at most ${formatBytes(budget - need)} to spare: ${what}, so it may be over`,
    };
    const kind = budgetVerdict(diff, budget);
    const verdict = words[kind]();
    // refused, no figure is judged: the refusal is the verdict
    // an arena resting on the tail's estimated parts makes the verdict rest on them too, as its arena line says
    const estimate = arena !== undefined && arena.tailEstimated && !arena.lowerEstimate ? ', an estimate' : '';
    const judged = kind === 'refused' ? ', not judged on a figure: TensorFlow Lite Micro refuses b' : arena === undefined ? '' : `, judged on its arena to declare for the file as it is${estimate}`;
    // a b that fits no limit because TensorFlow Lite Micro refuses it has the verdict 'refused' already
    const overB = diff.regions.filter((r) => r.overByB > 0).map((r) => `region ${r.name} over its limit`);
    const unfit = diff.fitsB || overB.length === 0 ? '' : `; but b does not fit its target (${overB.join(', ')})`;
    lines.push(`budget ${formatBytes(budget)} (${formatCount(budget)} bytes${judged}): b ${verdict}${unfit}${plannedVerdict(diff, budget)}`);
  }
  return lines.join('\n') + '\n';
}

/** "; with heapscope's plan written in, b would declare …": the arena b would need were the plan written, when that differs from the file's as it is. */
function plannedVerdict(diff: PlanDiff, budget: number): string {
  const planned = plannedAside(diff);
  const arena = bArena(diff);
  if (planned === undefined || arena === undefined || arena.refused) return '';
  const lower = arena.lowerEstimate;
  const verdict = planned > budget ? 'still over' : lower ? 'within only as far as known' : 'within';
  return `; with heapscope's plan written in (plan --target tflm --save-tflite), b would declare ${arenaText(planned, arena)}, ${verdict}`;
}

/**
 * "  b DOES NOT FIT  region fast needs 30.6 KiB, 14.6 KiB over its 16.0 KiB limit": each side's regions over their
 * limits, as plan says it; for a side TensorFlow Lite Micro refuses that does not fit, the refusal instead, as plan
 * says it too: no arena works, so no "needs" of more bytes.
 */
function overLines(diff: PlanDiff, least: string): string[] {
  const lines: string[] = [];
  for (const side of ['a', 'b'] as const) {
    const [fits, refused] = side === 'a' ? [diff.fitsA, diff.refusedA === true] : [diff.fitsB, diff.refusedB === true];
    if (refused && !fits) {
      const limited = diff.regions.filter((r) => (side === 'a' ? r.sizeLimitA : r.sizeLimitB) !== undefined);
      for (const r of limited) lines.push(`  ${side} DOES NOT FIT  region ${r.name}: no tensor arena works, within its ${formatBytes(side === 'a' ? r.sizeLimitA : r.sizeLimitB)} limit or any other: ${REFUSED_MODEL}`);
      continue;
    }
    // what a region of a TFLM plan holds besides the peak is TFLM's tail: "(estimate)" when the tail rests on estimated parts, as plan says it
    const figures = side === 'a' ? (diff.runtime?.a ?? diff.runtimeA) : (diff.runtime?.b ?? diff.runtimeB);
    for (const r of diff.regions) {
      const [over, limit, peak] = side === 'a' ? [r.overByA, r.sizeLimitA, r.peakA] : [r.overByB, r.sizeLimitB, r.peakB];
      const estimate = figures?.tailEstimated === true && limit !== undefined && limit + over !== peak ? ' (estimate)' : '';
      if (over > 0 && limit !== undefined) lines.push(`  ${side} DOES NOT FIT  region ${r.name} needs ${least}${formatBytes(limit + over)}${estimate}, ${least}${formatBytes(over)} over its ${formatBytes(limit)} limit${limit + over === peak ? '' : ' (with what it holds besides the peak)'}`);
    }
  }
  return lines;
}

/** A side's plan diagnostics, as `plan` lists them (a --dim, --shape or --input the model has no use for among them). */
function diagnosticLines(side: 'a' | 'b', file: PlanFile): string[] {
  const diagnostics = file.plan.diagnostics;
  if (diagnostics.length === 0) return [];
  return [`diagnostics of ${side} (${diagnostics.length}):`, ...diagnostics.map((d) => `  [${d.code}] ${d.message}`)];
}

const DIRECTION = { 'to-slow': 'to slow memory', 'to-fast': 'to fast memory', across: 'same speed' } as const;

/** Bytes moved per region over one inference, and the buffers that changed region, most bytes moved first. */
function movedLines(diff: PlanDiff): string[] {
  const moved = diff.moved;
  if (moved === undefined) return [];
  const lines = ['bytes moved over one inference (written and read):'];
  for (const r of moved.regions) lines.push(`  region ${r.name}: ${formatBytes(r.movedA)} -> ${formatBytes(r.movedB)} (${signed(r.delta)})`);
  if (moved.buffers.length === 0) return [...lines, '  no buffer changed region'];
  lines.push(`  ${counted(moved.buffers.length, 'buffer')} changed region, most bytes moved first:`);
  for (const m of moved.buffers.slice(0, TOP_MOVES)) {
    const bytes = m.movedA === m.movedB ? formatBytes(m.movedB) : `${formatBytes(m.movedA)} -> ${formatBytes(m.movedB)}`;
    lines.push(`  ${bytes.padStart(11)}  '${m.name}' ${m.regionA} -> ${m.regionB} (${DIRECTION[m.direction]})`);
  }
  if (moved.buffers.length > TOP_MOVES) lines.push(`  ... and ${moved.buffers.length - TOP_MOVES} more (--json lists them all)`);
  return lines;
}
