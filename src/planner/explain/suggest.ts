// suggestPlanChanges: what to change to lower a plan's peak, each change
// evaluated by planning again, with the bytes it saves. Depends only on the
// planner and the model's IR types.
//
// - Settings (exact): another execution order, the portfolio strategy, fusion
//   switched, a doubled SRAM or dw-pw cache, compute units off, scratch
//   planned with the activations where M4's placement in their free areas
//   grew the heap or that plan's peak is lower. Each is planned
//   again through `replan` with the same model and options, so `plan` with the
//   suggestion's `args` added reaches `peak - saves` exactly; `replan` may
//   instead prove without placing that a setting saves nothing (its bound is
//   not below the peak, or it plans the same problem), and it is left out.
//   Over two regions or more a setting can lower the total by moving bytes
//   from a fast region to a slow one: each changed region's peak is said
//   (`regions`), and one that raises a slow region's peak is a trade of fast
//   memory for slow (`slowGrowth`, with the bytes moved to and from slow
//   memory where known), worded so and ranked after the plain savings.
// - Model edits (no args): a buffer a Cast narrows right after, stored narrow;
//   a cheap producer recomputed before a far reader instead of keeping its
//   output. These are measured by placing the plan's buffers again with the
//   edit applied (assignOffsets on the changed problem against the same
//   placement of the unchanged one).
// - Spill on (suggest-spill.ts), when a plan kept in its first region does not
//   fit and the memory map has slower regions: judged by fit, not by bytes
//   saved; a suggestion that makes the plan fit ranks first.
// - Weights elsewhere (suggest-weights.ts), when a plan over its limits keeps
//   its weights in a region: in flash, or in each other region; judged by fit
//   as a spill is.
// - At most MAX_CANDIDATES plans, so the cost stays a small multiple of one plan.

import { assignOffsets } from '../assembly/assign-offsets';
import { WORK_PER_MS } from '../engine/work-clock';
import { formatBytes, formatSignedBytes } from '../../shared/format';
import type { PlacementProblem, PlanBuffer } from '../problem/problem';
import type { TargetProfile } from '../targets/target';
import type { PeakLiveRecord } from './peak-live';
import type { RegionPeak, Replanned } from './setting-replan';
import { spillSuggestion, type FitReplan } from './suggest-spill';
import { weightsCandidates, weightsSuggestion } from './suggest-weights';
import { applyTargetChange, changeArgs, ORDER_POLICIES, weightsText, type TargetChange } from './target-change';

/** Candidates planned again, at most. */
export const MAX_CANDIDATES = 8;
/** Counted work of each model-edit placement (the best strategy's searches): 50 ms worth on the work clock, so suggestions do not depend on the machine. */
const EDIT_WORK = 50 * WORK_PER_MS;

/** What a suggestion changes. */
export type SuggestionKind = 'order' | 'strategy' | 'fusion' | 'sram' | 'dw-pw-cache' | 'compute-units' | 'scratch' | 'spill' | 'weights' | 'dtype' | 'recompute';

/** One evaluated suggestion (`plan --json` suggestions[]). */
export interface Suggestion {
  readonly kind: SuggestionKind;
  readonly action: string; // what to do, in words
  readonly saves: number; // bytes off the peak
  readonly args?: readonly string[]; // CLI arguments that apply it; absent for a model edit
  readonly modelEdit?: string; // the model edit it needs, when it has no args
  readonly strategy?: string; // the strategy it plans with, when it changes it
  readonly change?: TargetChange; // the target fields it changes
  readonly buffer?: string; // the buffer a model edit is about
  readonly fits?: boolean; // a plan over its limits fits with it (a spill may fit while the peak rises: `saves` below 0)
  readonly regions?: readonly RegionChange[]; // each region whose peak a setting changes, in the target's order (two or more regions)
  readonly slowGrowth?: number; // bytes the slow regions' peaks rise by, summed: the saving trades fast memory for slow
  readonly slowTraffic?: { readonly before: number; readonly after: number }; // bytes moved to and from slow memory, with a trade, where known
}

/** One region's peak before and after a suggestion. */
export interface RegionChange {
  readonly name: string;
  readonly fast: boolean;
  readonly before: number;
  readonly after: number;
}

