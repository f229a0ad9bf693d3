// The console's copy of the link notice: each parameter of a link left out,
// one warning a line, in the words the notice uses.

/** Warns once per entry ("dim.nosuch=3: the model has no dim nosuch") that the link's parameter was left out. */
export function warnLeftOut(entries: readonly string[]): void {
  for (const entry of entries) console.warn(`heapscope: ignored URL parameter ${entry}`);
}
