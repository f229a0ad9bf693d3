// The model card's figure of activation memory without reuse, in words: the
// tensors' own bytes, unpadded, and why the plan on screen may need more
// (alignment padding, scratch, copies, If/Loop/Scan bodies). No DOM.

import type { InspectReport } from '../../model/inspect-report';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes, formatCount } from '../../shared/format';

/** The card's label (short, for its narrow column) and the label said whole, figure, hover text, and a note when the plan's peak is above the figure. */
export interface ActivationStatWords {
  readonly label: string;
  readonly labelTitle: string; // the label in full: what the figure counts and how
  readonly value: string;
  readonly title: string; // its only digits are the exact byte count (and a body count)
  readonly note: string | undefined;
}

/**
 * The bytes of the main graph's run-time tensors, each in memory of its own:
 * their data as the model states it, before any alignment; a lower estimate
 * when some are unsized, and the main graph's when If/Loop/Scan bodies hold
 * more. With a plan whose peak is larger, the note says what the plan adds.
 */
export function activationStatWords(report: Pick<InspectReport, 'activations' | 'activationBytes' | 'bodyNodes' | 'unknownShapes'>, plan: Pick<ModelPlan, 'peak' | 'buffers' | 'complete'> | undefined): ActivationStatWords {
  const bodies = report.bodyNodes;
  const lower = report.unknownShapes.length > 0;
  const notes = ['unpadded', bodies > 0 ? 'main graph' : '', lower ? 'lower estimate' : ''].filter(Boolean);
  const bytes = `${formatCount(report.activationBytes)} bytes of tensor data if every run-time tensor had memory of its own, an in-place output or a view apart from the tensor whose bytes it shares (every strategy shares those, naive too), before alignment (the heap's plan reuses memory, but reserves each buffer rounded up to its alignment)`;
  const title = bodies === 0 ? bytes : `${bytes}, in the main graph; the tensors inside the bodies of its ${formatCount(bodies)} If/Loop/Scan ${bodies === 1 ? 'node' : 'nodes'} are not counted here (the heap plans them)`;
  // no size known at all: no figure, not "≥ 0 B" (as `inspect` says it)
  if (report.activations > 0 && report.unknownShapes.length >= report.activations) {
    return { label: 'Without reuse', labelTitle: 'Activation data without reuse (every size unknown)', value: 'unknown', title: 'every run-time tensor of the main graph has a size heapscope could not work out: see Unknown shapes', note: undefined };
  }
  return {
    label: 'Without reuse',
    labelTitle: `Activation data without reuse (${notes.join(', ')})`,
    value: `${lower ? '≥ ' : ''}${formatBytes(report.activationBytes)}`,
    title,
    note: plan === undefined || plan.peak <= report.activationBytes ? undefined : planAddsText(plan, report.activationBytes, bodies > 0),
  };
}

/**
 * "The plan's peak, 128 B, is 112 B more than this: it reserves each buffer
 * rounded up to its alignment, and adds scratch" (the difference keeps two
 * figures that round alike apart: 154 KiB and 154 KiB, 14 B apart); "at
 * least 160 B, is more than this" when some size is unknown.
 */
function planAddsText(plan: Pick<ModelPlan, 'peak' | 'buffers' | 'complete'>, activationBytes: number, bodies: boolean): string {
  const adds = [
    plan.buffers.some((b) => b.size > b.bytes && b.kind !== 'scratch') ? 'reserves each buffer rounded up to its alignment' : '',
    plan.buffers.some((b) => b.kind === 'scratch') ? 'adds scratch buffers' : '',
    plan.buffers.some((b) => b.kind === 'copy') ? 'adds copies' : '',
    bodies ? "plans the If/Loop/Scan bodies' tensors" : '',
  ].filter(Boolean);
  const why = adds.length === 0 ? '' : `: it ${adds.length === 1 ? adds[0] : `${adds.slice(0, -1).join(', ')} and ${adds[adds.length - 1]}`}`;
  const more = plan.complete ? `${formatBytes(plan.peak - activationBytes)} more` : 'more';
  return `The plan's peak, ${plan.complete ? '' : 'at least '}${formatBytes(plan.peak)}, is ${more} than this${why}.`;
}
