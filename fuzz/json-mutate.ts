// Structure mutations of a JSON document for the target-profile and plan-file
// campaigns: a field removed, given the wrong type, a huge, negative,
// fractional or non-finite number, nesting thousands deep, a long string,
// control characters, a prototype key (__proto__, constructor), a list made
// wide. The result is text, since some of these (1e999, __proto__ as an own
// key, 100,000 levels) cannot be held by a JSON.stringify-able value. Depends
// only on the fuzz random source.

import type { Rng } from './random';

/** Text spliced into the document as written (nesting too deep to build, numbers JSON.parse reads as Infinity). */
export class RawJson {
  constructor(readonly text: string) {}
}

type Node = Record<string, unknown> | unknown[];

/** Keys that name members of Object.prototype: a reader using plain objects as maps trips on them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** Strings that reach a terminal: escape sequences, a forged line, bidirectional overrides, NUL. */
export const HOSTILE_STRINGS = [
  '\u001b]0;owned\u0007\u001b[2J',
  'a\nheapscope: peak 1.00 KiB',
  '\r\u0000\u0008x',
  'name\u202eevil',
  '=cmd|\' /C calc\'!A0',
  '',
  ' ',
  'x'.repeat(200),
] as const;

/** A JSON document `depth` levels deep, arrays or objects. */
export function deepJson(depth: number, objects: boolean): RawJson {
  return new RawJson(objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`);
}

/** Characters of raw pieces one document holds at most. */
const MAX_RAW_CHARS = 8_000_000;

/** `value` as JSON text, RawJson pieces spliced in as written. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  let rawChars = 0;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    // A raw piece copied many times (a wide list of deep items) is written once in full, then as 0.
    rawChars += v.text.length;
    if (rawChars > MAX_RAW_CHARS) return 0;
    raws.push(v.text);
    return `@@raw${raws.length - 1}@@`;
  });
  return text.replace(/"@@raw(\d+)@@"/g, (_m, i: string) => raws[Number(i)]!);
}

/** Every container of the document with one of its keys, for picking a place to mutate. */
function places(root: Node): [Node, string | number][] {
  const out: [Node, string | number][] = [];
  const visit = (node: Node, depth: number): void => {
    if (depth > 40) return;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const k of keys) {
      out.push([node, k]);
      const child = (node as Record<string | number, unknown>)[k];
      if (typeof child === 'object' && child !== null && !(child instanceof RawJson)) visit(child as Node, depth + 1);
    }
  };
  visit(root, 0);
  return out;
}

/** A number no reader should take as a size, a count or an index. */
export function hostileNumber(rng: Rng, near: number): number | RawJson {
  return rng.pick<number | RawJson>([
    -1, -near, -(2 ** 31), near + 0.5, 0.1, 1e-300, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1e300, Number.MAX_VALUE,
    new RawJson('1e999'), new RawJson('-1e999'), new RawJson('-0'), 0, 2 ** 31, 2 ** 32 - 1, Math.floor(near * 1000),
  ]);
}

/** A value of another type than the one it replaces. */
function otherType(rng: Rng, old: unknown): unknown {
  const choices: unknown[] = [null, true, false, 0, 1, '1', 'text', [], {}, [old], { value: old }, typeof old === 'object' ? '[object]' : String(old)];
  return rng.pick(choices.filter((c) => typeof c !== typeof old || (Array.isArray(c) !== Array.isArray(old))));
}

/** Sets `node[key]` as an own property, even for '__proto__'. */
function setOwn(node: Node, key: string | number, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The mutations, by name. Each changes the document in place at a random place. */
const MUTATIONS: Readonly<Record<string, (rng: Rng, node: Node, key: string | number) => void>> = {
  remove: (_rng, node, key) => (Array.isArray(node) ? node.splice(key as number, 1) : delete node[key as string]),
  'wrong-type': (rng, node, key) => setOwn(node, key, otherType(rng, (node as Record<string, unknown>)[key])),
  number: (rng, node, key) => {
    const old = (node as Record<string, unknown>)[key];
    setOwn(node, key, hostileNumber(rng, typeof old === 'number' ? old : 1));
  },
  null: (_rng, node, key) => setOwn(node, key, null),
  deep: (rng, node, key) => setOwn(node, key, deepJson(rng.pick([64, 500, 5_000, 100_000]), rng.chance(0.5))),
  'long-string': (rng, node, key) => setOwn(node, key, 'n'.repeat(rng.pick([1_000, 100_000, 1_000_000]))),
  control: (rng, node, key) => {
    const old = (node as Record<string, unknown>)[key];
    setOwn(node, key, `${typeof old === 'string' ? old : 'x'}${rng.pick(HOSTILE_STRINGS)}`);
  },
  'prototype-key': (rng, node) => {
    if (Array.isArray(node)) return;
    setOwn(node, rng.pick(PROTOTYPE_KEYS), rng.pick<unknown>([{}, null, 1, 'x', [], { polluted: true }]));
  },
  'rename-key': (rng, node, key) => {
    if (Array.isArray(node)) return;
    const value = node[key as string];
    delete node[key as string];
    setOwn(node, rng.chance(0.5) ? rng.pick(PROTOTYPE_KEYS) : `${String(key)}${rng.pick(HOSTILE_STRINGS)}`, value);
  },
  wide: (rng, node, key) => {
    const old = (node as Record<string, unknown>)[key];
    const item = Array.isArray(old) ? old[0] ?? 1 : old;
    // Only small items are copied ten thousand times: the document stays within what a profile or plan file may be.
    const small = item === null || typeof item === 'number' || typeof item === 'boolean' || (typeof item === 'string' && item.length <= 200);
    setOwn(node, key, Array.from({ length: small ? rng.pick([100, 10_000]) : rng.pick([2, 10]) }, () => item));
  },
};

/** The names of the structure mutations. */
export const JSON_MUTATIONS = Object.keys(MUTATIONS);

/** Applies 1–3 random mutations to `doc` (a plain JSON value, changed in place); returns their names. */
export function mutateJson(rng: Rng, doc: Node, count = rng.int(1, 3)): string[] {
  const done: string[] = [];
  for (let i = 0; i < count; i++) {
    const all = places(doc);
    if (all.length === 0) break;
    const [node, key] = rng.pick(all);
    const name = rng.pick(JSON_MUTATIONS);
    MUTATIONS[name]!(rng, node, key);
    done.push(name);
  }
  return done;
}
