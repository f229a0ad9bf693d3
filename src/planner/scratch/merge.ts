// Scratch buffers joined to the activation problem, as one-step buffers: with
// the offsets M4 chose (overlays as aliases), or unplaced, for planning scratch
// together with the activations. Depends only on the planner.

import type { BufferInfo, BuiltProblem } from '../problem/build-problem';
import type { ScratchRequest } from './scratch-requests';
import type { ScratchPlacement } from './place-scratch';
import type { Alias, PlacementProblem, PlanBuffer } from '../problem/problem';

/** A problem with every buffer of the plan, and what the plan knows of each. */
export interface FullProblem {
  readonly problem: PlacementProblem;
  readonly info: readonly BufferInfo[];
}

function scratchBuffer(id: number, q: ScratchRequest, size: number, where: { region: string; alignment: number }, defaultAlignment: number): PlanBuffer {
  return {
    id,
    name: `${q.node}:${q.label}`,
    size,
    start: q.step,
    end: q.step + 1,
    region: where.region,
    ...(where.alignment !== defaultAlignment && { alignment: where.alignment }),
  };
}

function scratchInfo(q: ScratchRequest, size: number, alias?: BufferInfo['alias']): BufferInfo {
  const bytes = q.variable ? size : q.bytes;
  return { kind: 'scratch', node: q.node, bytes, padding: size - bytes, graphIo: false, ...(alias !== undefined && { alias }) };
}

/** The scratch request a buffer of a full problem (withScratchBuffers, withPlacedScratch) stands for; undefined for an activation. */
export function scratchRequestOf(built: Pick<BuiltProblem, 'problem' | 'scratch'>, id: number): ScratchRequest | undefined {
  return built.scratch[id - built.problem.buffers.length];
}

/** Activations plus scratch at their requested (minimum) sizes, for a joint plan; no overlays. */
export function withScratchBuffers(built: Pick<BuiltProblem, 'problem' | 'info' | 'scratch'>): FullProblem {
  const { problem } = built;
  const n = problem.buffers.length;
  const align = problem.alignment ?? 1;
  return {
    problem: {
      ...problem,
      buffers: [...problem.buffers, ...built.scratch.map((q, k) => scratchBuffer(n + k, q, q.size, q, align))],
    },
    info: [...built.info, ...built.scratch.map((q) => scratchInfo(q, q.size))],
  };
}

/** Activations (shifted where a heap grew downwards) plus scratch where M4 put it. */
export function withPlacedScratch(
  built: Pick<BuiltProblem, 'problem' | 'info' | 'scratch'>,
  activationOffsets: readonly number[],
  placement: ScratchPlacement,
): FullProblem & { readonly offsets: number[] } {
  const { problem } = built;
  const n = problem.buffers.length;
  const align = problem.alignment ?? 1;
  const shift = new Map(placement.heaps.map((h) => [h.name, h.shift]));
  const offsets = problem.buffers.map((b) => activationOffsets[b.id]! + (shift.get(b.region ?? '') ?? 0));
  const buffers = [...problem.buffers];
  const aliases: Alias[] = [...(problem.aliases ?? [])];
  const info = [...built.info];
  for (const p of placement.placed) {
    const q = built.scratch[p.request]!;
    const id = n + p.request;
    buffers.push(scratchBuffer(id, q, p.size, { region: p.region, alignment: placement.alignments.get(p.region)! }, align));
    offsets.push(p.offset);
    let alias: BufferInfo['alias'];
    if (p.overlays !== undefined) {
      const parent = n + p.overlays;
      const base = placement.placed.find((o) => o.request === p.overlays)!;
      alias = { parent, offset: p.offset - base.offset, rule: 'overlay' };
      aliases.push({ buffer: id, parent, offset: alias.offset });
    }
    info.push(scratchInfo(q, p.size, alias));
  }
  return { problem: { ...problem, buffers, aliases }, info, offsets };
}
