// Target profiles for `plan <model> --target FILE`, reproducible from a seed:
// a preset (as `targets --json` prints it) with its fields removed, retyped,
// made huge, negative, fractional, deep, long, full of control characters or
// prototype keys (json-mutate.ts), and scratch rules with formulas random by
// the grammar of scratch/formula.ts or hostile (deep parentheses, long unary
// chains and sums, max of a hundred thousand arguments, dims past the rank,
// division by zero); now and then the text itself damaged. Depends on the
// presets and the fuzz generators.

import { PRESETS } from '../src/planner/targets/presets';
import { HOSTILE_STRINGS, hostileNumber, jsonText, mutateJson, PROTOTYPE_KEYS, RawJson } from './json-mutate';
import type { Rng } from './random';

/** One generated profile: its text and how it was made. */
export interface TargetCase {
  readonly kind: 'preset' | 'fields' | 'scratch' | 'text';
  readonly label: string;
  readonly text: string;
}

/** Op types of the campaign's model (fuzz/cli-fixtures.ts), and some it does not have. */
const OP_TYPES = ['Conv', 'MaxPool', 'AveragePool', 'Gemm', 'MatMul', 'Softmax', 'Relu', 'Add', '*', 'NoSuchOp', '__proto__', 'constructor'];

const FACTS = ['bytes', 'numel', 'elem', 'rank'];

/** A formula by the grammar, of bounded depth; now and then with indices past the rank or a zero divisor. */
export function randomFormula(rng: Rng, depth = 0): string {
  const tensor = () => `${rng.pick(['in', 'out'])}${rng.chance(0.9) ? rng.int(0, 2) : rng.pick([9, 99999, 2 ** 40])}`;
  const r = rng.next();
  if (depth > 4 || r < 0.3) {
    const atom = rng.next();
    if (atom < 0.3) return rng.chance(0.9) ? String(rng.pick([0, 1, 2, 4, 16, 1024, 2 ** 31, 2 ** 53])) : rng.pick(['1e300', '0.5', '9'.repeat(30)]);
    if (atom < 0.7) return `${tensor()}[${rng.chance(0.8) ? rng.int(-4, 4) : rng.pick([-99, 99, 2 ** 31])}]`;
    return `${rng.pick(FACTS)}(${tensor()})`;
  }
  if (r < 0.55) return `${randomFormula(rng, depth + 1)} ${rng.pick(['+', '-', '*', '/'])} ${randomFormula(rng, depth + 1)}`;
  if (r < 0.7) return `${rng.pick(['max', 'min'])}(${Array.from({ length: rng.int(1, 4) }, () => randomFormula(rng, depth + 1)).join(', ')})`;
  if (r < 0.8) return `-${randomFormula(rng, depth + 1)}`;
  if (r < 0.9) return `(${randomFormula(rng, depth + 1)})`;
  return `${randomFormula(rng, depth + 1)} / 0`;
}

/** Formulas that would exhaust the stack, the tokenizer or the evaluator of a naive parser, or are not formulas. */
export function hostileFormula(rng: Rng): string {
  const n = rng.pick([63, 64, 65, 1_000, 50_000]);
  const many = (sep: string, item: string) => Array.from({ length: rng.pick([999, 1_000, 1_001, 100_000]) }, () => item).join(sep);
  return rng.pick([
    () => `${'('.repeat(n)}1${')'.repeat(n)}`,
    () => `${'-'.repeat(n)}1`,
    () => `${'max('.repeat(n)}1${')'.repeat(n)}`,
    () => many('+', '1'),
    () => many('*', 'in0[1]'),
    () => `max(${many(',', '1')})`,
    () => 'in0[1] ** 2',
    () => '9'.repeat(400),
    () => '1e999',
    () => 'in0[',
    () => '',
    () => `in0[1]${rng.pick(HOSTILE_STRINGS)}`,
    () => 'constructor(in0)',
    () => '__proto__[0]',
    () => 'bytes(in0) / (in0[1] - in0[1])',
  ])();
}

/** A scratch rule with a formula or a byte count, and flags now and then of the wrong type. */
function randomRule(rng: Rng): Record<string, unknown> {
  const rule: Record<string, unknown> = { opType: rng.pick(OP_TYPES), name: rng.chance(0.9) ? `s${rng.int(0, 3)}` : rng.pick(HOSTILE_STRINGS) };
  if (rng.chance(0.75)) rule.formula = rng.chance(0.75) ? randomFormula(rng) : hostileFormula(rng);
  else rule.bytes = rng.chance(0.6) ? rng.int(0, 1 << 16) : hostileNumber(rng, 1024);
  for (const flag of ['variable', 'latencyCritical', 'overlay']) if (rng.chance(0.3)) rule[flag] = rng.chance(0.8) ? rng.chance(0.5) : rng.pick<unknown>(['yes', 1, null]);
  return rule;
}

/** A preset as plain JSON, to edit. */
function presetDoc(rng: Rng): { name: string; doc: Record<string, unknown> } {
  const [name, profile] = rng.pick([...PRESETS.entries()]);
  return { name, doc: JSON.parse(JSON.stringify(profile)) as Record<string, unknown> };
}

/** Damage to the text: cut short, a byte order mark, trailing junk, not JSON at all, a prototype key as the whole document. */
function damagedText(rng: Rng, text: string): string {
  return rng.pick([
    () => text.slice(0, rng.int(0, text.length)),
    () => `\uFEFF${text}`,
    () => `${text},`,
    () => `${text}\u0000`,
    () => text.replace(/"/g, "'"),
    () => `{"__proto__": ${text}}`,
    () => rng.pick(['', 'null', '[]', '1', '"mcu"', '{}', '\u001b[2J']),
  ])();
}

/** A profile made from the campaign case's random source. */
export function randomTarget(rng: Rng): TargetCase {
  const { name, doc } = presetDoc(rng);
  const r = rng.next();
  if (r < 0.08) return { kind: 'preset', label: `preset ${name}`, text: jsonText(doc) };
  if (r < 0.45) {
    const scratch = (doc.scratch ?? {}) as Record<string, unknown>;
    const rules = Array.from({ length: rng.chance(0.9) ? rng.int(1, 6) : rng.pick([200, 2_000]) }, () => randomRule(rng));
    doc.scratch = { ...scratch, rules };
    const extra = rng.chance(0.3) ? mutateJson(rng, doc, 1) : [];
    return { kind: 'scratch', label: `${name} with ${rules.length} scratch rules${extra.length ? `, ${extra.join('+')}` : ''}`, text: jsonText(doc) };
  }
  if (r < 0.9) {
    const done = mutateJson(rng, doc);
    if (rng.chance(0.15)) Object.defineProperty(doc, rng.pick(PROTOTYPE_KEYS), { value: { regions: [] }, enumerable: true });
    if (rng.chance(0.1)) doc.regions = new RawJson(`[${Array.from({ length: rng.pick([100, 5_000]) }, (_, i) => `{"name":"r${i}","alignment":16,"fast":true}`).join(',')}]`);
    return { kind: 'fields', label: `${name}: ${done.join('+')}`, text: jsonText(doc) };
  }
  return { kind: 'text', label: `${name}, text damaged`, text: damagedText(rng, jsonText(doc)) };
}
