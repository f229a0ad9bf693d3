// Whether a tensor is computed, at any depth, from a given value of its
// graph: a walk up through the producers' inputs. No dependencies.

/** Whether `tensor` is `source` or computed from it; `inputsOf` gives the inputs of a tensor's producer (undefined: none, a graph input or weight). */
export function computedFrom(tensor: string, source: string, inputsOf: (tensor: string) => readonly string[] | undefined): boolean {
  const seen = new Set<string>();
  const stack = [tensor];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === source) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const input of inputsOf(at) ?? []) if (input !== '') stack.push(input);
  }
  return false;
}
