// Windows: the parts of a tensor cut along one axis (Split outputs, Concat
// inputs) as contiguous byte ranges of the whole, when they are. Pure
// functions over shapes; no dependencies.

/** Byte offsets of the parts inside the whole, or why the parts are not contiguous windows. */
export type WindowLayout = { readonly offsets: readonly number[] } | { readonly reason: string };

/** A tensor as the window rules see it. */
export interface WindowTensor {
  readonly name: string;
  readonly shape: readonly number[] | undefined;
  readonly bytes: number | undefined;
}

/**
 * Lays `parts` (in order) along one axis of `whole`. They are contiguous byte
 * windows only when every dim before that axis is 1; each window must also
 * start at a multiple of `alignment`.
 */
export function windowLayout(whole: WindowTensor, parts: readonly WindowTensor[], alignment: number): WindowLayout {
  const unknown = [whole, ...parts].find((t) => t.shape === undefined || t.bytes === undefined);
  if (unknown !== undefined) return { reason: `the shape or size of "${unknown.name}" is unknown` };
  const shape = whole.shape!;
  const axis = tilingAxis(shape, parts.map((p) => p.shape!));
  if (axis === undefined) return { reason: `the parts do not tile "${whole.name}" along one axis` };
  const outer = shape.slice(0, axis).reduce((a, b) => a * b, 1);
  if (outer !== 1) {
    return { reason: `the axis is ${axis} and the dims before it (${shape.slice(0, axis).join('×')}) are not all 1, so the parts are not contiguous` };
  }
  const offsets: number[] = [];
  let at = 0;
  for (const part of parts) {
    if (at % alignment !== 0) return { reason: `"${part.name}" would start at byte ${at}, not a multiple of the alignment ${alignment}` };
    offsets.push(at);
    at += part.bytes!;
  }
  if (at !== whole.bytes) return { reason: `the parts hold ${at} bytes, "${whole.name}" ${whole.bytes}` };
  return { offsets };
}

/** The first axis along which `parts` tile `whole` exactly (equal elsewhere, summing there). */
function tilingAxis(whole: readonly number[], parts: readonly (readonly number[])[]): number | undefined {
  if (parts.some((p) => p.length !== whole.length)) return undefined;
  if (whole.length === 0) return parts.length === 1 ? 0 : undefined;
  for (let axis = 0; axis < whole.length; axis++) {
    const others = parts.every((p) => p.every((d, i) => i === axis || d === whole[i]));
    const sum = parts.reduce((total, p) => total + p[axis]!, 0);
    if (others && sum === whole[axis]) return axis;
  }
  return undefined;
}
