// A TensorFlow Lite tensor's quantization, found by the value name the views
// know it by and said in words for the tensor table, the heap's tooltip, the
// buffer details and the graph's edges. Pure; no DOM.
//
// Names: the main subgraph's tensors go by their value name; a tensor of
// subgraph k ≥ 1 goes by `subgraph<k>/<value>` (as the plan names its buffers).
// A main-subgraph name wins where both could match.

import type { InferredModel } from '../model/inferred';
import type { IrQuantization, IrTflite } from '../model/ir-tflite';

/** How many scales or zero points of a per-axis quantization are listed. */
export const FIRST_VALUES = 4;

const byName = new WeakMap<IrTflite, ReadonlyMap<string, IrQuantization>>();

/** Quantization of the tensors of `tflite`, by value name (see the module header). */
function quantizationNames(tflite: IrTflite): ReadonlyMap<string, IrQuantization> {
  let names = byName.get(tflite);
  if (names !== undefined) return names;
  const found = new Map<string, IrQuantization>();
  tflite.subgraphs.forEach((sg, s) => {
    for (const t of sg.tensors) {
      const name = s === 0 ? t.value : `subgraph${s}/${t.value}`;
      if (t.quantization !== undefined && !found.has(name)) found.set(name, t.quantization);
    }
  });
  names = found;
  byName.set(tflite, names);
  return names;
}

/** The quantization of tensor `name` of a TFLite model; undefined for an ONNX model or a tensor without one. */
export function quantizationOf(model: Pick<InferredModel, 'tflite'> | undefined, name: string): IrQuantization | undefined {
  const tflite = model?.tflite;
  return tflite === undefined ? undefined : quantizationNames(tflite).get(name);
}

/** True when some tensor of the model carries quantization. */
export function hasQuantization(model: Pick<InferredModel, 'tflite'> | undefined): boolean {
  const tflite = model?.tflite;
  return tflite !== undefined && quantizationNames(tflite).size > 0;
}

/** A scale with four significant digits: 0.00392156 -> "0.003922", 2.5e-7 -> "2.5e-7". */
export function scaleText(scale: number): string {
  return String(Number(scale.toPrecision(4)));
}

/** True when the quantization has one scale per slice along its axis. */
function perAxis(q: IrQuantization): boolean {
  return q.scale.length > 1;
}

/** The first values of a list, "…" after them when there are more. */
function firstValues(values: readonly number[], text: (v: number) => string): string {
  const shown = values.slice(0, FIRST_VALUES).map(text);
  return values.length > FIRST_VALUES ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** The zero points in words: one value, the same for all, or the first few. */
function zeroPointsText(q: IrQuantization): string {
  const points = q.zeroPoint;
  if (points.length === 0) return 'zero point not given';
  if (points.length === 1) return `zero point ${points[0]}`;
  if (points.every((z) => z === points[0])) return `zero point ${points[0]} for all ${points.length}`;
  return `zero points ${firstValues(points, String)}`;
}

/**
 * The whole quantization in words (real = scale × (q − zero point)):
 * "scale 0.02353, zero point -128", or per axis
 * "per axis 3: 8 scales (0.0123, 0.0456, 0.0789, 0.01, …), zero point 0 for all 8".
 */
export function quantizationText(q: IrQuantization): string {
  if (!perAxis(q)) return `scale ${q.scale.length === 0 ? 'not given' : scaleText(q.scale[0]!)}, ${zeroPointsText(q)}`;
  return `per axis ${q.axis}: ${q.scale.length} scales (${firstValues(q.scale, scaleText)}), ${zeroPointsText(q)}`;
}

/** A table cell's worth: "0.02353 · zp -128", or "8 scales, axis 3". */
export function quantizationCell(q: IrQuantization): string {
  if (perAxis(q)) return `${q.scale.length} scales, axis ${q.axis}`;
  const zero = q.zeroPoint[0] ?? 0;
  return `${q.scale.length === 0 ? '?' : scaleText(q.scale[0]!)} · zp ${zero}`;
}

/** Lines "name: quantization" for the quantized tensors among `names`; undefined when none is. */
export function quantizationHint(model: Pick<InferredModel, 'tflite'> | undefined, names: readonly string[]): string | undefined {
  const lines = names.flatMap((name) => {
    const q = quantizationOf(model, name);
    return q === undefined ? [] : [`${name}: ${quantizationText(q)}`];
  });
  return lines.length === 0 ? undefined : lines.join('\n');
}
