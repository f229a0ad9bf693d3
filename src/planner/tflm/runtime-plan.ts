// The runtime plan of a TFLite model for TensorFlow Lite Micro: the head TFLM's
// own planner reaches (with the file's offline plan, if it carries one), the
// head it reaches with heapscope's plan written into the file, the persistent
// section and the arena to declare. Depends only on the IR types and the planner.
//
// - TFLM's head: GreedyMemoryPlanner on TFLM's own buffers (greedy-planner.ts).
// - heapscope's head: the tensor offsets of a plan are written as an offline
//   plan; TFLM still places the kernels' scratch buffers itself, around them.
//   So each candidate's head is simulated exactly that way, and the smallest
//   wins: the plan's own tensor offsets, the plan of the tensors alone (which
//   leaves the scratch to the runtime), and TFLM's own greedy offsets (so the
//   written file is never worse than what TFLM does without it).

import { formatCount } from '../../shared/format';
import type { IrTflite, IrTfliteOperator } from '../../model/ir-tflite';
import { assignOffsets } from '../assembly/assign-offsets';
import type { PlacementProblem } from '../problem/problem';
import { OFFLINE_LAYOUT_ASSUMPTION, tflmAllocation, typeSizeAssumptions, type TflmAllocation, type TflmBuffer } from './allocation-info';
import { REFERENCE_KERNELS_ASSUMPTION } from './scratch-requests';
import { planGreedy, type GreedyBuffer } from './greedy-planner';
import { BUILD_32, BUILD_64, tflmArena, type TflmArena, type TailPart } from './tail';
import type { TflmProblem } from './tflm-problem';

/** A plan of the head written as offsets, and what TFLM makes of it. */
export interface OfflineHead {
  readonly head: number; // bytes of the head TFLM reaches
  readonly offsets: readonly number[]; // by tensor, over every subgraph in order (-1: left to TFLM)
  readonly bufferOffsets?: readonly number[]; // by plan buffer id: where TFLM puts each buffer with `offsets` written in (it places scratch and the tensors left to it itself); absent in older plan files
}

/** The file's own offline plan, checked. */
export interface FilePlanCheck {
  readonly head: number;
  readonly valid: boolean; // no two tensors live at once share a byte
  readonly problem?: string; // the first pair of tensors live at once that share bytes
  readonly insideCustomOp?: string; // every such pair is read or written by this custom operator alone, which may use them one after another
  readonly sameAsPlanned?: boolean; // TFLM puts every buffer where it puts it with heapscope's plan written in (`planned`); absent when that cannot be told
}

/** `plan --json`'s runtimePlan (DESIGN.md). */
export interface RuntimePlan {
  readonly runtime: 'tflm';
  readonly head: number; // TFLM's head for the file as it is (its offline plan honoured)
  readonly tail: number;
  readonly tailEstimated: boolean;
  readonly arena: number; // the smallest tensor arena with which AllocateTensors() succeeds
  readonly arenaReason: string;
  readonly planningBytes: number;
  readonly tailParts: readonly TailPart[];
  readonly greedyHead: number; // TFLM's greedy planner alone, ignoring any offline plan
  readonly filePlan?: FilePlanCheck; // the offline plan the file carries
  readonly planned: OfflineHead & { readonly saving: number; readonly savingPercent: number; readonly arena: number; readonly source: string };
  readonly buffers: number; // planned by TFLM: tensors and scratch requests
  readonly scratch: number;
  readonly variableBytes: number;
  readonly notes: readonly string[];
  readonly refused?: readonly string[]; // why AllocateTensors() fails with any arena (a reference kernel's Prepare, ValidateSubgraph); absent when TFLM accepts the model
  readonly assumes?: readonly string[]; // absent in older plan files; which TensorFlow Lite Micro the figures are of, where builds and releases differ (its reference kernels, its word size; how an offline plan of several subgraphs is read)
  readonly build?: '32-bit'; // absent in older plan files; the word size tail, planning and arena are of: a 32-bit microcontroller build (4-byte pointers)
}

