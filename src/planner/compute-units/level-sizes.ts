// Tensor sizes per level (METHODS.md M3, step 2): the same tensor may be
// stored differently by each function that touches it. Depends only on the
// model's IR types and the planner.
//
// - Operator level, inside a function on unit U, for a tensor t:
//   1. fake quantization: U honours it (`dtype.fakeQuantization`) and t is
//      read by a QuantizeLinear / DynamicQuantizeLinear / FakeQuantize op
//      (or a TFLite QUANTIZE, when t is float: it also requantizes integers)
//      -> the quantized type (that op's output type when it is an integer
//      type, else U's activation type when integer, else int8);
//   2. QDQ: t is a DequantizeLinear (or TFLite DEQUANTIZE) output and U
//      computes quantized (an integer activation type, or fake quantization)
//      -> the type of its input when that is an integer type: the pair folds
//      and U reads quantized data;
//   3. U's activation type, for floating-point tensors, unless it is 'model';
//   4. the file's type otherwise (indices, shapes, masks keep theirs).
// - Alignment: U's, never below the region's (the region's alignment is a
//   floor every buffer in it keeps). Allocated bytes = tensor bytes rounded up.
// - Function level: a boundary tensor has one view per function touching it,
//   each by the rules above; the producer's view is the tensor's own.
// - Model level: a graph input takes the view of the first function that
//   reads it, a graph output the view of the function producing it.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { alignUp } from '../problem/build-buffers';
import type { ComputeUnit } from '../targets/target';
import { TFLITE_DOMAIN } from '../problem/tflite-ops';
import { bytesOf, computesQuantized, dtypeBits, isFloatDtype, isQuantizedDtype } from './dtypes';
import type { Partition } from './partition';

/** Which level rule set a view's type. */
export type TypeRule = 'file' | 'unit' | 'fake-quantization' | 'qdq';

/** A tensor as one function stores it. */
export interface TensorView {
  readonly unit: string;
  readonly dtype: string; // element type name
  readonly rule: TypeRule;
  readonly bytes: number; // tensor bytes in that type (0 when unknown)
  readonly alignment: number;
  readonly allocated: number; // bytes rounded up to the alignment
}

const FAKE_QUANT = new Set(['QuantizeLinear', 'DynamicQuantizeLinear', 'FakeQuantize']);

/** True for ops that quantize their input (fake quantization or a real QuantizeLinear). */
export function isFakeQuantization(node: InferredNode): boolean {
  return FAKE_QUANT.has(node.opType) && (node.domain === '' || node.domain === 'com.microsoft' || node.opType === 'FakeQuantize');
}

/** True when `node` quantizes `value` for rule 1: a fake-quantization op, or a TFLite QUANTIZE of float data. */
function quantizes(node: InferredNode, value: InferredValue): boolean {
  return isFakeQuantization(node) || (node.domain === TFLITE_DOMAIN && node.opType === 'QUANTIZE' && isFloatDtype(value.dtypeName));
}

function isDequantize(node: InferredNode): boolean {
  if (node.domain === TFLITE_DOMAIN) return node.opType === 'DEQUANTIZE';
  return node.opType === 'DequantizeLinear' && (node.domain === '' || node.domain === 'com.microsoft');
}

/** Reads the level rules over one graph. */
export class LevelSizes {
  private readonly values: ReadonlyMap<string, InferredValue>;

  constructor(
    private readonly graph: InferredGraph,
    private readonly regionAlignment: number,
  ) {
    this.values = new Map(graph.values.map((v) => [v.name, v]));
  }

  /** The element type of `value` on `unit`, and the rule that chose it. */
  typeOf(value: InferredValue, unit: ComputeUnit): { readonly dtype: string; readonly rule: TypeRule } {
    if (unit.dtype.fakeQuantization) {
      const quantizer = value.consumers.map((c) => this.graph.nodes[c]!).find((n) => quantizes(n, value));
      if (quantizer !== undefined) return { dtype: this.quantizedType(quantizer, unit), rule: 'fake-quantization' };
    }
    const producer = value.producer === undefined ? undefined : this.graph.nodes[value.producer]!;
    if (producer !== undefined && isDequantize(producer) && computesQuantized(unit)) {
      const source = this.values.get(producer.inputs[0] ?? '')?.dtypeName;
      if (source !== undefined && isQuantizedDtype(source)) return { dtype: source, rule: 'qdq' };
    }
    const activations = unit.dtype.activations;
    if (activations !== 'model' && isFloatDtype(value.dtypeName) && dtypeBits(activations) !== undefined) {
      return { dtype: activations, rule: 'unit' };
    }
    return { dtype: value.dtypeName, rule: 'file' };
  }

  /** `value` as a function on `unit` stores it. */
  viewOn(value: InferredValue, unit: ComputeUnit): TensorView {
    const { dtype, rule } = this.typeOf(value, unit);
    const bits = dtypeBits(dtype);
    let bytes = value.bytes ?? 0;
    if (dtype !== value.dtypeName && bits !== undefined && value.shape !== undefined && value.bytes !== undefined) {
      bytes = bytesOf(value.shape.reduce((a, b) => a * b, 1), bits);
    }
    const alignment = Math.max(unit.alignment, this.regionAlignment);
    return { unit: unit.name, dtype, rule, bytes, alignment, allocated: alignUp(bytes, alignment) };
  }

  /**
   * The tensor's own view (the model and function levels): its producer's
   * function's, or for a graph input the first function reading it; undefined
   * when no function touches it (weights, constants).
   */
  homeView(value: InferredValue, partition: Partition): TensorView | undefined {
    const fn = this.homeFunction(value, partition);
    return fn === undefined ? undefined : this.viewOn(value, partition.units.find((u) => u.name === partition.functions[fn]!.unit)!);
  }

  /** The function that owns `value`: its producer's, or a graph input's first reader's. */
  homeFunction(value: InferredValue, partition: Partition): number | undefined {
    if (value.producer !== undefined) {
      const fn = partition.functionOf[value.producer]!;
      return fn >= 0 ? fn : undefined;
    }
    if (value.kind !== 'input') return undefined;
    const readers = value.consumers.map((c) => partition.functionOf[c]!).filter((f) => f >= 0);
    return readers.length === 0 ? undefined : Math.min(...readers);
  }

  private quantizedType(quantizer: InferredNode, unit: ComputeUnit): string {
    const out = this.values.get(quantizer.outputs[0] ?? '')?.dtypeName;
    if (out !== undefined && isQuantizedDtype(out)) return out;
    return isQuantizedDtype(unit.dtype.activations) ? unit.dtype.activations : 'int8';
  }
}
