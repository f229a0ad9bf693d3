// Edge inference for the skyline search (skyline-search.ts): where a section
// has no slack left, the byte right above its floor must be covered by a
// buffer resting exactly there, and next to a higher floor that buffer must
// start (or end) at the section. A state where no unplaced buffer can do so
// is a dead end. Depends on nothing.
//
// - Slack of a section: target - floor - bytes of the unplaced buffers live
//   there. With none, every byte above the floor is some unplaced buffer's.
// - The buffer covering the byte at floor f rests at f (floors only rise),
//   so it cannot reach into a neighbour whose floor is already above f, nor
//   into a section where nothing remains to be placed: it starts at the
//   section when the left neighbour is such a wall, ends after it when the
//   right one is, and stays between the nearest walls either side.
// - A run of sections at one floor with walls on both sides and no slack is
//   covered at that floor by buffers side by side, so unplaced buffers must
//   chain from its first section to the end of its last.

/** The search state the inference reads (per section, and per buffer in local order). */
export interface SkylineState {
  readonly size: Float64Array;
  readonly target: number;
  readonly floor: Float64Array;
  readonly remaining: Float64Array;
  readonly liveCount: Int32Array;
  readonly placed: Uint8Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/** Buffers by first section and by section after the last: what the inference looks up. */
export interface EdgeIndex {
  readonly startingAt: readonly (readonly number[])[]; // per section: buffers starting there, by `to` ascending
  readonly endingAt: readonly (readonly number[])[]; // per section boundary: buffers ending there, by `from` descending
}

/** Builds the lookup lists of `edgesClosable`. */
export function edgeIndex(from: Int32Array, to: Int32Array, sections: number): EdgeIndex {
  const startingAt: number[][] = Array.from({ length: sections }, () => []);
  const endingAt: number[][] = Array.from({ length: sections + 1 }, () => []);
  for (let k = 0; k < from.length; k++) {
    startingAt[from[k]!]!.push(k);
    endingAt[to[k]!]!.push(k);
  }
  for (const list of startingAt) list.sort((a, b) => to[a]! - to[b]!);
  for (const list of endingAt) list.sort((a, b) => from[b]! - from[a]!);
  return { startingAt, endingAt };
}

/**
 * False when some section of [lo, hi) without slack has a wall beside it that
 * no unplaced buffer can meet; see the module header. Sections outside
 * [lo, hi) count as walls: no unplaced buffer of the window reaches them.
 */
export function edgesClosable(state: SkylineState, index: EdgeIndex, walls: Walls, lo: number, hi: number): boolean {
  const { target, floor, remaining, liveCount, placed, from, to } = state;
  const { wallRight, wallLeft } = walls;
  nearestWalls(state, walls, lo, hi);
  for (let s = lo; s < hi; s++) {
    if (liveCount[s] === 0 || floor[s]! + remaining[s]! < target) continue;
    if (wallLeft[s] === s - 1) {
      // a buffer must start here and end at or before the wall on the right
      const limit = wallRight[s]!;
      let ok = false;
      for (const k of index.startingAt[s]!) {
        if (to[k]! > limit) break;
        if (placed[k] === 0) {
          ok = true;
          break;
        }
      }
      if (!ok) return false;
    }
    if (wallRight[s] === s + 1) {
      const limit = wallLeft[s]!;
      let ok = false;
      for (const k of index.endingAt[s + 1]!) {
        if (from[k]! <= limit) break;
        if (placed[k] === 0) {
          ok = true;
          break;
        }
      }
      if (!ok) return false;
    }
  }
  return chainsClose(state, index, lo, hi);
}

/**
 * False when a run of sections at one floor, walled on both sides and
 * without slack, cannot be covered exactly by unplaced buffers resting on
 * that floor side by side (each starting where the one before ends).
 */
function chainsClose(state: SkylineState, index: EdgeIndex, lo: number, hi: number): boolean {
  const { target, floor, remaining, liveCount, placed, to } = state;
  const count = hi;
  const walled = (s: number, f: number) => s < lo || s >= hi || liveCount[s] === 0 || floor[s]! > f;
  for (let a = lo; a < count; ) {
    if (liveCount[a] === 0) {
      a++;
      continue;
    }
    const f = floor[a]!;
    let b = a;
    let tight = true;
    for (; b < count && liveCount[b]! > 0 && floor[b] === f; b++) if (floor[b]! + remaining[b]! < target) tight = false;
    if (tight && walled(a - 1, f) && walled(b, f) && !coverable(index, placed, to, a, b)) return false;
    a = b;
  }
  return true;
}

/** True when unplaced buffers inside [a, b) can be chained from a to b. */
function coverable(index: EdgeIndex, placed: Uint8Array, to: Int32Array, a: number, b: number): boolean {
  const reached = new Uint8Array(b - a + 1);
  reached[0] = 1;
  for (let t = a; t < b; t++) {
    if (reached[t - a] === 0) continue;
    for (const k of index.startingAt[t]!) {
      if (to[k]! > b) break;
      if (placed[k] === 0) reached[to[k]! - a] = 1;
    }
  }
  return reached[b - a] === 1;
}

/** Scratch of the edge inference: per section, the nearest wall on each side. */
export interface Walls {
  readonly wallRight: Int32Array;
  readonly wallLeft: Int32Array;
}

/** Scratch for `edgesClosable` over `sections` sections. */
export function wallsFor(sections: number): Walls {
  return { wallRight: new Int32Array(sections), wallLeft: new Int32Array(sections) };
}

/**
 * Per section s of [lo, hi), the nearest section on each side that a buffer
 * resting on s's floor cannot reach (floor above it, or nothing left to
 * place there); lo - 1 and hi stand for the window's ends.
 */
function nearestWalls(state: SkylineState, walls: Walls, lo: number, hi: number): void {
  const { floor, liveCount } = state;
  const { wallRight, wallLeft } = walls;
  const count = hi;
  const stack: number[] = [];
  for (let s = count - 1; s >= lo; s--) {
    if (liveCount[s] === 0) {
      stack.length = 0;
      stack.push(s);
      wallRight[s] = s + 1;
      continue;
    }
    while (stack.length > 0 && liveCount[stack[stack.length - 1]!] !== 0 && floor[stack[stack.length - 1]!]! <= floor[s]!) stack.pop();
    wallRight[s] = stack.length === 0 ? count : stack[stack.length - 1]!;
    stack.push(s);
  }
  stack.length = 0;
  for (let s = lo; s < count; s++) {
    if (liveCount[s] === 0) {
      stack.length = 0;
      stack.push(s);
      wallLeft[s] = s - 1;
      continue;
    }
    while (stack.length > 0 && liveCount[stack[stack.length - 1]!] !== 0 && floor[stack[stack.length - 1]!]! <= floor[s]!) stack.pop();
    wallLeft[s] = stack.length === 0 ? lo - 1 : stack[stack.length - 1]!;
    stack.push(s);
  }
}
