// The meaning of a saved plan, checked before anything trusts it: a plan file
// is a document a person can edit, and a forged one must not pass a CI budget
// or reach a view as nonsense. Depends only on src/shared and the planner.
//
// - Steps are { node, opType } records; liveAtPeak names buffers that exist.
// - Every buffer: its id is its index; size, bytes, start, end and offset are
//   whole numbers within range (bytes ≤ size, start < end ≤ the steps, or 1
//   past them for a plan of no steps); its region is one of the plan's; an
//   alias names another buffer.
// - The placement is valid by the independent validator (validate-plan.ts):
//   no two buffers live at once overlap unless they share on purpose, every
//   alias holds, each region's peak is its highest byte and `peak` their sum.
// - Every lower bound is a whole number no greater than its peak.

import { InputError } from '../../shared/errors';
import { previewJson } from '../../shared/json-preview';
import { MAX_EXACT_POWER } from '../../shared/format';
import type { Alias, PlacementProblem, PlanBuffer } from '../problem/problem';
import { validatePlan } from './validate-plan';

type Json = Record<string, unknown>;

const KINDS = new Set(['input', 'output', 'activation', 'copy', 'scratch', 'subgraph', 'cache']);

/** Throws InputError('bad-plan') naming the first field whose value makes the plan impossible. */
export function checkPlanMeaning(plan: Json, source: string): void {
  const fail = (path: string, what: string, value: unknown): never => {
    throw new InputError('bad-plan', `${source}: plan file field ${path} ${what}, got ${previewJson(value, 40)}`);
  };
  const steps = plan.steps as unknown[];
  steps.forEach((s, i) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) fail(`plan.steps[${i}]`, 'must be a step record', s);
    const step = s as Json;
    if (typeof step.node !== 'string' || typeof step.opType !== 'string') fail(`plan.steps[${i}]`, 'must name its node and op type', s);
  });
  const regions = (plan.regions as Json[]).map((r) => r.name as string);
  const buffers = (plan.buffers as Json[]).map((b, i) => planBuffer(b, i, steps.length, regions, fail));
  const aliases = (plan.buffers as Json[]).flatMap((b, i) => aliasOf(b, i, buffers.length, fail));
  for (const [i, id] of ((plan.liveAtPeak as unknown[]) ?? []).entries()) {
    const ref = typeof id === 'object' && id !== null ? (id as Json).id : id;
    if (!isWhole(ref) || (ref as number) >= buffers.length) fail(`plan.liveAtPeak[${i}]`, 'must name a buffer of the plan', id);
  }
  wholeAtMost(plan.lowerBound, plan.peak, 'plan.lowerBound', fail);
  (plan.regions as Json[]).forEach((r, i) => wholeAtMost(r.lowerBound, r.peak, `plan.regions[${i}].lowerBound`, fail));
  const problem: PlacementProblem = { buffers, aliases };
  const validation = validatePlan(problem, {
    offsets: (plan.buffers as Json[]).map((b) => b.offset as number),
    peak: plan.peak as number,
    regions: (plan.regions as Json[]).map((r) => ({ name: r.name as string, peak: r.peak as number })),
  });
  const first = validation.violations[0];
  if (first !== undefined) throw new InputError('bad-plan', `${source}: the plan is not valid: ${first.message}`);
}

function planBuffer(b: Json, i: number, steps: number, regions: readonly string[], fail: (path: string, what: string, value: unknown) => never): PlanBuffer {
  const at = `plan.buffers[${i}]`;
  if (b.id !== i) fail(`${at}.id`, `must be ${i}, its index`, b.id);
  for (const key of ['size', 'bytes', 'start', 'end', 'offset']) if (!isWhole(b[key])) fail(`${at}.${key}`, `must be a whole number from 0 to ${MAX_EXACT_POWER}`, b[key]);
  const [size, bytes, start, end] = [b.size, b.bytes, b.start, b.end] as number[];
  if (bytes! > size!) fail(`${at}.bytes`, `must not exceed its size (${size})`, bytes);
  if (!(start! < end! && end! <= Math.max(steps, 1) + 1)) fail(`${at}.end`, `must follow its start (${start}) and stay within the ${steps} steps`, end);
  if (!regions.includes(b.region as string)) fail(`${at}.region`, 'must be one of the plan\'s regions', b.region);
  if (typeof b.kind !== 'string' || !KINDS.has(b.kind)) fail(`${at}.kind`, `must be one of ${[...KINDS].join(', ')}`, b.kind);
  return { id: i, name: b.name as string, size: size!, start: start!, end: end!, region: b.region as string };
}

function aliasOf(b: Json, i: number, count: number, fail: (path: string, what: string, value: unknown) => never): Alias[] {
  if (b.alias === undefined) return [];
  const a = b.alias as Json;
  if (typeof a !== 'object' || a === null || !isWhole(a.parent) || (a.parent as number) >= count || a.parent === i || !isWhole(a.offset)) {
    fail(`plan.buffers[${i}].alias`, 'must name another buffer and a whole-number offset inside it', b.alias);
  }
  return [{ buffer: i, parent: a.parent as number, offset: a.offset as number }];
}

function wholeAtMost(value: unknown, limit: unknown, path: string, fail: (path: string, what: string, value: unknown) => never): void {
  if (!isWhole(value) || !isWhole(limit)) fail(path, 'and its peak must be whole numbers of bytes', [value, limit]);
  if ((value as number) > (limit as number)) fail(path, `must not exceed the peak (${limit as number})`, value);
}

function isWhole(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