/** What suggestPlanChanges reads. */
export interface SuggestInput {
  readonly target: TargetProfile;
  readonly strategy: string; // the plan's strategy
  readonly strategyGiven: boolean; // the user chose it (else the target's own)
  readonly peak: number;
  readonly peakLive: readonly PeakLiveRecord[];
  readonly problem: PlacementProblem; // the plan's buffers, scratch included
  readonly hasComputeUnits: boolean; // the compute units partition the graph
  readonly scratchGrowth: number; // heap bytes M4 added above the activations' plan (waste.scratchGrowth)
  readonly withActivationsPeak?: number; // the peak with scratch planned with the activations (scratch.withActivationsPeak), where known
  readonly replan: (target: TargetProfile, strategy: string | undefined, change: TargetChange) => Replanned | undefined; // the plan made again; undefined: proven not below `peak`
  readonly regions?: readonly RegionPeak[]; // the plan's peak per region, to say which regions a setting changes
  readonly slowTraffic?: number; // the plan's bytes moved to and from slow memory (traffic.after)
  readonly overBy?: number; // bytes over the size limits, summed over the regions (default 0)
  readonly replanFit?: (target: TargetProfile) => FitReplan; // the plan with a changed target, in full (for the spill suggestion)
}

interface SettingCandidate {
  readonly kind: SuggestionKind;
  readonly action: string;
  readonly change: TargetChange;
  readonly strategy?: string;
}

/** One evaluation of suggestPlanChanges: a candidate planned again, or a model edit placed again. */
export interface SuggestionStep {
  readonly label: string; // what it evaluates, e.g. "run in depth-first order instead of file"
  readonly run: () => Suggestion[]; // the suggestion it finds (none when it saves nothing)
}

/** Every suggestion that lowers the peak, ranked as rankSuggestions ranks them; see the module header. */
export function suggestPlanChanges(input: SuggestInput): Suggestion[] {
  return rankSuggestions(suggestionSteps(input).flatMap((step) => step.run()));
}

/**
 * Suggestions that make the plan fit first, then those that lower the peak
 * without raising a slow region's, then the trades of fast memory for slow;
 * largest saving first within each; equal savings keep the order of their steps.
 */
export function rankSuggestions(found: readonly Suggestion[]): Suggestion[] {
  const trade = (s: Suggestion) => Number((s.slowGrowth ?? 0) > 0);
  return [...found].sort((a, b) => Number(b.fits === true) - Number(a.fits === true) || trade(a) - trade(b) || b.saves - a.saves);
}

/**
 * The evaluations of suggestPlanChanges one by one, so a caller can report
 * progress and stop between them; running all and ranking gives its answer.
 */
export function suggestionSteps(input: SuggestInput): SuggestionStep[] {
  const settings = settingCandidates(input)
    .slice(0, MAX_CANDIDATES)
    .map((c): SuggestionStep => ({ label: c.action, run: () => settingSuggestion(input, c) }));
  const spill = { target: input.target, peak: input.peak, overBy: input.overBy ?? 0, ...(input.replanFit !== undefined && { replanFit: input.replanFit }) };
  const spillStep: SuggestionStep[] = spill.overBy > 0 && input.target.planning.spill === 'off' ? [{ label: 'spill to the next region', run: () => spillSuggestion(spill) }] : [];
  const weightsSteps = weightsCandidates(spill).map((w): SuggestionStep => ({ label: `weights at ${weightsText(w)}`, run: () => weightsSuggestion(spill, w) }));
  return [...settings, ...spillStep, ...weightsSteps, { label: 'model edits', run: () => modelEdits(input) }];
}