/** The runtime plan; `offsets` are the model plan's offsets of `problem`'s buffers. */
export function tflmRuntimePlan(tflite: IrTflite, problem: TflmProblem, offsets: readonly number[]): RuntimePlan {
  const { allocation } = problem;
  const greedyHead = planGreedy(greedyBuffers(allocation, false)).head;
  const own = planGreedy(greedyBuffers(allocation, true));
  const filePlan = tflite.offlinePlan === undefined ? undefined : checkFilePlan(tflite, allocation, own.offsets);
  const trusted = filePlan === undefined || filePlan.valid || filePlan.insideCustomOp !== undefined;
  const planned = bestOffline(tflite, problem, offsets, trusted ? own.offsets : undefined, filePlan !== undefined);
  const arena = tflmArena(tflite, allocation, own.head);
  const plannedArena = tflmArena(tflite, allocation, planned.head).arena;
  const checked = filePlan === undefined ? undefined : withSameLayout(filePlan, problem, own.offsets, planned.bufferOffsets);
  const saving = own.head - planned.head;
  return {
    runtime: 'tflm',
    head: own.head,
    tail: arena.tail,
    tailEstimated: arena.tailEstimated,
    arena: arena.arena,
    arenaReason: arena.arenaReason,
    planningBytes: arena.planningBytes,
    tailParts: arena.parts,
    greedyHead,
    ...(checked !== undefined && { filePlan: checked }),
    planned: { ...planned, saving, savingPercent: own.head === 0 ? 0 : (100 * saving) / own.head, arena: plannedArena },
    buffers: allocation.buffers.length,
    scratch: allocation.scratchCount,
    variableBytes: allocation.variables.reduce((sum, v) => sum + v.bytes, 0),
    notes: allocation.notes,
    assumes: [...runtimeAssumptions(tflite), wordSizeAssumption(tflite, arena, tflmArena(tflite, allocation, own.head, BUILD_64), allocation.notes.length > 0)],
    build: '32-bit',
    ...(allocation.refusals.length > 0 && { refused: allocation.refusals }),
  };
}

/**
 * The word size the tail and arena are of, and what a 64-bit build would need
 * instead: TFLM's persistent records hold pointers and size_t
 * (TfLiteEvalTensor, NodeAndRegistration, TfLiteTensor, its allocation
 * records), so a 64-bit build (a host, where TFLM's own tests measure; a
 * Cortex-A) keeps a larger tail and needs a larger arena; ADD_N's scratch, a
 * pointer per input, grows the head there too.
 */
function wordSizeAssumption(tflite: IrTflite, on32: TflmArena, on64: TflmArena, lowerEstimate: boolean): string {
  const addN = tflite.subgraphs.some((sg) => sg.operators.some((op) => !op.custom && op.op === 'ADD_N'));
  const about = on64.tailEstimated ? 'about ' : '';
  // a kernel's scratch requests not known (none assumed): either build's arena is a lower estimate, as the arena line's "≥" says
  const least = lowerEstimate ? 'at least ' : '';
  const b = BUILD_32;
  return (
    `the tail and arena are of a 32-bit build (${b.pointer}-byte pointers: TfLiteEvalTensor ${b.evalTensor} B, NodeAndRegistration ${b.node} B, TfLiteTensor ${b.tensor} B); ` +
    `a 64-bit build (a host, a Cortex-A) keeps wider records: a tail of ${about}${formatCount(on64.tail)} B and an arena of ${least}${about}${formatCount(on64.arena)} B${addN ? ', more with its ADD_N scratch (a pointer per input)' : ''}, ` +
    `not ${formatCount(on32.tail)} B and ${lowerEstimate ? '≥ ' : ''}${formatCount(on32.arena)} B`
  );
}

/**
 * Which TFLM the figures are of where builds and releases differ: its
 * reference kernels, always; for a file that carries an offline plan over
 * several subgraphs, how TFLM's code reads it; and for tensors of a type only
 * current TFLM sizes, that it is current TFLM.
 */
