// Saved plan files for `diff a b --budget ...` and readPlanFile (the page's
// Open file), reproducible from a seed: a plan that `plan --save` wrote, edited
// as a person or a forger would: fields removed, retyped, null, huge, deep or
// prototype keys (json-mutate.ts); buffers moved onto each other, resized,
// given aliases (to themselves, in cycles, past their parent), lifetimes
// reversed; peaks lowered to pass a budget; steps and live lists emptied or
// pointed at nothing. Some edits keep the plan valid (renamed model, swapped
// settings), so exit 0 is reached too. Depends on the fuzz generators.

import { hostileNumber, jsonText, mutateJson } from './json-mutate';
import type { Rng } from './random';

/** One generated plan file: its text and how it was made. */
export interface PlanCase {
  readonly kind: 'kept' | 'meaning' | 'fields' | 'text';
  readonly label: string;
  readonly text: string;
}

type Json = Record<string, unknown>;
interface Buffer extends Json {
  offset: number;
  size: number;
  start: number;
  end: number;
}

const buffersOf = (doc: Json): Buffer[] => ((doc.plan as Json).buffers ?? []) as Buffer[];

/** Edits that keep the plan true: what a person does to a file before diffing it. */
const KEEPING: Readonly<Record<string, (rng: Rng, doc: Json) => void>> = {
  'model renamed': (rng, doc) => (doc.model = rng.pick(['other.onnx', 'π.onnx', 'a\u001b[2Jb', ''])),
  'dims changed': (rng, doc) => ((doc.settings as Json).dims = { batch: rng.int(0, 64) }),
  'strategy renamed': (rng, doc) => ((doc.settings as Json).strategy = rng.pick(['best', 'greedy-by-size', 'unknown-strategy'])),
  'diagnostics emptied': (_rng, doc) => ((doc.plan as Json).diagnostics = []),
};

/** Edits of the plan's meaning: each makes a plan that a reader must refuse (or, by chance, one that still holds). */
const MEANING: Readonly<Record<string, (rng: Rng, doc: Json) => void>> = {
  'buffers overlapped': (rng, doc) => {
    const bs = buffersOf(doc);
    const a = rng.pick(bs);
    const b = bs.find((x) => x !== a && x.start < a.end && a.start < x.end && x.size > 0);
    if (a && b) a.offset = b.offset;
  },
  'offsets swapped': (rng, doc) => {
    const bs = buffersOf(doc);
    const [a, b] = [rng.pick(bs), rng.pick(bs)];
    if (a && b) [a.offset, b.offset] = [b.offset, a.offset];
  },
  'size changed': (rng, doc) => {
    const b = rng.pick(buffersOf(doc));
    if (b) b.size = rng.chance(0.5) ? rng.pick([0, 1, b.size * 2, b.size + 1]) : (hostileNumber(rng, b.size) as number);
  },
  'offset changed': (rng, doc) => {
    const b = rng.pick(buffersOf(doc));
    if (b) b.offset = rng.chance(0.5) ? rng.pick([0, 1, b.offset + 1, b.offset + 4096]) : (hostileNumber(rng, b.offset) as number);
  },
  'lifetime reversed': (rng, doc) => {
    const b = rng.pick(buffersOf(doc));
    if (b) [b.start, b.end] = rng.chance(0.5) ? [b.end, b.start] : [b.start, rng.pick([b.start, 1e9, -1])];
  },
  'alias added': (rng, doc) => {
    const bs = buffersOf(doc);
    const b = rng.pick(bs);
    if (!b) return;
    const parent = rng.pick([b.id as number, rng.int(0, bs.length - 1), bs.length, -1, 2 ** 53]);
    b.alias = { parent, offset: rng.pick([0, 1, 64, -1, 2 ** 60]) };
    if (rng.chance(0.3) && bs[parent as number]) bs[parent as number]!.alias = { parent: b.id, offset: 0 };
  },
  'peak lowered': (rng, doc) => {
    const plan = doc.plan as Json;
    plan.peak = rng.pick([0, 1, -5, Math.floor((plan.peak as number) / 2)]);
    if (rng.chance(0.5)) for (const r of plan.regions as Json[]) r.peak = plan.peak;
  },
  'lower bound raised': (_rng, doc) => ((doc.plan as Json).lowerBound = ((doc.plan as Json).peak as number) + 1),
  'steps nulled': (rng, doc) => ((doc.plan as Json).steps = rng.pick<unknown[]>([[null], [], [1, 'x'], [{ node: 1 }]])),
  'live list dangling': (rng, doc) => ((doc.plan as Json).liveAtPeak = [rng.pick<unknown>([999999, -1, 'a', null, { id: 1e9 }])]),
  'region renamed': (rng, doc) => {
    const b = rng.pick(buffersOf(doc));
    if (b) b.region = rng.pick(['nowhere', '__proto__', '']);
  },
  'buffers emptied': (_rng, doc) => ((doc.plan as Json).buffers = []),
  'buffer duplicated': (rng, doc) => {
    const bs = buffersOf(doc);
    const b = rng.pick(bs);
    if (b) bs.push({ ...b, id: bs.length });
  },
};

/** Damage to the text itself. */
function damagedText(rng: Rng, text: string): string {
  return rng.pick([
    () => text.slice(0, rng.int(0, text.length)),
    () => `\uFEFF${text}`,
    () => text.replace('"version":1', rng.pick(['"version":2', '"version":"1"', '"version":1.5'])),
    () => text.replace('"format":"heapscope-plan"', '"format":"heapscope-plan\\u0000"'),
    () => `${text}${'x'.repeat(rng.int(1, 10))}`,
    () => text.replace(/"steps":\[/, `"steps":[${'['.repeat(100_000)}${']'.repeat(100_000)},`),
  ])();
}

/** A plan file made from `base` (the text of a saved plan). */
export function mutatePlan(rng: Rng, base: string): PlanCase {
  const doc = JSON.parse(base) as Json;
  const r = rng.next();
  if (r < 0.2) {
    const name = rng.pick(Object.keys(KEEPING));
    KEEPING[name]!(rng, doc);
    return { kind: 'kept', label: name, text: jsonText(doc) };
  }
  if (r < 0.6) {
    const names = Array.from({ length: rng.int(1, 2) }, () => rng.pick(Object.keys(MEANING)));
    for (const name of names) MEANING[name]!(rng, doc);
    return { kind: 'meaning', label: names.join('+'), text: jsonText(doc) };
  }
  if (r < 0.92) {
    const names = mutateJson(rng, rng.chance(0.6) ? (doc.plan as Json) : doc);
    return { kind: 'fields', label: names.join('+'), text: jsonText(doc) };
  }
  return { kind: 'text', label: 'text damaged', text: damagedText(rng, base) };
}

/** A --budget value: ordinary sizes around the plans' peaks, and malformed ones. */
export function randomBudget(rng: Rng): string {
  if (rng.chance(0.9)) return rng.pick(['1', '4KiB', '16KiB', '64KiB', '1MiB', '1.5MB', '4MiB', `${rng.int(0, 1 << 20)}`]);
  return rng.pick(['-1', '0', '1e999', 'abc', '0x10', '1.5', '99999999999999999999', '4 MiB', '4mib', '', '\u001b[2J']);
}