/** The suggestion of one setting candidate, planned again; none when it saves nothing. */
function settingSuggestion(input: SuggestInput, c: SettingCandidate): Suggestion[] {
  const replanned = input.replan(applyTargetChange(input.target, c.change), c.strategy ?? (input.strategyGiven ? input.strategy : undefined), c.change);
  if (replanned === undefined || replanned.peak >= input.peak) return [];
  const { peak } = replanned;
  const saves = input.peak - peak;
  const regions = regionChanges(input.regions ?? [], replanned.regions);
  const slowGrowth = regions.filter((r) => !r.fast).reduce((sum, r) => sum + Math.max(0, r.after - r.before), 0);
  const slowTraffic = slowGrowth > 0 && input.slowTraffic !== undefined && replanned.slowTraffic !== undefined ? { before: input.slowTraffic, after: replanned.slowTraffic } : undefined;
  return [
    {
      kind: c.kind,
      action: `${c.action}: the peak falls to ${formatBytes(peak)}, ${formatBytes(saves)} less${regionWords(regions, slowGrowth, slowTraffic)}`,
      saves,
      args: changeArgs(c.change, c.strategy),
      ...(c.strategy !== undefined && { strategy: c.strategy }),
      change: c.change,
      ...(regions.length > 0 && { regions }),
      ...(slowGrowth > 0 && { slowGrowth }),
      ...(slowTraffic !== undefined && { slowTraffic }),
    },
  ];
}

/** Each region whose peak changes, when two or more do (one changed region is the whole saving); none when a side is unknown. */
function regionChanges(before: readonly RegionPeak[], after: readonly RegionPeak[]): RegionChange[] {
  const was = new Map(before.map((r) => [r.name, r.peak]));
  if (after.some((r) => !was.has(r.name))) return [];
  const changed = after.filter((r) => was.get(r.name) !== r.peak).map((r) => ({ name: r.name, fast: r.fast, before: was.get(r.name)!, after: r.peak }));
  return changed.length > 1 ? changed : [];
}

/**
 * ": sram 1.92 MiB → 0 B, dram 499 KiB → 1.87 MiB (+1.39 MiB)", led by "by
 * trading fast memory for slow" when a slow region grows, and the bytes moved
 * to and from slow memory when they change.
 */
function regionWords(regions: readonly RegionChange[], slowGrowth: number, traffic: Suggestion['slowTraffic']): string {
  if (regions.length === 0) return '';
  const each = regions.map((r) => `${r.name} ${formatBytes(r.before)} → ${formatBytes(r.after)} (${formatSignedBytes(r.after - r.before)})`);
  if (slowGrowth <= 0) return `: ${each.join(', ')}`;
  const moved = traffic === undefined || traffic.after === traffic.before ? '' : `; bytes moved to and from slow memory ${formatBytes(traffic.before)} → ${formatBytes(traffic.after)}`;
  return `, by trading fast memory for slow: ${each.join(', ')}${moved}`;
}

function settingCandidates({ target, strategy, hasComputeUnits, scratchGrowth, withActivationsPeak, peak }: SuggestInput): SettingCandidate[] {
  const out: SettingCandidate[] = [];
  for (const order of ORDER_POLICIES) {
    if (order !== target.planning.order) out.push({ kind: 'order', action: `run in ${order} order instead of ${target.planning.order}`, change: { order } });
  }
  if (strategy !== 'best') out.push({ kind: 'strategy', action: `plan with the best strategy instead of ${strategy}`, change: {}, strategy: 'best' });
  const fusion = target.fusion;
  if (fusion !== undefined) {
    out.push({ kind: 'fusion', action: fusion.enabled ? 'switch fusion off' : 'switch fusion on', change: { fusion: !fusion.enabled } });
    if (fusion.enabled) out.push({ kind: 'sram', action: `double the SRAM for fusion to ${formatBytes(fusion.sramBytes * 2)}`, change: { sramBytes: fusion.sramBytes * 2 } });
    if (fusion.enabled && fusion.dwPwCacheBytes !== undefined) {
      out.push({ kind: 'dw-pw-cache', action: `double the dw-pw cache to ${formatBytes(fusion.dwPwCacheBytes * 2)}`, change: { dwPwCacheBytes: fusion.dwPwCacheBytes * 2 } });
    }
  }
  if (hasComputeUnits) out.push({ kind: 'compute-units', action: computeUnitsAction(target.computeUnits), change: { computeUnits: 'off' } });
  // M4 can cost bytes without growing any heap: the activations' split and holes differ when scratch is planned with them
  if (target.scratch.placement === 'free-areas' && (scratchGrowth > 0 || (withActivationsPeak ?? peak) < peak)) {
    out.push({ kind: 'scratch', action: 'plan scratch with the activations instead of in the free areas they leave (M4)', change: { scratchPlacement: 'with-activations' } });
  }
  return out;
}

