// The runtime plan of a .tflite model planned for TensorFlow Lite Micro, in
// words: TFLM's own head (or the head of the file's offline plan, checked),
// heapscope's head once written into the file and what it saves, the tail with
// its estimated parts, and the arena to declare with its reason. Each line is a
// figure and the sentence that says what it is and what it assumes. Pure.

import { arenaBytes, declaredArenaText, type ArenaStanding } from '../../planner/diff/delta-words';
import type { RuntimePlan } from '../../planner/tflm/runtime-plan';
import { formatBytes } from '../../shared/format';

/** One figure of the runtime plan and what it is. */
export interface RuntimeLine {
  readonly key: 'file' | 'tflm' | 'greedy' | 'planned' | 'tail' | 'arena';
  readonly label: string;
  readonly bytes: number;
  readonly text: string; // what the figure is and what it rests on, one or two sentences
  readonly tone?: 'good' | 'bad'; // a saving, or a file plan that shares bytes between live tensors
  readonly atLeast?: true; // a lower estimate: shown as "≥ bytes"
  readonly shown?: string; // the figure as shown, when not `bytes` alone: the arena to declare (declaredArenaText)
}

/** TensorFlow Lite Micro's arena to declare as Details shows it (declaredArenaText): its bytes, the figure as shown and what it rests on; undefined for a plan without a runtime plan (any target but tflm). */
export function declaredArenaFigure(plan: { readonly runtimePlan?: RuntimePlan; readonly peak: number }): { readonly bytes: number; readonly shown: string; readonly text: string } | undefined {
  if (plan.runtimePlan === undefined) return undefined;
  const line = runtimeLines(plan.runtimePlan, plan.peak).find((l) => l.key === 'arena')!;
  return { bytes: line.bytes, shown: line.shown ?? formatBytes(line.bytes), text: line.text };
}

/** The standing of the runtime plan's arenas to declare (both the file's as it is and the plan written in share it). */
export function arenaStanding(r: Pick<RuntimePlan, 'notes' | 'refused' | 'tailEstimated'>): ArenaStanding {
  return { estimate: r.tailEstimated, lowerEstimate: r.notes.length > 0, refused: (r.refused ?? []).length > 0 };
}

/** How the file's offline plan was found: valid, refuted, or overlapping inside a custom operator heapscope cannot see into. */
export type FilePlanVerdict = 'valid' | 'invalid' | 'unchecked';

/** The verdict on the file's offline plan; undefined when the file carries none. */
export function filePlanVerdict(r: RuntimePlan): FilePlanVerdict | undefined {
  const file = r.filePlan;
  if (file === undefined) return undefined;
  if (file.valid) return 'valid';
  return file.insideCustomOp !== undefined ? 'unchecked' : 'invalid';
}

/** The text of the head TFLM reaches with the file as it is: its own greedy plan, or the file's offline plan with the check. */
function ownHeadLines(r: RuntimePlan): RuntimeLine[] {
  const file = r.filePlan;
  if (file === undefined) {
    return [{ key: 'tflm', label: 'TFLite Micro’s own plan', bytes: r.head, text: 'The head its GreedyMemoryPlanner lays out for this file, reproduced.' }];
  }
  const verdict = filePlanVerdict(r);
  const check =
    verdict === 'valid'
      ? 'Valid: no two tensors live at once share a byte.'
      : verdict === 'unchecked'
        ? `Not checked: it overlaps tensors of the custom operator ${file.insideCustomOp}, which may use them one after another, a schedule heapscope cannot see (${file.problem ?? ''}).`
        : `Not valid by TFLite Micro’s lifetimes: ${file.problem ?? ''}; TFLite Micro uses it as written.`;
  return [
    { key: 'file', label: 'The file’s offline plan', bytes: r.head, text: `The head TFLite Micro lays out with the plan the file carries. ${check}`, ...(verdict === 'invalid' && { tone: 'bad' as const }) },
    { key: 'greedy', label: 'TFLite Micro’s greedy planner', bytes: r.greedyHead, text: 'The head its GreedyMemoryPlanner lays out when the file’s offline plan is ignored.' },
  ];
}

/** Offsets heapscope writes of its own plans, by the runtime plan's `source`: what they are, and why when not the offsets on screen. */
const WRITTEN: Readonly<Record<string, { readonly what: string; readonly why: string }>> = {
  'the plan': { what: 'the tensor offsets of the plan on screen', why: '' },
  'the plan of the tensors alone': { what: 'a plan of the tensors alone (heapscope’s best without the scratch requests)', why: ' TFLite Micro lays it out smaller than the offsets on screen.' },
};

/** What the file keeps instead when no plan of heapscope's lays out smaller, by `source`. */
const KEPT: Readonly<Record<string, string>> = {
  "the file's own offline plan": 'keeps the file’s own offline plan',
  "TFLite Micro's own greedy plan": 'carries TFLite Micro’s own greedy offsets',
};

