// What Compare's "B − A" compares: the peaks of heapscope's placements, or,
// when both sides are plans of TensorFlow Lite Micro, the tensor arenas the
// firmware declares (head and tail), with the peaks' change beside them, as
// `heapscope diff` prints them (planner/diff/runtime-delta.ts): an arena that
// is a lower estimate marked "≥" and the change bounded by it, one resting
// on the tail's estimated parts "(estimate)", as Details writes it, and, where
// a file as it is needs another arena than with heapscope's plan written in,
// the files as they are beside it. When one side alone is such a plan, B − A
// is of the peaks, and that side's arena to declare is named beside it with
// its side ("arena to declare, B only: …"), as diff names it.

import { planRefused } from '../../planner/assembly/assumptions';
import type { PlanDiff, RuntimeArenaFigures } from '../../planner/diff/diff-plans';
import type { ModelPlan } from '../../planner/plan';
import { planFits, regionOverBy } from '../../store/fit-words';
import { arenaDeltaNote, declaredArenaText, deltaBound, deltaNote, deltaPrefix, noArenaReason, percentChange, type ArenaStanding, type DeltaBound, type NoArenaSettings } from '../../planner/diff/delta-words';
import { formatBytes, formatSignedBytes } from '../../shared/format';
import { peakText } from '../plan-words';

/** The figure B − A reads. */
export interface ComparedFigure {
  readonly what: 'peak' | 'arena';
  readonly a: number; // A's figure in bytes, the base of the percentage (on tflm, the arena with the plan written)
  readonly b: number;
  readonly delta: number; // b - a
  readonly bound: DeltaBound; // how the true change relates to `delta`: a side's figure may be a lower estimate
  readonly note: string | undefined; // why the change is not exact; undefined when it is
  readonly asIs: AsIsFigure | undefined; // TFLM: the files as they are, when a side's differs from its arena with the plan written
  readonly label: string; // what the line names ("B − A", "B − A, arena to declare")
  readonly detail: string | undefined; // the arena's head and the rest (TFLM's tail and planning, as the memory map names it), and the peaks' change, when `what` is 'arena'; the one side's arena when `alone` is set
  readonly alone: OneSideArena | undefined; // one side alone a TFLM plan: its arena to declare (diff's runtimeA or runtimeB), no arenas' change
}

/** The arena to declare of the one side that is a TensorFlow Lite Micro plan, the other declaring none. */
export interface OneSideArena {
  readonly side: 'a' | 'b';
  readonly figures: RuntimeArenaFigures;
}

/** The arenas TFLM plans for the files as they are, flashed unchanged. */
export interface AsIsFigure {
  readonly a: number;
  readonly b: number;
  readonly delta: number; // b - a
}

/**
 * The figure a comparison is read by; see the module header. `settings`, each side's, say why a side is no TFLM plan
 * when the other is one ("target cpu"), as diff does; without them the reason is left out.
 */
export function comparedFigure(diff: PlanDiff, settings?: { readonly a: NoArenaSettings; readonly b: NoArenaSettings }): ComparedFigure {
  const runtime = diff.runtime;
  if (runtime === undefined) {
    const bound = deltaBound(diff.completeA, diff.completeB);
    const alone = diff.runtimeB !== undefined ? { side: 'b' as const, figures: diff.runtimeB } : diff.runtimeA !== undefined ? { side: 'a' as const, figures: diff.runtimeA } : undefined;
    // a side TensorFlow Lite Micro refuses though the other is planned for another target: the peaks, and the refusal before them
    const refused = refusedText(diff, alone !== undefined);
    const arena = alone === undefined ? '' : oneSideArenaText(alone, settings?.[alone.side === 'a' ? 'b' : 'a']);
    const detail = `${refused}${arena}`.trimEnd();
    return { what: 'peak', a: diff.peakA, b: diff.peakB, delta: diff.delta, bound, note: deltaNote(bound), asIs: undefined, label: 'B − A', detail: detail === '' ? undefined : detail, alone };
  }
  const { a, b } = runtime;
  const bound = deltaBound(!a.lowerEstimate, !b.lowerEstimate);
  const differs = a.arenaAsIs !== a.arena || b.arenaAsIs !== b.arena;
  const asIs = differs ? { a: a.arenaAsIs, b: b.arenaAsIs, delta: runtime.deltaAsIs } : undefined;
  const arena = (pick: (f: RuntimeArenaFigures) => number) => `${declaredArenaText(pick(a), standingOf(a))} → ${declaredArenaText(pick(b), standingOf(b))}`;
  const parts = `(head ${formatBytes(a.head)} → ${formatBytes(b.head)}, tail and planning ${formatBytes(a.tail)} → ${formatBytes(b.tail)})`;
  const arenas = differs
    ? `TensorFlow Lite Micro arena ${arena((f) => f.arenaAsIs)} for the files as they are, flashed unchanged; ${arena((f) => f.arena)} with heapscope's plan written in ${parts}`
    : `TensorFlow Lite Micro arena ${arena((f) => f.arena)} ${parts}`;
  const peaks = `heapscope's placement: ${placementPeaksText(diff)}, not what the firmware declares`;
  const refused = refusedText(diff, true);
  return { what: 'arena', a: a.arena, b: b.arena, delta: runtime.delta, bound, note: arenaDeltaNote(bound, ['A', 'B']), asIs, label: 'B − A, arena to declare', detail: `${refused}${arenas} · ${peaks}`, alone: undefined };
}

