// The effect of fusion units on the placement problem (METHODS.md M2 step 3,
// M5 step 5): tensors inside a unit leave the off-chip plan and appear in the
// unit's on-chip plan. Buffer ids stay as they are (other reports name them).
// Depends only on the planner.
//
// - tfu: every internal tensor's buffer moves to the on-chip region, sized
//   to its tile and fixed at its offset in the unit's tile plan; the tiles
//   of the unit's inputs and output are added as buffers '<unit>:<tensor>'.
// - dw-pw: the depthwise output's buffer becomes the cache buffer
//   '<unit>:cache' (kind 'cache'), live only over the fused steps; the
//   module's other tensors live in place in it (aliases at offset 0).
// - Units never overlap in steps, so their fixed on-chip plans never meet.
// - An alias between a moved buffer and any other is dissolved: the buffer
//   left in DRAM then owns its bytes.

import type { BufferInfo, BuiltProblem } from '../problem/build-problem';
import type { Alias, PlanBuffer } from '../problem/problem';
import type { FusionUnitCore } from './fusion-types';
import { unitName } from './find-units';

/** A buffer and what the plan knows of it. */
interface Entry {
  buffer: Omit<PlanBuffer, 'id'>;
  info: BufferInfo;
}

/** The built problem with the units' effect applied; see the module header. */
export function withFusion(built: BuiltProblem, units: readonly FusionUnitCore[], region: string): BuiltProblem {
  const { problem } = built;
  const entries: Entry[] = problem.buffers.map((b, id) => ({ buffer: b, info: built.info[id]! }));
  const idOf = new Map(problem.buffers.map((b) => [b.name, b.id]));
  const moved = new Set<number>();
  const aliases: Alias[] = [];
  const move = (id: number, buffer: Omit<PlanBuffer, 'id'>, info: BufferInfo): void => {
    entries[id] = { buffer, info };
    moved.add(id);
  };
  for (const unit of units) {
    if (unit.kind === 'tfu') tileBuffers(unit, region, idOf, entries, move);
    else cacheBuffers(unit, region, idOf, entries, move, aliases);
  }
  const kept = (problem.aliases ?? []).filter((a) => !moved.has(a.buffer) && !moved.has(a.parent));
  for (const a of problem.aliases ?? []) {
    if (moved.has(a.parent) && !moved.has(a.buffer)) {
      const { alias: _dissolved, ...owner } = entries[a.buffer]!.info;
      entries[a.buffer] = { ...entries[a.buffer]!, info: owner };
    }
  }
  return {
    ...built,
    problem: { ...problem, buffers: entries.map((e, id) => ({ ...e.buffer, id })), aliases: [...kept, ...aliases] },
    info: entries.map((e) => e.info),
  };
}

type Move = (id: number, buffer: Omit<PlanBuffer, 'id'>, info: BufferInfo) => void;

/** On-chip buffer fields: exact size, fixed offset, byte alignment. */
function onChip(name: string, size: number, offset: number, start: number, end: number, region: string): Omit<PlanBuffer, 'id'> {
  return { name, size, start, end, region, alignment: 1, fixedOffset: offset };
}

function tileBuffers(unit: FusionUnitCore, region: string, idOf: ReadonlyMap<string, number>, entries: Entry[], move: Move): void {
  const internal = new Set(unit.internal);
  for (const b of unit.onChipBuffers) {
    const buffer = onChip(b.name, b.size, b.offset, b.firstStep, b.lastStep + 1, region);
    const id = idOf.get(b.name);
    if (internal.has(b.name) && id !== undefined) {
      const { alias: _alias, ...info } = entries[id]!.info;
      move(id, buffer, { ...info, bytes: b.size, padding: 0 });
      continue;
    }
    const owner = b.name === unit.output ? unit.nodes[unit.nodes.length - 1] : unit.nodes[0];
    entries.push({
      buffer: { ...buffer, name: `${unitName(unit)}:${b.name}` },
      info: { kind: 'activation', node: owner, bytes: b.size, padding: 0, graphIo: false },
    });
  }
}

function cacheBuffers(unit: FusionUnitCore, region: string, idOf: ReadonlyMap<string, number>, entries: Entry[], move: Move, aliases: Alias[]): void {
  const bytes = unit.cache!.bytes;
  const [first, ...rest] = unit.internal.map((name) => idOf.get(name)).filter((id): id is number => id !== undefined);
  if (first === undefined) return;
  const start = unit.firstStep;
  const end = unit.lastStep + 1;
  move(first, onChip(`${unitName(unit)}:cache`, bytes, 0, start, end, region), {
    kind: 'cache',
    node: unit.nodes[0],
    bytes,
    padding: 0,
    graphIo: false,
  });
  for (const id of rest) {
    const { alias: _alias, ...info } = entries[id]!.info;
    const b = entries[id]!.buffer;
    const life = { start: Math.max(start, b.start), end: Math.min(end, Math.max(b.end, b.start + 1)) };
    move(id, { name: b.name, size: bytes, ...life, region, alignment: 1 }, { ...info, bytes, padding: 0, alias: { parent: first, offset: 0, rule: 'in-place' } });
    aliases.push({ buffer: id, parent: first, offset: 0 });
  }
}
