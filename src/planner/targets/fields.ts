// Field readers for validating a target profile document: every failure is an
// InputError('bad-target') naming the field path and the offending value.
// Depends only on src/shared.

import { InputError } from '../../shared/errors';
import { previewJson } from '../../shared/json-preview';
import { MAX_BYTE_SIZE } from '../../shared/byte-size';
import { MAX_EXACT_POWER } from '../../shared/format';

/** Shows a JSON value in an error sentence, shortened. */
export function showValue(value: unknown): string {
  return value === undefined ? 'nothing' : previewJson(value, 60);
}

/** Throws the error sentence `<path> <rule>, got <value>`, the error naming `path` as its field. */
export function fail(path: string, rule: string, value: unknown): never {
  throw new InputError('bad-target', `${path} ${rule}, got ${showValue(value)}`, path);
}

/** The path of a member of the object at `path` ('' is the document itself). */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Options of a number field. */
export interface NumberRule {
  readonly min?: number;
  readonly integer?: boolean;
  readonly powerOfTwo?: boolean;
}

/** A JSON object being validated: reads its fields and refuses unknown ones. */
export class Fields {
  private constructor(
    readonly path: string,
    private readonly obj: Readonly<Record<string, unknown>>,
  ) {}

  /** Wraps `value`, which must be a plain object; `known` lists the fields allowed. */
  static of(value: unknown, path: string, known: readonly string[]): Fields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      fail(path === '' ? 'the target profile' : path, 'must be an object', value);
    }
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!known.includes(key)) {
        throw new InputError('bad-target', `${childPath(path, key)} is not a known field (expected one of ${known.join(', ')})`);
      }
    }
    return new Fields(path, obj);
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined;
  }

  raw(key: string): unknown {
    return this.obj[key];
  }

  at(key: string): string {
    return childPath(this.path, key);
  }

  string(key: string, fallback?: string): string {
    const value = this.obj[key];
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== 'string' || value.trim() === '') fail(this.at(key), 'must be a non-empty string', value);
    return value;
  }

  optionalString(key: string): string | undefined {
    return this.has(key) ? this.string(key) : undefined;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') fail(this.at(key), 'must be true or false', value);
    return value;
  }

  number(key: string, rule: NumberRule, fallback?: number): number {
    const value = this.obj[key];
    if (value === undefined && fallback !== undefined) return fallback;
    return checkNumber(value, this.at(key), rule);
  }

  optionalNumber(key: string, rule: NumberRule): number | undefined {
    return this.has(key) ? this.number(key, rule) : undefined;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      fail(this.at(key), `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`, value);
    }
    return value as T;
  }

  /** An array field; `fallback` when absent. */
  array(key: string, fallback?: readonly unknown[]): readonly unknown[] {
    const value = this.obj[key];
    if (value === undefined && fallback !== undefined) return fallback;
    if (!Array.isArray(value)) fail(this.at(key), 'must be an array', value);
    return value;
  }

  /** A string-keyed object field whose values are read by `read`. */
  record<T>(key: string, read: (value: unknown, path: string) => T): Record<string, T> {
    const value = this.obj[key];
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(this.at(key), 'must be an object', value);
    const out: Record<string, T> = {};
    for (const [name, item] of Object.entries(value)) out[name] = read(item, childPath(this.at(key), name));
    return out;
  }
}

/** The largest power of two a power-of-two field (an alignment) takes. */
const MAX_ALIGNMENT = 2 ** 30;

/** Checks a number against a rule; returns it. */
export function checkNumber(value: unknown, path: string, rule: NumberRule): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'must be a number', value);
  // 1e30 is a whole number too, past the exact ones: say how large a number may be, not that it is no integer
  if (rule.integer && !rule.powerOfTwo && Number.isInteger(value) && value > MAX_BYTE_SIZE) fail(path, `must be at most ${MAX_BYTE_SIZE} (${MAX_EXACT_POWER})`, value);
  // a power of two past 2^53 is a whole number too: the cap below names it
  if ((rule.integer || rule.powerOfTwo) && !Number.isSafeInteger(value) && !(rule.powerOfTwo && Number.isInteger(value))) fail(path, 'must be an integer', value);
  if (rule.min !== undefined && value < rule.min) fail(path, `must be at least ${rule.min}`, value);
  if (rule.powerOfTwo && (value < 1 || 2 ** Math.round(Math.log2(value)) !== value)) fail(path, 'must be a power of two', value);
  // 2^40 is a power of two all the same: past the cap, say the cap, not that it is no power of two
  if (rule.powerOfTwo && value > MAX_ALIGNMENT) fail(path, `must be at most ${MAX_ALIGNMENT} (2^30), the largest alignment heapscope takes`, value);
  return value;
}