function runtimeAssumptions(tflite: IrTflite): string[] {
  const layout = tflite.offlinePlan !== undefined && tflite.subgraphs.length > 1;
  return [REFERENCE_KERNELS_ASSUMPTION, ...(layout ? [OFFLINE_LAYOUT_ASSUMPTION] : []), ...typeSizeAssumptions(tflite)];
}

/** The file's plan check with whether TFLM lays the file out as it does with heapscope's plan written in, buffer for buffer. */
function withSameLayout(file: FilePlanCheck, problem: TflmProblem, own: readonly number[], planned: readonly number[] | undefined): FilePlanCheck {
  if (planned === undefined) return file;
  return { ...file, sameAsPlanned: problem.order.every((k, id) => planned[id] === own[k]) };
}

/** TFLM's buffers as its planner is handed them, with or without their offline offsets. */
function greedyBuffers(allocation: Pick<TflmAllocation, 'buffers'>, offline: boolean): GreedyBuffer[] {
  return allocation.buffers.map((b) => ({ size: b.size, first: b.first, last: b.last, ...(offline && b.offlineOffset !== undefined && { offlineOffset: b.offlineOffset }) }));
}

/** The head TFLM reaches with `offsets` written into the file: the file's tensors re-read with them, scratch placed online. */
export function simulateOffline(tflite: IrTflite, offsets: readonly number[]): number {
  return offlinePlacement(tflite, offsets).head;
}

/** TFLM's buffers with `offsets` written into the file, where it puts each (by planner id), and the head it reaches. */
function offlinePlacement(tflite: IrTflite, offsets: readonly number[]): { readonly buffers: readonly TflmBuffer[]; readonly offsets: readonly number[]; readonly head: number } {
  const { buffers } = tflmAllocation(tflite, offsets);
  return { buffers, ...planGreedy(greedyBuffers({ buffers }, true)) };
}

/** The smallest simulated head over the candidate tensor offsets (see the module header). */
function bestOffline(
  tflite: IrTflite,
  problem: TflmProblem,
  planOffsets: readonly number[],
  ownOffsets: readonly number[] | undefined,
  fromFile: boolean,
): OfflineHead & { readonly source: string } {
  const { allocation, order } = problem;
  const byTflmId = new Array<number>(allocation.buffers.length);
  order.forEach((k, id) => {
    byTflmId[k] = planOffsets[id]!;
  });
  const candidates: { source: string; offsets: number[] }[] = [
    { source: 'the plan', offsets: writtenOffsets(tflite, allocation, byTflmId) },
    { source: 'the plan of the tensors alone', offsets: writtenOffsets(tflite, allocation, tensorsOnly(problem)) },
  ];
  // What TFLM does with the file as it is, unless that relies on an offline plan that shares bytes between live tensors.
  if (ownOffsets !== undefined) candidates.push({ source: fromFile ? "the file's own offline plan" : "TFLite Micro's own greedy plan", offsets: writtenOffsets(tflite, allocation, ownOffsets) });
  let best: (OfflineHead & { source: string; placed: ReturnType<typeof offlinePlacement> }) | undefined;
  for (const c of candidates) {
    const placement = offlinePlacement(tflite, c.offsets);
    if (best === undefined || placement.head < best.head) best = { head: placement.head, offsets: c.offsets, source: c.source, placed: placement };
  }
  const { placed, ...chosen } = best!;
  const bufferOffsets = plannedBufferOffsets(problem, placed);
  return bufferOffsets === undefined ? chosen : { ...chosen, bufferOffsets };
}

/**
 * Where TFLM puts each of `problem`'s buffers (by problem id) in `placed`;
 * undefined when one of them is not a buffer of the plan written (a variable
 * tensor the file's own offline plan gave an offset that the plan written does
 * not repeat, as it writes none in the slots other subgraphs read).
 */
