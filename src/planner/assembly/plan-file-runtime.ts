// A saved plan's runtime plan (TensorFlow Lite Micro's arena, which `diff
// --budget` judges and the views draw), checked as the rest of a plan file is:
// a forged arena must not pass a CI budget. Depends only on src/shared and the
// planner's target types.
//
// - Every field heapscope has written since runtime plans were saved is there,
//   of its type; the whole numbers are from 0 to 2^53 − 1 and the arenas hold
//   their head and tail. `filePlan`, `planned.bufferOffsets`, `refused`,
//   `assumes` and `build`, written only sometimes or since later, are checked
//   when present.
// - A plan for a runtime-tflm target of a .tflite model always has one, and a
//   plan of any other has none: an ONNX model on such a target carries the
//   `runtime-needs-tflite` diagnostic instead.

import { InputError } from '../../shared/errors';
import { previewJson } from '../../shared/json-preview';
import { MAX_EXACT_POWER } from '../../shared/format';
import type { TargetProfile } from '../targets/target';

type Json = Record<string, unknown>;
type Fail = (path: string, what: string, value: unknown) => never;

const WHOLE = `a whole number from 0 to ${MAX_EXACT_POWER}`;

/** Throws InputError('bad-plan') naming the first runtimePlan field that heapscope would not have written. */
export function checkRuntimePlan(plan: Json, profile: TargetProfile, source: string): void {
  const fail: Fail = (path, what, value) => {
    const got = value === undefined ? 'it is missing' : `got ${previewJson(value, 40)}`;
    throw new InputError('bad-plan', `${source}: plan file field ${path} must be ${what}, ${got}`);
  };
  const onTflm = profile.planning.runtime === 'tflm';
  if (plan.runtimePlan === undefined) {
    const notTflite = (plan.diagnostics as unknown[]).some((d) => typeof d === 'object' && d !== null && (d as Json).code === 'runtime-needs-tflite');
    if (onTflm && !notTflite) throw new InputError('bad-plan', `${source}: plan file field plan.runtimePlan is missing: a plan for a target whose runtime is tflm has TensorFlow Lite Micro's plan (a model it does not read, the runtime-needs-tflite diagnostic instead)`);
    return;
  }
  const at = 'plan.runtimePlan';
  if (!onTflm) throw new InputError('bad-plan', `${source}: plan file field plan.runtimePlan is there, but settings.targetProfile ${previewJson(profile.name, 40)} plans for no runtime (one was edited)`);
  const r = objectOf(plan.runtimePlan, at, fail);
  if (r.runtime !== 'tflm') fail(`${at}.runtime`, '"tflm"', r.runtime);
  for (const key of ['head', 'tail', 'arena', 'greedyHead', 'planningBytes', 'buffers', 'scratch', 'variableBytes']) whole(r, key, at, fail);
  booleanAt(r, 'tailEstimated', at, fail);
  stringAt(r, 'arenaReason', at, fail);
  strings(r, 'notes', at, fail);
  if (r.refused !== undefined && (strings(r, 'refused', at, fail).length === 0)) fail(`${at}.refused`, 'a list of reasons (absent when TensorFlow Lite Micro accepts the model)', r.refused);
  if (r.assumes !== undefined) strings(r, 'assumes', at, fail);
  if (r.build !== undefined && r.build !== '32-bit') fail(`${at}.build`, '"32-bit"', r.build);
  arrayOf(r.tailParts, `${at}.tailParts`, fail).forEach((part, i) => {
    const p = objectOf(part, `${at}.tailParts[${i}]`, fail);
    stringAt(p, 'what', `${at}.tailParts[${i}]`, fail);
    stringAt(p, 'rule', `${at}.tailParts[${i}]`, fail);
    whole(p, 'bytes', `${at}.tailParts[${i}]`, fail);
    booleanAt(p, 'estimated', `${at}.tailParts[${i}]`, fail);
  });
  checkPlanned(objectOf(r.planned, `${at}.planned`, fail), (plan.buffers as unknown[]).length, `${at}.planned`, fail);
  if (r.filePlan !== undefined) {
    const f = objectOf(r.filePlan, `${at}.filePlan`, fail);
    whole(f, 'head', `${at}.filePlan`, fail);
    booleanAt(f, 'valid', `${at}.filePlan`, fail);
    for (const key of ['problem', 'insideCustomOp']) if (f[key] !== undefined) stringAt(f, key, `${at}.filePlan`, fail);
    if (f.sameAsPlanned !== undefined) booleanAt(f, 'sameAsPlanned', `${at}.filePlan`, fail);
  }
  // the arena to declare holds the head and the tail; `planning` (arena − head − tail) is never negative
  const [head, tail, arena, plannedHead, plannedArena] = [r.head, r.tail, r.arena, (r.planned as Json).head, (r.planned as Json).arena] as number[];
  if (arena! < head! + tail!) fail(`${at}.arena`, `at least its head and tail (${head! + tail!})`, arena);
  if (plannedArena! < plannedHead! + tail!) fail(`${at}.planned.arena`, `at least its head and the tail (${plannedHead! + tail!})`, plannedArena);
}

/** The plan written: its head and arena, the offsets written in (−1: left to TFLM), where TFLM puts each buffer then. */
function checkPlanned(p: Json, buffers: number, at: string, fail: Fail): void {
  for (const key of ['head', 'arena']) whole(p, key, at, fail);
  stringAt(p, 'source', at, fail);
  for (const key of ['saving', 'savingPercent']) if (typeof p[key] !== 'number' || !Number.isFinite(p[key])) fail(`${at}.${key}`, 'a number', p[key]);
  arrayOf(p.offsets, `${at}.offsets`, fail).forEach((v, i) => {
    if (v !== -1 && !isWhole(v)) fail(`${at}.offsets[${i}]`, `-1 or ${WHOLE}`, v);
  });
  if (p.bufferOffsets === undefined) return;
  const offsets = arrayOf(p.bufferOffsets, `${at}.bufferOffsets`, fail);
  if (offsets.length !== buffers) fail(`${at}.bufferOffsets`, `one offset per buffer of the plan (${buffers})`, `${offsets.length} offsets`);
  offsets.forEach((v, i) => {
    if (!isWhole(v)) fail(`${at}.bufferOffsets[${i}]`, WHOLE, v);
  });
}

function objectOf(value: unknown, path: string, fail: Fail): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : fail(path, 'an object', value);
}

function arrayOf(value: unknown, path: string, fail: Fail): readonly unknown[] {
  return Array.isArray(value) ? value : fail(path, 'an array', value);
}

function strings(doc: Json, key: string, at: string, fail: Fail): readonly string[] {
  const list = arrayOf(doc[key], `${at}.${key}`, fail);
  list.forEach((v, i) => {
    if (typeof v !== 'string') fail(`${at}.${key}[${i}]`, 'a string', v);
  });
  return list as string[];
}

function whole(doc: Json, key: string, at: string, fail: Fail): void {
  if (!isWhole(doc[key])) fail(`${at}.${key}`, WHOLE, doc[key]);
}

function booleanAt(doc: Json, key: string, at: string, fail: Fail): void {
  if (typeof doc[key] !== 'boolean') fail(`${at}.${key}`, 'true or false', doc[key]);
}

function stringAt(doc: Json, key: string, at: string, fail: Fail): void {
  if (typeof doc[key] !== 'string') fail(`${at}.${key}`, 'a string', doc[key]);
}

function isWhole(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
