// Where the arrow keys, Home and End take the keyboard in a list of items (the
// rows of the tensor table, the items of a menu): one pure function, so each
// view only wires it to its keydown.

/** How a list answers the keys: a menu wraps from the last item to the first, a table stops at its ends. */
export interface ListKeyOptions {
  readonly wrap: boolean;
}

/**
 * The index `key` moves to from `current` in a list of `count` items, or
 * undefined when the key is not one the list takes (or the list is empty).
 * With nothing current (-1), ↓ goes to the first item and ↑ to the last.
 */
export function listKeyTarget(key: string, current: number, count: number, { wrap }: ListKeyOptions): number | undefined {
  if (count <= 0) return undefined;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key !== 'ArrowDown' && key !== 'ArrowUp') return undefined;
  if (current < 0 || current >= count) return key === 'ArrowDown' ? 0 : count - 1;
  const next = current + (key === 'ArrowDown' ? 1 : -1);
  if (wrap) return (next + count) % count;
  return Math.min(count - 1, Math.max(0, next));
}
