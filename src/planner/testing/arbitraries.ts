// fast-check generators of random placement problems for the property tests:
// lifetimes, sizes (zeros included), alignments, fixed offsets and alias
// groups (chains and windows) that are always well formed.

import fc from 'fast-check';
import type { Alias, PlacementProblem, PlanBuffer } from '../problem/problem';

interface RawBuffer {
  readonly start: number;
  readonly duration: number;
  readonly size: number;
  readonly alignment: number | undefined;
  readonly fixed: boolean;
  readonly second: boolean; // in the second region
  readonly alias: { readonly parentBack: number; readonly slots: number } | undefined;
}

/** Shape of the generated problems. */
export interface ProblemShape {
  readonly maxBuffers: number;
  readonly maxStep: number;
  readonly maxSize: number;
  readonly aliases: boolean; // generate alias groups
  readonly fixed: boolean; // generate fixed offsets
  readonly regions: boolean; // put some buffers in a second region
}

const ALIGNMENTS = [1, 2, 4, 8, 16] as const;
/** Alias windows sit at multiples of this, which every generated alignment divides. */
const SLOT = 16;

const rawBuffer = (shape: ProblemShape): fc.Arbitrary<RawBuffer> =>
  fc.record({
    start: fc.integer({ min: 0, max: shape.maxStep - 1 }),
    duration: fc.integer({ min: 1, max: Math.max(1, Math.floor(shape.maxStep / 2)) }),
    size: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 12, arbitrary: fc.integer({ min: 1, max: shape.maxSize }) }),
    alignment: fc.option(fc.constantFrom(...ALIGNMENTS), { nil: undefined, freq: 3 }),
    fixed: shape.fixed ? fc.integer({ min: 0, max: 7 }).map((k) => k === 0) : fc.constant(false),
    second: shape.regions ? fc.integer({ min: 0, max: 3 }).map((k) => k === 0) : fc.constant(false),
    alias: shape.aliases
      ? fc.option(fc.record({ parentBack: fc.integer({ min: 1, max: 4 }), slots: fc.integer({ min: 0, max: 3 }) }), { nil: undefined, freq: 4 })
      : fc.constant(undefined),
  });

/** Random well-formed problems of the given shape. */
export function arbitraryProblem(shape: ProblemShape): fc.Arbitrary<PlacementProblem> {
  return fc
    .record({
      raw: fc.array(rawBuffer(shape), { maxLength: shape.maxBuffers }),
      alignment: fc.option(fc.constantFrom(...ALIGNMENTS), { nil: undefined, freq: 2 }),
    })
    .map(({ raw, alignment }) => buildProblem(raw, alignment));
}

function buildProblem(raw: readonly RawBuffer[], alignment: number | undefined): PlacementProblem {
  const aliases: Alias[] = [];
  const grouped = new Set<number>();
  let fixedSlot = 0;
  const buffers: PlanBuffer[] = raw.map((r, id) => {
    const parent = r.alias === undefined ? -1 : id - r.alias.parentBack;
    // an alias lives in its parent's region
    const second = parent >= 0 ? raw[regionRoot(raw, parent)]!.second : r.second;
    const buffer: PlanBuffer = {
      id,
      name: `g${id}`,
      size: r.size,
      start: r.start,
      end: r.start + r.duration,
      ...(second && { region: 'second' }),
    };
    const withAlignment = r.alignment === undefined ? buffer : { ...buffer, alignment: r.alignment };
    if (r.alias !== undefined && parent >= 0) {
      aliases.push({ buffer: id, parent, offset: r.alias.slots * SLOT });
      grouped.add(id).add(parent);
      return withAlignment;
    }
    if (r.fixed) {
      // fixed buffers get disjoint 4 KiB slots far above anything else, so they never collide
      return { ...withAlignment, fixedOffset: 4096 * (1 + fixedSlot++) };
    }
    return withAlignment;
  });
  // a fixed buffer inside an alias group would pin the whole group; keep groups free
  const cleaned = buffers.map((b) => (grouped.has(b.id) && b.fixedOffset !== undefined ? withoutFixed(b) : b));
  return { buffers: cleaned, aliases, ...(alignment !== undefined && { alignment }) };
}

/** The first buffer of an alias chain, whose region the whole chain shares. */
function regionRoot(raw: readonly RawBuffer[], id: number): number {
  let b = id;
  while (raw[b]!.alias !== undefined && b - raw[b]!.alias!.parentBack >= 0) b -= raw[b]!.alias!.parentBack;
  return b;
}

function withoutFixed(buffer: PlanBuffer): PlanBuffer {
  const { fixedOffset: _fixed, ...rest } = buffer;
  return rest;
}