/** What the planned .tflite carries, in words: "the tensor offsets of the plan on screen", "a plan of the tensors alone (…)", or the plan it keeps. */
export function plannedTfliteContents(r: RuntimePlan): string {
  const kept = KEPT[r.planned.source];
  if (kept !== undefined) return kept.replace(/^keeps |^carries /, '');
  return WRITTEN[r.planned.source]?.what ?? r.planned.source;
}

/** The head TFLM reaches with the planned .tflite (heapscope's plan written in, or the file's kept), against its own head. */
function plannedLine(r: RuntimePlan, heapPeak: number): RuntimeLine {
  const p = r.planned;
  const baseline = r.filePlan === undefined ? 'TFLite Micro’s own' : 'the file’s own plan';
  const change =
    p.saving > 0
      ? `${formatBytes(p.saving)} (${p.savingPercent.toFixed(1)} %) smaller than ${baseline}`
      : p.saving === 0
        ? `no smaller than ${baseline}`
        : `${formatBytes(-p.saving)} larger than ${baseline}`;
  const kept = KEPT[p.source];
  let text: string;
  if (kept !== undefined) {
    text = `The planned .tflite ${kept}${p.saving === 0 ? '' : ` (${change})`}: heapscope’s plans, written in, lay out larger (the plan on screen: ${formatBytes(heapPeak)}).`;
  } else {
    const { what, why } = WRITTEN[p.source] ?? { what: p.source, why: '' };
    // The heap places every buffer TFLM plans; an offline plan carries tensor offsets only. A plan of the tensors alone is
    // another plan than the one on screen: its head says nothing of the heap's (naive's 29.0 MiB is its own, not scratch)
    const heap =
      p.head === heapPeak
        ? ''
        : p.source === 'the plan'
          ? ` The heap’s ${formatBytes(heapPeak)} places the kernels’ scratch buffers too; an offline plan carries tensor offsets only, and TFLite Micro places the rest itself.`
          : ` The plan on screen peaks at ${formatBytes(heapPeak)}; the file carries the other plan.`;
    text = `The head TFLite Micro lays out when the file carries ${what} as its offline plan: ${change}.${why}${heap}`;
  }
  return { key: 'planned', label: 'heapscope’s plan in the file', bytes: p.head, text, ...(p.saving > 0 && { tone: 'good' as const }) };
}

/** The parts of the tail that are estimated, in words; undefined when every part is exact. */
export function estimatedPartsText(r: RuntimePlan): string | undefined {
  const parts = r.tailParts.filter((t) => t.estimated).map((t) => t.what);
  if (!r.tailEstimated || parts.length === 0) return undefined;
  return `${parts.join(', ')} ${parts.length === 1 ? 'is' : 'are'} estimated`;
}

/** The words that lead the arena's line when TensorFlow Lite Micro refuses the model: no arena works, and why; '' when it accepts it. */
function refusedText(r: RuntimePlan): string {
  const why = r.refused ?? [];
  if (why.length === 0) return '';
  return `None works: AllocateTensors() fails whatever the arena. ${why.map((w) => w.replace(/\.$/, '')).join('. ')}. Were it accepted: `;
}

/** Every figure of the runtime plan, in the order the panel shows them; `heapPeak` is the peak of the plan on screen. */
export function runtimeLines(r: RuntimePlan, heapPeak: number): RuntimeLine[] {
  const estimated = estimatedPartsText(r);
  const tail: RuntimeLine = {
    key: 'tail',
    label: 'Tail',
    bytes: r.tail,
    text: `What TFLite Micro keeps for the whole run${estimated === undefined ? ', every part counted exactly.' : `, an estimate: ${estimated}, the rest counted exactly.`}`,
  };
  // a kernel whose scratch requests are not known is planned with none (the notes below): the arena can only be larger
  const unknownKernels = r.notes.length;
  const standing = arenaStanding(r);
  const withPlan = r.planned.arena === r.arena ? 'the same with heapscope’s plan' : `${arenaBytes(r.planned.arena, standing.lowerEstimate)} with heapscope’s plan`;
  const lower = unknownKernels === 0 ? '' : ` A lower estimate: ${unknownKernels === 1 ? 'a kernel’s scratch requests are' : `${unknownKernels} kernels’ scratch requests are`} not known, and none are assumed.`;
  // refused, the figure says no arena works and the sentence gives what TFLM would need were the model accepted
  const asIs = standing.refused ? `${arenaBytes(r.arena, standing.lowerEstimate)} for the file as it is` : 'For the file as it is';
  const arena: RuntimeLine = {
    key: 'arena',
    label: 'Arena to declare',
    bytes: r.arena,
    text: `${refusedText(r)}${asIs}; ${withPlan}. Why: ${r.arenaReason.trim().replace(/\.$/, '')}.${estimated === undefined ? '' : ' It rests on the tail’s estimate.'}${lower}`,
    shown: declaredArenaText(r.arena, standing),
    ...(unknownKernels > 0 && { atLeast: true as const }),
  };
  return [...ownHeadLines(r), plannedLine(r, heapPeak), tail, arena];
}
