// A max-segment tree over leaf positions, for sweeps over intervals: set a
// leaf's value, then list the leaves of a prefix whose value exceeds a floor
// (the validator's and the problem check's overlap sweeps: leaves are
// buffers ranked by offset, values their top addresses). Depends on nothing.

/** Max-segment tree over leaf positions; -Infinity marks an empty leaf. */
export class MaxTree {
  private readonly size: number;
  private readonly max: Float64Array;

  constructor(leaves: number) {
    let size = 1;
    while (size < leaves) size *= 2;
    this.size = size;
    this.max = new Float64Array(2 * size).fill(-Infinity);
  }

  set(leaf: number, value: number): void {
    let node = leaf + this.size;
    this.max[node] = value;
    for (node >>= 1; node >= 1; node >>= 1) this.max[node] = Math.max(this.max[2 * node]!, this.max[2 * node + 1]!);
  }

  /** The largest value among leaves [0, limit) (-Infinity when none is set): a sweep asks this first, and lists leaves only when it passes its floor. */
  maxBelow(limit: number): number {
    let best = -Infinity;
    // the canonical nodes of [0, limit), bottom up
    for (let l = this.size, r = Math.min(limit, this.size) + this.size; l < r; l >>>= 1, r >>>= 1) {
      if (l & 1) best = Math.max(best, this.max[l++]!);
      if (r & 1) best = Math.max(best, this.max[--r]!);
    }
    return best;
  }

  /** Leaves in [0, limit) whose value exceeds `floor`. */
  above(limit: number, floor: number): number[] {
    const found: number[] = [];
    const stack = [1, 0, this.size]; // node, first leaf, leaf after the last
    while (stack.length > 0) {
      const hi = stack.pop()!;
      const lo = stack.pop()!;
      const node = stack.pop()!;
      if (lo >= limit || this.max[node]! <= floor) continue;
      if (hi - lo === 1) {
        found.push(lo);
        continue;
      }
      const mid = (lo + hi) >>> 1;
      stack.push(2 * node + 1, mid, hi, 2 * node, lo, mid);
    }
    return found;
  }
}
