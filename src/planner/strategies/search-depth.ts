// How deep a recursive search's path may go, counted: past its limit a
// search gives up as it would where the call stack runs out, so where it
// gives up depends on the problem alone, not on the stack the machine, the
// runtime or the JIT's tier gives each frame (the skyline search ran out at
// 823 to 1,369 levels on one problem, by stack size and run). Each limit sits
// below where its search runs out on a default Node stack, interpreted
// (skyline 1,216 levels there) and optimized, with 400 frames of callers
// above it (search-depth.test.ts). Depends on nothing.

/** The deepest path each recursive search takes. */
export const SEARCH_DEPTH = {
  skyline: 1000,
  // MiniMalloc's search goes 1,040 levels deep on somas-resnet50 (its plan there needs them)
  minimalloc: 1100,
  guillotine: 1000,
} as const;

/** Thrown past a search's depth limit; caught where a stack overflow is, and handled the same way. */
export class TooDeep extends RangeError {
  constructor(limit: number) {
    super(`a search path deeper than ${limit} levels`);
  }
}

/** A search's depth on its current path: `enter` before a level, `leave` after it (in a finally). */
export class SearchDepth {
  private depth = 0;
  constructor(private readonly limit: number) {}

  enter(): void {
    if (this.depth >= this.limit) throw new TooDeep(this.limit);
    this.depth++;
  }

  leave(): void {
    this.depth--;
  }
}
