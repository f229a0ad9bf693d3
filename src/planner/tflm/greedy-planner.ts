// TensorFlow Lite Micro's GreedyMemoryPlanner, step for step, with TFLM's own
// buffer ids and inclusive lifetimes, so that a simulation of the runtime gives
// the offsets and head size the device will use. Depends on nothing.
//
// - Buffers are added in TFLM's order (subgraph 0's tensors by index, the
//   other subgraphs', then the kernels' scratch requests); the id is the order.
// - Offline-planned buffers (a fixed offset) come first, in id order, unsorted.
// - The online ones are filled into the sort array from its tail (so they lie
//   in decreasing id order), then bubble-sorted by size, largest first; the
//   sort is stable, so among equal sizes the buffer added later goes first.
// - Each buffer in that order starts at offset 0 and walks the buffers already
//   placed, in offset order (ties: the one placed first), skipping those whose
//   inclusive lifetimes [first, last] do not meet its own; the candidate rises
//   to the end of each buffer passed, and the first gap from the candidate to
//   the next one that fits takes the buffer. Offline buffers take their offset
//   whatever lies there.
// - The head is the highest end of any buffer; 0 with no buffers.
// The strategy `tflm` (strategies/greedy/tflm.ts) applies the same rule to the
// planner's own problems; this module keeps TFLM's ids and inclusive times.

/** One AddBuffer call: size already aligned by the caller, as TFLM's allocator does. */
export interface GreedyBuffer {
  readonly size: number;
  readonly first: number; // first_time_used (inclusive)
  readonly last: number; // last_time_used (inclusive)
  readonly offlineOffset?: number; // a fixed offset from an offline plan
}

/** The planner's result: an offset per buffer (by id) and the head size. */
export interface GreedyPlan {
  readonly offsets: readonly number[];
  readonly head: number;
}

/** Bytes GreedyMemoryPlanner needs per buffer in its scratch area (per_buffer_size(): 16 + 4 + 4 + 12 + 4). */
export const GREEDY_BYTES_PER_BUFFER = 40;

/** TFLM's ReverseSortInPlace: a stable bubble sort, largest value first, ids moved along. */
export function reverseSortInPlace(values: number[], ids: number[]): void {
  let anySwapped: boolean;
  do {
    anySwapped = false;
    for (let i = 1; i < values.length; i++) {
      if (values[i - 1]! < values[i]!) {
        [values[i - 1], values[i]] = [values[i]!, values[i - 1]!];
        [ids[i - 1], ids[i]] = [ids[i]!, ids[i - 1]!];
        anySwapped = true;
      }
    }
  } while (anySwapped);
}

/** Places the buffers as GreedyMemoryPlanner::CalculateOffsetsIfNeeded does. */
export function planGreedy(buffers: readonly GreedyBuffer[]): GreedyPlan {
  const n = buffers.length;
  if (n === 0) return { offsets: [], head: 0 };
  const order = placementOrder(buffers);
  const offsets = new Array<number>(n).fill(-1);
  const placed: number[] = []; // buffer ids in offset order (ties: placed first, first)
  for (const id of order) {
    const b = buffers[id]!;
    const offset = b.offlineOffset ?? firstFit(b, placed, buffers, offsets);
    offsets[id] = offset;
    let at = placed.findIndex((p) => offsets[p]! > offset);
    if (at < 0) at = placed.length;
    placed.splice(at, 0, id);
  }
  const head = buffers.reduce((max, b, i) => Math.max(max, offsets[i]! + b.size), 0);
  return { offsets, head };
}

/** Offline buffers in id order, then the online ones as the sort leaves them. */
function placementOrder(buffers: readonly GreedyBuffer[]): number[] {
  const offline = buffers.flatMap((b, i) => (b.offlineOffset === undefined ? [] : [i]));
  const online: number[] = [];
  for (let i = buffers.length - 1; i >= 0; i--) if (buffers[i]!.offlineOffset === undefined) online.push(i);
  const sizes = online.map((i) => buffers[i]!.size);
  reverseSortInPlace(sizes, online);
  return [...offline, ...online];
}

/** The lowest offset from 0 up where `b` fits between the placed buffers whose lifetimes meet its own. */
function firstFit(b: GreedyBuffer, placed: readonly number[], buffers: readonly GreedyBuffer[], offsets: readonly number[]): number {
  let candidate = 0;
  for (const id of placed) {
    const other = buffers[id]!;
    if (other.first > b.last || b.first > other.last) continue;
    const offset = offsets[id]!;
    if (offset - candidate >= b.size) return candidate;
    candidate = Math.max(candidate, offset + other.size);
  }
  return candidate;
}