/**
 * What switching compute units off does: over several units, every op runs on one and no tensor is copied between
 * units; a target's one unit runs every op either way, so what goes is its own alignment and data types.
 */
function computeUnitsAction(units: TargetProfile['computeUnits']): string {
  const only = units.length === 1 ? units[0]! : undefined;
  if (only === undefined) return 'run every op on one compute unit (compute units off), so no tensor is copied between units';
  const types = [...(only.dtype.activations === 'model' ? [] : [`${only.dtype.activations} activations`]), ...(only.dtype.fakeQuantization ? ['fake quantization'] : [])];
  const rules = [`${only.alignment}-byte alignment`, ...types];
  return `plan without the ${only.name} unit's own rules, its ${rules.slice(0, -1).join(', ')}${rules.length > 1 ? ' and ' : ''}${rules[rules.length - 1]} (compute units off); as the one unit it runs every op either way`;
}

/** The model edits: narrow the largest buffer a Cast narrows; recompute the largest cheap skip. */
function modelEdits(input: SuggestInput): Suggestion[] {
  const out: Suggestion[] = [];
  const narrow = input.peakLive.find((r) => r.narrowTo !== undefined && r.counted > 0);
  if (narrow !== undefined) {
    const to = narrow.narrowTo!;
    const saves = editSaving(input, (b) => (b.id === narrow.id ? [{ ...b, size: to.size }] : [b]));
    if (saves > 0) {
      const edit = `move the Cast to ${to.dtype} before ${narrow.producer?.node ?? 'its producer'}, so ${narrow.name} is stored as ${to.dtype}`;
      out.push({ kind: 'dtype', action: `keep ${narrow.name} in ${to.dtype} (model edit: ${edit}): saves ${formatBytes(saves)}`, saves, modelEdit: edit, buffer: narrow.name });
    }
  }
  const skip = input.peakLive.find((r) => r.recomputable === true && r.counted > 0 && r.previousReader !== undefined);
  if (skip !== undefined) {
    const reader = skip.lastReader!;
    const saves = editSaving(input, (b) => (b.id === skip.id ? recomputed(b, skip.previousReader!.step, reader.step) : [b]));
    if (saves > 0) {
      const edit = `compute ${skip.producer!.opType} ${skip.producer!.node} again right before ${reader.node} and let ${reader.node} read that copy`;
      out.push({ kind: 'recompute', action: `recompute ${skip.name} instead of keeping it ${skip.span.steps} steps (model edit: ${edit}): saves ${formatBytes(saves)}`, saves, modelEdit: edit, buffer: skip.name });
    }
  }
  return out;
}

/**
 * The buffer kept until its earlier readers are done, and a recomputed copy
 * live from its far reader's step on (peak-live.ts checked that the producer's
 * inputs are live there anyway).
 */
function recomputed(b: PlanBuffer, previousStep: number, readerStep: number): PlanBuffer[] {
  const early = previousStep + 1;
  if (readerStep <= early) return [b];
  return [{ ...b, end: early }, { ...b, start: readerStep }];
}

/** Peak of the plan's buffers placed again as they are, minus placed again with `edit` applied to each buffer. */
function editSaving(input: SuggestInput, edit: (b: PlanBuffer) => PlanBuffer[]): number {
  const { problem } = input;
  const options = { workBudget: EDIT_WORK };
  const before = assignOffsets(problem, input.strategy, options).peak;
  const aliased = new Set((problem.aliases ?? []).flatMap((a) => [a.buffer, a.parent]));
  const changed = problem.buffers.flatMap((b) => (aliased.has(b.id) ? [b] : edit(b)));
  if (changed.length === problem.buffers.length && changed.every((b, i) => b === problem.buffers[i])) return 0;
  const ids = problem.buffers.map((b) => b.id);
  const renumbered = changed.map((b, i) => ({ ...b, id: i }));
  const newId = new Map<number, number>();
  changed.forEach((b, i) => {
    if (!newId.has(b.id)) newId.set(b.id, i);
  });
  const aliases = (problem.aliases ?? []).map((a) => ({ ...a, buffer: newId.get(ids[a.buffer]!)!, parent: newId.get(ids[a.parent]!)! }));
  const after = assignOffsets({ ...problem, buffers: renumbered, aliases }, input.strategy, options).peak;
  return Math.max(0, before - after);
}