/**
 * "arena to declare, B only: 80.4 KiB (estimate) (TensorFlow Lite Micro, head 54.0 KiB + tail and planning 26.4 KiB);
 * A is no TensorFlow Lite Micro plan (target cpu) and declares no arena, so B − A is of heapscope's placements", as
 * diff's "arena to declare, b only" line, the file as it is first where it needs another arena.
 */
function oneSideArenaText({ side, figures }: OneSideArena, other: NoArenaSettings | undefined): string {
  const [name, otherName] = side === 'a' ? ['A', 'B'] : ['B', 'A'];
  const standing = standingOf(figures);
  const parts = `(TensorFlow Lite Micro, head ${formatBytes(figures.head)} + tail and planning ${formatBytes(figures.tail)})`;
  const arenas =
    figures.arenaAsIs === figures.arena
      ? `${declaredArenaText(figures.arena, standing)} ${parts}`
      : `${declaredArenaText(figures.arenaAsIs, standing)} for the file as it is, flashed unchanged; ${declaredArenaText(figures.arena, standing)} with heapscope's plan written in ${parts}`;
  const why = other === undefined ? '' : ` (${noArenaReason(other)})`;
  return `arena to declare, ${name} only: ${arenas}; ${otherName} is no TensorFlow Lite Micro plan${why} and declares no arena, so B − A is of heapscope's placements, not the arena the firmware declares`;
}

/** "No arena works for B: …" when TensorFlow Lite Micro refuses a side (read from each side's own plan), as diff says it; empty when neither is refused. */
function refusedText(diff: Pick<PlanDiff, 'refusedA' | 'refusedB'>, arenas: boolean): string {
  const sides = [diff.refusedA === true ? 'A' : '', diff.refusedB === true ? 'B' : ''].filter((s) => s !== '');
  if (sides.length === 0) return '';
  const figures = arenas ? '; the figures are what it would plan were it accepted' : '';
  return `No arena works for ${sides.join(' or ')}: TensorFlow Lite Micro refuses ${sides.length === 1 ? 'it' : 'both'}, AllocateTensors() fails whatever the arena${figures}. `;
}

/**
 * The peaks of heapscope's placements on either side, beside the arenas: "peak 3.50 MiB → 3.50 MiB (±0 B)", as diff
 * prints them (a bare "peak 0 B" read as a placement peaking at nothing), "≥" for a peak that is a lower estimate and
 * the change bounded so.
 */
export function placementPeaksText(diff: Pick<PlanDiff, 'peakA' | 'peakB' | 'delta' | 'completeA' | 'completeB'>): string {
  const least = deltaPrefix(deltaBound(diff.completeA, diff.completeB));
  return `peak ${peakText(diff.peakA, diff.completeA)} → ${peakText(diff.peakB, diff.completeB)} (${least}${formatSignedBytes(diff.delta)})`;
}

/**
 * A side's arena in Compare's summary: "arena ≥ 73.1 KiB (head 72.7 KiB + tail
 * and planning 416 B)", "arena 80.4 KiB (estimate) (head …)" when it rests on
 * the tail's estimated parts, led by the file's as it is when that differs:
 * "arena ≥ 4.05 MiB as it is · ≥ 3.55 MiB with the plan written (head …)".
 */
export function arenaSideText(arena: Pick<RuntimeArenaFigures, 'head' | 'tail' | 'arena' | 'arenaAsIs' | 'lowerEstimate'> & Partial<Pick<RuntimeArenaFigures, 'refused' | 'tailEstimated'>>): string {
  const parts = `(head ${formatBytes(arena.head)} + tail and planning ${formatBytes(arena.tail)})`;
  const standing = standingOf(arena);
  const planned = declaredArenaText(arena.arena, standing);
  // a model TensorFlow Lite Micro refuses: no arena works, the figures are what it would plan were it accepted
  const refused = arena.refused === true ? 'no arena works, TensorFlow Lite Micro refuses it; were it accepted: ' : '';
  if (arena.arenaAsIs === arena.arena) return `${refused}arena ${planned} ${parts}`;
  return `${refused}arena ${declaredArenaText(arena.arenaAsIs, standing)} as it is · ${planned} with the plan written ${parts}`;
}

/**
 * A side's arenas as Details, the memory map and the heap's header read them (declaredArenaText): "(estimate)" when
 * they rest on the tail's estimated parts, "≥" when a lower estimate. A refused side still shows its figures here,
 * led by the refusal.
 */
function standingOf(arena: Pick<RuntimeArenaFigures, 'lowerEstimate'> & Partial<Pick<RuntimeArenaFigures, 'tailEstimated'>>): ArenaStanding {
  return { estimate: arena.tailEstimated === true, lowerEstimate: arena.lowerEstimate, refused: false };
}

/**
 * What a side's summary says of its limits: "sram 4.19 MiB over" for each region over its limit; "does not fit:
 * TensorFlow Lite Micro refuses it" for a model TFLM refuses that does not fit (no arena works, so no bytes over are
 * the gap), as `plan` and `diff` say it; undefined when the side fits.
 */
export function overLimitSideText(plan: ModelPlan): string | undefined {
  if (planFits(plan)) return undefined;
  if (planRefused(plan)) return 'does not fit: TensorFlow Lite Micro refuses it, no arena works';
  const over = plan.regions.filter((r) => regionOverBy(r) > 0);
  if (over.length === 0) return undefined;
  const least = plan.complete ? '' : '≥ ';
  return over.map((r) => `${r.name} ${least}${formatBytes(regionOverBy(r))} over`).join(', ');
}

/** "(+10.0 %)" of B − A against A's figure; empty when A's is 0. */
export function deltaPercent(figure: Pick<ComparedFigure, 'a' | 'delta'>): string {
  return percentChange(figure.delta, figure.a);
}
