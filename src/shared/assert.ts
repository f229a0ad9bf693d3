// Invariant checks: a broken invariant inside the code fails loudly. No dependencies.

/** Thrown when code breaks its own invariant (a bug, never bad user input). */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

/** Fails loudly when `condition` is false. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
