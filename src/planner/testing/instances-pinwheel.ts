// Hard placement problems with a known optimum: the rectangle capacity × steps
// cut into pieces by guillotine cuts and pinwheels (five pieces around a
// centre, which no straight cut separates). Depends only on planner types.

import { seededRandom } from '../../shared/random';
import type { PlanBuffer } from '../problem/problem';
import type { TiledProblem } from './instances';

/** Addresses are cut on multiples of this many bytes, as buffers are sized. */
const GRAIN = 64;

interface Piece {
  readonly start: number; // steps, half-open
  readonly end: number;
  readonly low: number; // grains, half-open
  readonly high: number;
}

/**
 * Cuts capacity × steps (capacity in bytes, a multiple of 64) into `count`
 * pieces, each a buffer: the largest piece is cut next, by a pinwheel when
 * it is at least 3 steps and 3 grains on a side and a coin says so (two
 * times in five), else by a straight cut along its longer side (relative to
 * the whole), at a random place away from its edges. Every step is fully
 * covered, so the lower bound and the optimum equal `capacity`, while the
 * pieces are of like sizes and interlock, which greedy orders get wrong.
 */
export function pinwheelProblem(count: number, capacity: number, steps: number, seed: number): TiledProblem {
  const random = seededRandom(seed);
  const grains = Math.floor(capacity / GRAIN);
  const pieces: Piece[] = [{ start: 0, end: steps, low: 0, high: grains }];
  const area = (p: Piece) => (p.end - p.start) * (p.high - p.low);
  const between = (a: number, b: number) => a + 1 + Math.floor(random() * (b - a - 1)); // strictly inside (a, b)
  while (pieces.length < count) {
    let k = 0;
    for (let i = 1; i < pieces.length; i++) if (area(pieces[i]!) > area(pieces[k]!)) k = i;
    const p = pieces[k]!;
    const wide = p.end - p.start;
    const tall = p.high - p.low;
    if (wide < 2 && tall < 2) break; // every piece is one step by one grain
    let cut: Piece[];
    if (count - pieces.length >= 4 && wide >= 3 && tall >= 3 && random() < 0.4) {
      cut = pinwheel(p, between(p.start, p.end - 1), between(p.low, p.high - 1), random);
    } else if (tall >= 2 && (wide < 2 || tall / grains > wide / steps)) {
      const y = between(p.low, p.high);
      cut = [{ ...p, high: y }, { ...p, low: y }];
    } else {
      const x = between(p.start, p.end);
      cut = [{ ...p, end: x }, { ...p, start: x }];
    }
    pieces.splice(k, 1, ...cut);
  }
  const buffers: PlanBuffer[] = pieces.map((p, id) => ({ id, name: `p${id}`, size: (p.high - p.low) * GRAIN, start: p.start, end: p.end }));
  return { problem: { buffers }, optimum: grains * GRAIN, offsets: pieces.map((p) => p.low * GRAIN) };
}

/**
 * Five pieces around a centre: with xa < xb inside the steps and ya < yb
 * inside the grains, the bottom-left piece reaches right to xb, the
 * bottom-right up to yb, the top-right left to xa and the top-left down to
 * ya; the centre fills [xa, xb) × [ya, yb). Which corner turns which way is
 * random.
 */
function pinwheel(p: Piece, xa: number, ya: number, random: () => number): Piece[] {
  const xb = xa + 1 + Math.floor(random() * (p.end - xa - 1));
  const yb = ya + 1 + Math.floor(random() * (p.high - ya - 1));
  const clockwise: Piece[] = [
    { start: p.start, end: xb, low: p.low, high: ya },
    { start: xb, end: p.end, low: p.low, high: yb },
    { start: xa, end: p.end, low: yb, high: p.high },
    { start: p.start, end: xa, low: ya, high: p.high },
  ];
  const counter: Piece[] = [
    { start: p.start, end: xa, low: p.low, high: yb },
    { start: xa, end: p.end, low: p.low, high: ya },
    { start: xb, end: p.end, low: ya, high: p.high },
    { start: p.start, end: xb, low: yb, high: p.high },
  ];
  return [...(random() < 0.5 ? clockwise : counter), { start: xa, end: xb, low: ya, high: yb }];
}
