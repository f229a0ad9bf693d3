// Test utility: copies parts of a decoded model (IR initializers, node
// attributes) or of an inferred graph into the project's ONNX writer, so a
// rewritten model keeps the original's constants and attributes.

import type { InferredNode } from '../../../model/inferred';
import type { IrAttribute, IrNode, IrTensor } from '../../../model/ir';
import { attr, tensor, type AttributeValue, type GraphBuilder, type TensorData } from '../../../model/testing/onnx-writer';

/** The data of an IR tensor as the writer takes it: raw bytes, the typed values, or zeros when it has neither. */
export function tensorData(t: IrTensor): TensorData | undefined {
  if (t.raw !== undefined) return t.raw;
  if (t.strings !== undefined) return t.strings;
  return t.values;
}

/** Adds an IR initializer to the writer's graph. */
export function copyInitializer(g: GraphBuilder, t: IrTensor): void {
  g.initializer(t.name, t.dtype, t.dims, tensorData(t));
}

/** An IR attribute as a writer attribute; undefined for kinds the writer test nets never need (graphs, opaque ones). */
export function irAttribute(a: IrAttribute): AttributeValue | undefined {
  switch (a.kind) {
    case 'float':
      return attr.float(a.value);
    case 'int':
      return attr.int(a.value);
    case 'string':
      return attr.string(a.value);
    case 'floats':
      return attr.floats(a.value);
    case 'ints':
      return attr.ints(a.value);
    case 'strings':
      return attr.strings(a.value);
    case 'tensor':
      return attr.tensor(tensor(a.value.dtype, a.value.dims, tensorData(a.value)));
    case 'tensors':
      return attr.tensors(a.value.map((t) => tensor(t.dtype, t.dims, tensorData(t))));
    default:
      return undefined;
  }
}

/** The attributes of a node: from its IR node when there is one, else the inferred node's numbers, lists and strings. */
export function nodeAttributes(node: InferredNode, ir: IrNode | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  if (ir !== undefined) {
    for (const [key, a] of Object.entries(ir.attributes)) {
      const value = irAttribute(a);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  for (const [key, value] of Object.entries(node.attributes ?? {})) {
    out[key] = Array.isArray(value) ? attr.ints(value as readonly number[]) : (value as number | string);
  }
  return out;
}