function plannedBufferOffsets(problem: TflmProblem, placed: ReturnType<typeof offlinePlacement>): number[] | undefined {
  const key = (b: TflmBuffer) => `${b.kind} ${b.subgraph} ${b.tensor ?? b.name}`;
  const at = new Map(placed.buffers.map((b, k) => [key(b), placed.offsets[k]!]));
  const out = problem.order.map((k) => at.get(key(problem.allocation.buffers[k]!)));
  return out.every((o) => o !== undefined) ? (out as number[]) : undefined;
}

/** Offsets by TFLM planner id for the tensors alone, planned by best without the scratch requests. */
function tensorsOnly(problem: TflmProblem): number[] {
  const { allocation, order, built } = problem;
  const keep = built.problem.buffers.filter((b) => allocation.buffers[order[b.id]!]!.kind === 'tensor');
  const sub: PlacementProblem = { buffers: keep.map((b, id) => ({ ...b, id })), alignment: built.problem.alignment ?? 16 };
  const result = assignOffsets(sub, 'best');
  const byTflmId = new Array<number>(allocation.buffers.length).fill(0);
  keep.forEach((b, id) => {
    byTflmId[order[b.id]!] = result.offsets[id]!;
  });
  return byTflmId;
}

/**
 * The offline plan to write: an offset for each planned tensor of the first
 * subgraph, -1 for the rest. TFLM's code reads every subgraph's tensor i at
 * entry i (InitializeAllocationInfo); its documentation lays the entries out
 * concatenated over the subgraphs. With several subgraphs the entries another
 * subgraph's tensors take under either reading (below the largest other
 * subgraph's tensor count, or past the first subgraph's) stay -1 too, so the
 * file means the same to both.
 */
function writtenOffsets(tflite: IrTflite, allocation: TflmAllocation, byTflmId: readonly number[]): number[] {
  const total = tflite.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  const shared = Math.max(0, ...tflite.subgraphs.slice(1).map((sg) => sg.tensors.length));
  const offsets = new Array<number>(total).fill(-1);
  allocation.buffers.forEach((b, id) => {
    if (b.kind === 'tensor' && b.subgraph === 0 && b.tensor! >= shared) offsets[b.tensor!] = byTflmId[id]!;
  });
  return offsets;
}

/**
 * The file's plan: valid when no two planned tensors whose lifetimes meet share
 * a byte. A compiler that lowers the graph to one custom operator (Arm Vela's
 * ethos-u) overlaps that operator's own tensors by a schedule only it knows:
 * such overlaps are named, not trusted or refuted.
 */
function checkFilePlan(tflite: IrTflite, allocation: TflmAllocation, offsets: readonly number[]): FilePlanCheck {
  const head = allocation.buffers.reduce((max, b, i) => Math.max(max, offsets[i]! + b.size), 0);
  const list = allocation.buffers;
  let problem: string | undefined;
  const ops = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i]!;
      const b = list[j]!;
      if (a.first > b.last || b.first > a.last) continue; // TFLM's inclusive lifetimes do not meet
      if (!(offsets[i]! < offsets[j]! + b.bytes && offsets[j]! < offsets[i]! + a.bytes && a.bytes > 0 && b.bytes > 0)) continue;
      problem ??= `${a.name} and ${b.name} are live at once and share bytes from ${Math.max(offsets[i]!, offsets[j]!)}`;
      ops.add(sharedCustomOp(tflite, a, b) ?? '');
    }
  }
  if (problem === undefined) return { head, valid: true };
  const only = ops.size === 1 ? [...ops][0] : undefined;
  return { head, valid: false, problem, ...(only !== undefined && only !== '' && { insideCustomOp: only }) };
}

/** The custom operator that touches both tensors, when one does. */
function sharedCustomOp(tflite: IrTflite, a: TflmBuffer, b: TflmBuffer): string | undefined {
  if (a.subgraph !== b.subgraph || a.tensor === undefined || b.tensor === undefined) return undefined;
  const touches = (op: IrTfliteOperator, t: number): boolean => op.inputs.includes(t) || op.outputs.includes(t);
  return tflite.subgraphs[a.subgraph]!.operators.find((op) => op.custom && touches(op, a.tensor!) && touches(op, b.tensor!))?.node;
}
