// The sharing decision at every function boundary (METHODS.md M3, step 4, at
// the function level): a tensor one function (or the model, for a graph
// input) hands to another is either one shared buffer or copied into a buffer
// of the reading function's own. Depends only on the model's IR types and the
// planner.
//
// - A boundary is a (tensor, reading function) pair where the reading
//   function is not the tensor's home (its producer's function, or for a
//   graph input the first function that reads it).
// - The reading function reuses the tensor's tag when the reuse conditions
//   hold, checked in this order; the first that fails is the copy's reason:
//   1. type mismatch: both sides store the same element type;
//   2. alignment: the home buffer's alignment is a multiple of the reader's
//      and its allocated bytes cover the reader's;
//   3. read later: nobody outside the reading function reads the tensor after
//      the reading function's first read of it (a graph output is read by the
//      host after the run): a unit owns the buffers handed to it and may
//      write over them while it runs. Between two functions on the same
//      unit (one unit's run split into connected parts) the tensor is in
//      that unit's hands already, so this holds unless the reading function
//      reads it with an in-place op (the target's op kinds), which is the
//      one op that may write over its input.
// - Boundaries are listed by tensor (graph order), then by first read.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { opKindOf, type OpKind } from '../problem/op-kinds';
import type { LevelSizes, TensorView } from './level-sizes';
import type { Partition } from './partition';

/** Why a boundary copies ('compatible' when it shares; 'layout' when sharing laid out worse). */
export type BoundaryReason = 'compatible' | 'type-mismatch' | 'alignment' | 'read-later' | 'layout';

/** One function boundary and its decision. */
export interface Boundary {
  readonly tensor: string;
  readonly from: string; // home function name, or 'model' for a graph input
  readonly to: string; // reading function name
  readonly toFunction: number; // its index
  readonly firstRead: number; // step of the reading function's first read
  readonly shared: boolean;
  readonly reason: BoundaryReason;
  readonly detail: string; // the decision in a sentence
  readonly home: TensorView; // the tensor's own buffer
  readonly reader: TensorView; // how the reading function stores it
  readonly copy?: string; // name of the copy buffer, when copied
}

/** Options of decideBoundaries. */
export interface BoundaryOptions {
  readonly copyAll?: boolean; // copy at every boundary (the baseline plan), reason 'layout' where sharing was possible
  readonly opKinds?: Readonly<Record<string, OpKind>>; // the target's op-kind overrides: which ops write over their input
}

/** Decides every boundary of the partition; see the module header. */
export function decideBoundaries(
  graph: InferredGraph,
  partition: Partition,
  stepOf: Int32Array,
  sizes: LevelSizes,
  options: BoundaryOptions = {},
): Boundary[] {
  const outputs = new Set(graph.outputs);
  const byName = new Map(graph.values.map((v) => [v.name, v]));
  const boundaries: Boundary[] = [];
  for (const value of graph.values) {
    const homeFn = sizes.homeFunction(value, partition);
    const home = sizes.homeView(value, partition);
    if (homeFn === undefined || home === undefined) continue;
    for (const { fn, firstRead } of readingFunctions(value, partition, stepOf, homeFn)) {
      const g = partition.functions[fn]!;
      const reader = sizes.viewOn(value, partition.units.find((u) => u.name === g.unit)!);
      const later = readLater(value, partition, stepOf, fn, firstRead, outputs.has(value.name));
      const writer = home.unit === reader.unit ? inPlaceReader(graph, byName, value, partition, fn, options.opKinds) : undefined;
      let { reason, detail } = decide(home, reader, later && (home.unit !== reader.unit || writer !== undefined), writer);
      if (reason === 'compatible' && options.copyAll === true) {
        reason = 'layout';
        detail = `both sides could share (${detail}), but this plan copies at every boundary`;
      }
      const shared = reason === 'compatible';
      boundaries.push({
        tensor: value.name,
        from: value.producer === undefined ? 'model' : partition.functions[homeFn]!.name,
        to: g.name,
        toFunction: fn,
        firstRead,
        shared,
        reason,
        detail,
        home,
        reader,
        ...(!shared && { copy: `${value.name}@${g.name}` }),
      });
    }
  }
  return boundaries;
}

/** Functions other than the home one that read `value`, with their first read step, in that order. */
function readingFunctions(value: InferredValue, partition: Partition, stepOf: Int32Array, homeFn: number): { fn: number; firstRead: number }[] {
  const first = new Map<number, number>();
  for (const c of value.consumers) {
    const fn = partition.functionOf[c]!;
    if (fn < 0 || fn === homeFn) continue;
    first.set(fn, Math.min(first.get(fn) ?? Infinity, stepOf[c]!));
  }
  return [...first].map(([fn, firstRead]) => ({ fn, firstRead })).sort((a, b) => a.firstRead - b.firstRead);
}

function readLater(value: InferredValue, partition: Partition, stepOf: Int32Array, fn: number, firstRead: number, graphOutput: boolean): boolean {
  if (graphOutput) return true;
  return value.consumers.some((c) => partition.functionOf[c] !== fn && stepOf[c]! > firstRead);
}

/**
 * The first node of function `fn` that may write over `value`: an in-place op
 * reading it whose output has its size (as M1's in-place rule asks); undefined
 * when none does.
 */
function inPlaceReader(
  graph: InferredGraph,
  byName: ReadonlyMap<string, InferredValue>,
  value: InferredValue,
  partition: Partition,
  fn: number,
  kinds: Readonly<Record<string, OpKind>> | undefined,
): InferredNode | undefined {
  if (value.bytes === undefined) return undefined;
  for (const c of value.consumers) {
    const node = graph.nodes[c]!;
    if (partition.functionOf[c] !== fn || opKindOf(node, kinds) !== 'in-place') continue;
    if (byName.get(node.outputs[0] ?? '')?.bytes === value.bytes) return node;
  }
  return undefined;
}

function decide(home: TensorView, reader: TensorView, later: boolean, writer: InferredNode | undefined): { reason: BoundaryReason; detail: string } {
  if (home.dtype !== reader.dtype) {
    return { reason: 'type-mismatch', detail: `${home.unit} stores ${home.dtype}, ${reader.unit} reads ${reader.dtype}` };
  }
  if (home.alignment % reader.alignment !== 0 || home.allocated < reader.allocated) {
    return {
      reason: 'alignment',
      detail: `${home.unit} aligns to ${home.alignment} bytes (${home.allocated} allocated), ${reader.unit} needs ${reader.alignment} (${reader.allocated})`,
    };
  }
  if (later && writer !== undefined) {
    return { reason: 'read-later', detail: `the tensor is read after ${reader.unit} takes it, and ${writer.opType} '${writer.name}' there may write over it` };
  }
  if (later) return { reason: 'read-later', detail: `the tensor is read after ${reader.unit} takes it, which may write over it` };
  return { reason: 'compatible', detail: `both sides store ${home.dtype} in ${home.allocated} bytes aligned to ${reader.alignment}` };
}
