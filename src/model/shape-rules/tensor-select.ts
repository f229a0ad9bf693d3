// Exact results of data-dependent selection ops on small constant inputs:
// Unique (over elements or slices along an axis) and NonMaxSuppression (the
// greedy per-class selection of the ONNX spec). Used by the data-dependent
// shape rules when every input is a known constant. Pure; no DOM.

/** Unique over slices: first-occurrence positions in output order, inverse indices and counts. */
export interface UniqueSlices {
  readonly first: readonly number[]; // position along the axis of each output slice's first occurrence
  readonly inverse: readonly number[]; // for every input slice, the index of its output slice
  readonly counts: readonly number[]; // occurrences of each output slice
}

/** Lexicographic comparison of two slices. */
function compareSlices(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Finds the distinct slices of `slices` (one number tuple per position along
 * the axis), sorted lexicographically or in order of first occurrence.
 */
export function uniqueSlices(slices: readonly (readonly number[])[], sorted: boolean): UniqueSlices {
  const firstByKey = new Map<string, number>();
  const countByKey = new Map<string, number>();
  const keys = slices.map((slice) => slice.join(','));
  keys.forEach((key, i) => {
    if (!firstByKey.has(key)) firstByKey.set(key, i);
    countByKey.set(key, (countByKey.get(key) ?? 0) + 1);
  });
  const first = [...firstByKey.values()];
  if (sorted) first.sort((a, b) => compareSlices(slices[a] ?? [], slices[b] ?? []));
  const outputIndex = new Map(first.map((position, i) => [keys[position] ?? '', i]));
  return {
    first,
    inverse: keys.map((key) => outputIndex.get(key) ?? 0),
    counts: first.map((position) => countByKey.get(keys[position] ?? '') ?? 0),
  };
}

/** Settings of NonMaxSuppression. */
export interface NmsSettings {
  readonly batches: number;
  readonly classes: number;
  readonly boxes: number;
  readonly maxPerClass: number;
  readonly iouThreshold: number;
  readonly scoreThreshold: number | undefined; // undefined: every box is a candidate
  readonly centerPointBox: boolean; // boxes as [x_center, y_center, width, height] instead of corners
}

/** A box as its extent on each axis. */
interface Extent {
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
  readonly yMax: number;
}

function extentOf(box: readonly number[], centerPoint: boolean): Extent {
  const [a = 0, b = 0, c = 0, d = 0] = box;
  if (centerPoint) return { xMin: a - c / 2, xMax: a + c / 2, yMin: b - d / 2, yMax: b + d / 2 };
  return { xMin: Math.min(b, d), xMax: Math.max(b, d), yMin: Math.min(a, c), yMax: Math.max(a, c) };
}

/** True when the two boxes overlap by more than the IoU threshold. */
function overlaps(p: Extent, q: Extent, threshold: number): boolean {
  const width = Math.min(p.xMax, q.xMax) - Math.max(p.xMin, q.xMin);
  const height = Math.min(p.yMax, q.yMax) - Math.max(p.yMin, q.yMin);
  if (width <= 0 || height <= 0) return false;
  const intersection = width * height;
  const areaP = (p.xMax - p.xMin) * (p.yMax - p.yMin);
  const areaQ = (q.xMax - q.xMin) * (q.yMax - q.yMin);
  const union = areaP + areaQ - intersection;
  if (areaP <= 0 || areaQ <= 0 || union <= 0) return false;
  return intersection / union > threshold;
}

/**
 * Selected [batch, class, box] triples, flattened, in the order of the spec:
 * by batch, then class, then descending score (ties: lower box index first).
 */
export function selectBoxes(boxes: readonly number[], scores: readonly number[], s: NmsSettings): number[] {
  const selected: number[] = [];
  for (let batch = 0; batch < s.batches; batch++) {
    const extents = Array.from({ length: s.boxes }, (_, i) => {
      const at = (batch * s.boxes + i) * 4;
      return extentOf(boxes.slice(at, at + 4), s.centerPointBox);
    });
    for (let cls = 0; cls < s.classes; cls++) {
      const base = (batch * s.classes + cls) * s.boxes;
      const candidates = Array.from({ length: s.boxes }, (_, i) => i)
        .filter((i) => s.scoreThreshold === undefined || (scores[base + i] ?? 0) > s.scoreThreshold)
        .sort((i, j) => (scores[base + j] ?? 0) - (scores[base + i] ?? 0) || i - j);
      const kept: number[] = [];
      for (const i of candidates) {
        if (kept.length >= s.maxPerClass) break;
        const box = extents[i] as Extent;
        if (kept.some((k) => overlaps(box, extents[k] as Extent, s.iouThreshold))) continue;
        kept.push(i);
        selected.push(batch, cls, i);
      }
    }
  }
  return selected;
}
