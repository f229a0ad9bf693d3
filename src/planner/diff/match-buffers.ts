// Matches the buffers of two plans: first by tensor name, then (for plans of
// one model) the rest by producer op type, output position and order among the
// unmatched buffers of that op type (so renamed tensors and renamed nodes
// still pair up). Depends only on the plan file types.

import type { PlannedBuffer } from '../plan-types';
import type { PlanFile } from '../assembly/plan-file';

/** A match between the buffers of A and B, by index into each plan's buffers. */
export interface BufferMatch {
  readonly aToB: readonly (number | undefined)[];
  readonly bToA: readonly (number | undefined)[];
  readonly byProducer: ReadonlySet<number>; // B indices matched by producer rather than name
}

/** Matches buffers of `a` and `b`; see the module header. `byName`: by tensor name only (plans of different models). */
export function matchBuffers(a: PlanFile, b: PlanFile, byName = false): BufferMatch {
  const bufsA = a.plan.buffers;
  const bufsB = b.plan.buffers;
  const aToB: (number | undefined)[] = bufsA.map(() => undefined);
  const bToA: (number | undefined)[] = bufsB.map(() => undefined);
  const pair = (i: number, j: number) => {
    aToB[i] = j;
    bToA[j] = i;
  };
  const named = new Map<string, number[]>();
  bufsB.forEach((buffer, j) => named.set(nameKey(buffer), [...(named.get(nameKey(buffer)) ?? []), j]));
  bufsA.forEach((buffer, i) => {
    const candidates = named.get(nameKey(buffer));
    const j = candidates?.shift();
    if (j !== undefined) pair(i, j);
  });
  const byProducer = new Set<number>();
  if (byName) return { aToB, bToA, byProducer };
  const leftA = positionKeys(a, (i) => aToB[i] === undefined);
  const leftB = positionKeys(b, (j) => bToA[j] === undefined);
  for (const [key, i] of leftA) {
    const j = leftB.get(key);
    if (j === undefined) continue;
    pair(i, j);
    byProducer.add(j);
  }
  return { aToB, bToA, byProducer };
}

/** Name and kind: a scratch buffer never pairs with a tensor of the same name. */
function nameKey(buffer: PlannedBuffer): string {
  return `${buffer.kind === 'scratch' ? 'scratch' : 'tensor'}\u0000${buffer.name}`;
}

/**
 * Position keys of the selected buffers: kind, producer op type, output index,
 * and the ordinal among selected buffers with the same first three, in step order.
 */
function positionKeys(file: PlanFile, selected: (index: number) => boolean): Map<string, number> {
  const opOf = producerOps(file);
  const indices = file.plan.buffers.map((_, i) => i).filter(selected);
  const buffers = file.plan.buffers;
  indices.sort((i, j) => buffers[i]!.start - buffers[j]!.start || buffers[i]!.id - buffers[j]!.id);
  const counts = new Map<string, number>();
  const keys = new Map<string, number>();
  for (const i of indices) {
    const buffer = buffers[i]!;
    const producer = buffer.node === undefined ? undefined : opOf.get(buffer.node);
    const output = producer?.outputs.indexOf(buffer.name) ?? -1;
    const base = `${buffer.kind}\u0000${producer?.opType ?? `(${buffer.kind})`}\u0000${output}`;
    const ordinal = counts.get(base) ?? 0;
    counts.set(base, ordinal + 1);
    keys.set(`${base}\u0000${ordinal}`, i);
  }
  return keys;
}

/** The op type and outputs of every node, from the file's nodes and then the plan's steps. */
export function producerOps(file: PlanFile): Map<string, { readonly opType: string; readonly outputs: readonly string[] }> {
  const ops = new Map<string, { readonly opType: string; readonly outputs: readonly string[] }>();
  for (const step of file.plan.steps) ops.set(step.node, { opType: step.opType, outputs: [] });
  for (const node of file.nodes) ops.set(node.name, { opType: node.opType, outputs: node.outputs });
  return ops;
}
