// Range arg-max over an array of numbers: a sparse table built in O(n log n),
// then the first index of the largest value in any range in O(1). The table
// lives in one typed array that a rebuild reuses, so a caller that builds it
// again and again (a search, once per split) does not allocate. No
// dependencies.

/** A sparse table over `values`: level k holds the arg-max of every run of 2^k entries (the first index on ties). */
export class RangeArgMax {
  private table = new Int32Array(0);
  private length = 0;
  private values: ArrayLike<number> = [];

  /** Builds the table over `values` (kept, not copied: change them and build again); returns this. */
  build(values: ArrayLike<number>): this {
    const n = (this.length = values.length);
    this.values = values;
    const levels = n === 0 ? 0 : 32 - Math.clz32(n);
    if (this.table.length < levels * n) this.table = new Int32Array(levels * n);
    const { table } = this;
    for (let i = 0; i < n; i++) table[i] = i;
    for (let k = 1; k < levels; k++) {
      const half = 1 << (k - 1);
      const row = k * n;
      const below = row - n;
      for (let i = 0; i + 2 * half <= n; i++) {
        const a = table[below + i]!;
        const b = table[below + i + half]!;
        table[row + i] = values[b]! > values[a]! ? b : a;
      }
    }
    return this;
  }

  /** The first index of the largest value in [from, to] (inclusive, from <= to). */
  argMax(from: number, to: number): number {
    const k = 31 - Math.clz32(to - from + 1);
    const row = k * this.length;
    const a = this.table[row + from]!;
    const b = this.table[row + to - (1 << k) + 1]!;
    return this.values[b]! > this.values[a]! ? b : a;
  }

  /** The largest value in [from, to] (inclusive, from <= to). */
  max(from: number, to: number): number {
    return this.values[this.argMax(from, to)]!;
  }
}
