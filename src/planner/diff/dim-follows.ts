// Which changed dims follow others: a total length the user did not give
// (derived from, or defaulted beside, its sequence and past lengths) changes
// because its parts did, so a cause names the parts the user set and the
// total as their consequence. Depends only on the plan file and diff types.

import type { PlanFile } from '../assembly/plan-file';
import type { DimChange } from './diff-types';

/** What a plan file records of one dim: whether the user gave it, and the dims it is the sum of. */
interface DimRecord {
  readonly given: boolean; // given by the user (neither derived nor a default)
  readonly sumOf: readonly string[];
}

/** The dims a plan file records, read with care: a saved file may carry anything. */
function dimRecords(file: PlanFile): Map<string, DimRecord> {
  const out = new Map<string, DimRecord>();
  const dims: unknown = file.plan.assumptions?.dims;
  if (!Array.isArray(dims)) return out;
  for (const d of dims as unknown[]) {
    if (typeof d !== 'object' || d === null) continue;
    const { name, bound, derived, sumOf } = d as { name?: unknown; bound?: unknown; derived?: unknown; sumOf?: unknown };
    if (typeof name !== 'string') continue;
    const parts = Array.isArray(sumOf) ? sumOf.filter((p): p is string => typeof p === 'string') : [];
    out.set(name, { given: bound === true && derived !== true, sumOf: parts });
  }
  return out;
}

/**
 * The changed dims, each total length that the user gave on neither side
 * marked with the changed dims it follows (`follows`): past_seq_len 0 → 256
 * takes total_seq_len 128 → 384 with it.
 */
export function withFollows(dims: readonly DimChange[], a: PlanFile, b: PlanFile): DimChange[] {
  const [recA, recB] = [dimRecords(a), dimRecords(b)];
  const changed = new Set(dims.map((c) => c.name));
  return dims.map((c) => {
    const [ra, rb] = [recA.get(c.name), recB.get(c.name)];
    if (ra?.given === true || rb?.given === true) return c;
    const sumOf = new Set([...(ra?.sumOf ?? []), ...(rb?.sumOf ?? [])]);
    const follows = [...sumOf].filter((p) => p !== c.name && changed.has(p));
    return follows.length === 0 ? c : { ...c, follows };
  });
}

/** The dims a dim-changed label names: 'seq', 'batch×seq', 'seq²', 'seq_len or total_seq_len'. */
export function labelNames(label: string): string[] {
  return [...new Set(label.split(/ or |×/).map((part) => part.replace('²', '')))];
}

/**
 * The dims behind a dim-changed label that were set: a total length that
 * follows its parts (DimChange.follows) is replaced by them. Undefined when
 * no dim of the label follows others (the label names what was set).
 */
export function setDimsOf(label: string, dims: readonly DimChange[]): string[] | undefined {
  const byName = new Map(dims.map((c) => [c.name, c]));
  const names = labelNames(label);
  if (!names.some((n) => byName.get(n)?.follows !== undefined)) return undefined;
  return [...new Set(names.flatMap((n) => byName.get(n)?.follows ?? [n]))];
}
