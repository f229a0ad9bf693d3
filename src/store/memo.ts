// Memoization of derived data: a selector returns the same object while its
// inputs are the same, as React's external-store subscriptions require.

/** Wraps `fn` so that calling it with the same arguments (by identity) returns the last result. */
export function memoLast<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let lastArgs: A | undefined;
  let lastResult: R | undefined;
  return (...args: A): R => {
    if (lastArgs !== undefined && lastArgs.length === args.length && lastArgs.every((a, i) => Object.is(a, args[i]))) {
      return lastResult as R;
    }
    lastResult = fn(...args);
    lastArgs = args;
    return lastResult;
  };
}
