// What a sweep rests on beyond the dims it was given, as `plan` states it for
// one plan: dims left at their default, If branches chosen without the
// condition's value, a KV cache's past inputs reused after their last read
// (and the bytes a runtime keeping them would add), graph I/O owned by the
// application (outside the arena, so not in the peaks). Gathered over the
// points; the words are shared by `sweep`'s text and the page's Growth. Reads
// sweep points only.

import { formatBytes } from '../../shared/format';
import { kvPastKeptText } from '../explain/kv-past-words';
import type { SweepPoint } from './dim-sweep';

/** A dim at its default value, and the values of the sweep where it is. */
export interface SweepDefaultDim {
  readonly name: string;
  readonly value: number; // its value at the first of `values`
  readonly axes: readonly string[];
  readonly rule: string; // how the default was chosen
  readonly values: readonly number[]; // the swept values planned with it at its default
  readonly dimValues: readonly number[]; // its value at each of `values` (a total length follows the swept part)
}

/** An If branch chosen without the condition's value, and the values of the sweep where it is. */
export interface SweepBranch {
  readonly node: string;
  readonly taken: string;
  readonly reason: string;
  readonly values: readonly number[];
}

/** What every point's plan assumed, gathered over the points (`sweep --json`'s `assumptions`). */
export interface SweepAssumptions {
  readonly dims: readonly SweepDefaultDim[];
  readonly branches: readonly SweepBranch[];
}

/** One assumption in words, with the label `plan`'s text gives it. */
export interface SweepAssumptionLine {
  readonly label: 'assumes' | 'branch' | 'graph I/O';
  readonly text: string;
  readonly defaultDim?: true; // a dim at its default: set it to plan another value
}

/** The planned points (an unplanned value assumes nothing), in value order. */
function plannedPoints(points: readonly SweepPoint[]): SweepPoint[] {
  return points.filter((p) => p.error === undefined).sort((a, b) => a.value - b.value);
}

/** The default dims and branches of the points, each once (by name and value, by node and branch), with the values where they hold. */
export function sweepAssumptions(points: readonly SweepPoint[]): SweepAssumptions {
  const dims = new Map<string, SweepDefaultDim>();
  const branches = new Map<string, SweepBranch>();
  for (const p of plannedPoints(points)) {
    for (const d of p.defaults ?? []) {
      const seen = dims.get(d.name);
      dims.set(d.name, { name: d.name, value: seen?.value ?? d.value, axes: d.axes, rule: d.rule, values: [...(seen?.values ?? []), p.value], dimValues: [...(seen?.dimValues ?? []), d.value] });
    }
    for (const b of p.branches ?? []) {
      const key = `${b.node}\u0000${b.taken}`;
      branches.set(key, { node: b.node, taken: b.taken, reason: b.reason, values: [...(branches.get(key)?.values ?? []), p.value] });
    }
  }
  return { dims: [...dims.values()], branches: [...branches.values()] };
}

/**
 * The assumptions of a sweep of `dim`, one line each, as `plan` words them:
 * default dims and branches with the values they hold at ("at every value"
 * or a list); the past inputs reused and the graph I/O outside the arena with
 * their figures at the largest value planned that has them.
 */
export function sweepAssumptionLines(points: readonly SweepPoint[], dim: string): SweepAssumptionLine[] {
  const planned = plannedPoints(points);
  const at = (values: readonly number[]): string => (values.length === planned.length ? 'at every value' : `at ${dim}=${valueList(values)}`);
  const { dims, branches } = sweepAssumptions(points);
  const lines: SweepAssumptionLine[] = [
    ...dims.map((d) => ({ label: 'assumes' as const, text: `${defaultValue(d, dim)} ${at(d.values)} (${d.axes.join(', ')}; default: ${d.rule})`, defaultDim: true as const })),
    ...branches.map((b) => ({ label: 'branch' as const, text: `${b.node}: ${b.taken} ${at(b.values)} — ${b.reason}` })),
  ];
  const kept = planned.filter((p) => p.kvPastKept !== undefined).at(-1);
  if (kept !== undefined) lines.push({ label: 'assumes', text: kvPastKeptText(kept.kvPastKept!, `${dim}=${kept.value}${kept === planned.at(-1) ? ' (the largest value)' : ''}`) });
  const io = planned.filter((p) => p.io !== undefined).at(-1);
  if (io !== undefined) lines.push({ label: 'graph I/O', text: ioText(io, dim) });
  return lines;
}

/** "batch_size=1", or for a default that follows the swept dim "total_seq_len=1 … 64, following seq_len". */
function defaultValue(d: SweepDefaultDim, dim: string): string {
  const low = Math.min(...d.dimValues);
  const high = Math.max(...d.dimValues);
  return low === high ? `${d.name}=${low}` : `${d.name}=${low} … ${high}, following ${dim},`;
}

/** Graph I/O owned by the application at the point, as `plan`'s graph I/O line says it: outside the arena, so not in the peaks. */
function ioText(p: SweepPoint, dim: string): string {
  const io = p.io!;
  const kv = (io.kvBytes ?? 0) > 0 ? `, ${formatBytes(io.kvBytes)} of them KV cache` : '';
  const inArena = io.inArena > 0 ? `; ${formatBytes(io.inArena)} of them share memory with activations and stay in the arena` : '';
  return `owned by the application, outside the arena: the peaks leave it out${inArena}; at ${dim}=${p.value}, ${formatBytes(io.bytes)} of inputs and outputs in all over the run${kv}`;
}

/** "1, 2, 4" or "1, 2, … 256 (9 values)". */
function valueList(values: readonly number[]): string {
  return values.length <= 6 ? values.join(', ') : `${values.slice(0, 3).join(', ')}, … ${values[values.length - 1]} (${values.length} values)`;
}
