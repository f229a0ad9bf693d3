// Lookups keyed by names from a file (op types, dims, tensors): only a record's
// own keys count, so `constructor` or `__proto__` never reach Object.prototype.
// No dependencies.

/** The value stored under `key` itself, never one inherited from Object.prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A record without a prototype holding `entries`: any name from a file is a plain key in it. */
export function nullRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}
