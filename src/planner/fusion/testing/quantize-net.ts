// Test utility: rewrites a float conv net (an inferred graph, with its decoded
// IR for constants and attributes when it came from a file) into a quantized
// ONNX model with the project's writer, then decodes and infers it, so the
// quantized nets go through the model layer's own shape rules.
//
// - 'qdq': ONNX Runtime's QDQ format. Quantizable ops (Conv, MatMul, Add, Mul,
//   Concat, the pools, Sigmoid, LeakyRelu, MaxPool, Resize, Upsample) read
//   DequantizeLinear(int8) and write QuantizeLinear; weights are int8
//   initializers dequantized at load time, biases int32. A Relu or Clip that
//   is the only reader of a quantized op folds into its output's range.
// - 'qlinear': the QOperator format: QLinearConv, QLinearMatMul and
//   com.microsoft's QLinearAdd/Mul/Concat/Sigmoid/LeakyRelu/AveragePool/
//   GlobalAveragePool on uint8; MaxPool, Resize and Upsample run on uint8
//   as they are; Relu and Clip fold as in 'qdq'.
// - 'dynamic': dynamic quantization: every Conv (MatMul) becomes
//   DynamicQuantizeLinear (shared per input) -> ConvInteger (MatMulInteger)
//   -> Cast -> Mul by the product of the scales -> Add of the bias; the rest
//   stays float.
// - Any other op reads float (a DequantizeLinear is added where its input is
//   quantized) and writes float; shape ops (Reshape, Flatten, ...) pass
//   quantized tensors through. Graph outputs keep their names, as float.

import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import { inferShapes } from '../../../model/infer/shapes';
import type { InferredGraph, InferredModel, InferredNode, InferredValue } from '../../../model/inferred';
import type { IrModel, IrNode } from '../../../model/ir';
import { GraphBuilder, type AttributeValue } from '../../../model/testing/onnx-writer';
import { copyInitializer, nodeAttributes } from './ir-to-writer';

/** The quantized forms the utility writes. */
export type QuantizedForm = 'qdq' | 'qlinear' | 'dynamic';

const MS = { domain: 'com.microsoft' };
const SHAPE_OPS = new Set(['Reshape', 'Flatten', 'Squeeze', 'Unsqueeze', 'Transpose', 'Identity', 'Split', 'Slice']);
const DIRECT_8BIT = new Set(['MaxPool', 'Resize', 'Upsample']);
const QLINEAR_MS: Readonly<Record<string, string>> = {
  Add: 'QLinearAdd', Mul: 'QLinearMul', Sigmoid: 'QLinearSigmoid', LeakyRelu: 'QLinearLeakyRelu',
  AveragePool: 'QLinearAveragePool', GlobalAveragePool: 'QLinearGlobalAveragePool', Concat: 'QLinearConcat',
};

/** Rewrites `graph` into `form` and returns the decoded, inferred quantized model. */
export function quantizeNet(graph: InferredGraph, form: QuantizedForm, ir?: IrModel): InferredModel {
  return inferShapes(decodeOnnx(quantizedBytes(graph, form, ir)), {});
}

/** The ONNX bytes of the quantized model; see the module header. */
export function quantizedBytes(graph: InferredGraph, form: QuantizedForm, ir?: IrModel): Uint8Array {
  const q = new Quantizer(graph, form, ir);
  for (const node of graph.nodes) q.rewrite(node);
  q.finish();
  // the source's opset: op versions (Slice's attributes before 10, Upsample's...) stay as they were written
  const opset = ir?.opsets.find((o) => o.domain === '')?.version ?? 13;
  return q.g.toBytes({ opset, opsets: { 'com.microsoft': 1 } });
}

class Quantizer {
  readonly g = new GraphBuilder('quantized');
  private readonly values: ReadonlyMap<string, InferredValue>;
  private readonly irNodes: ReadonlyMap<string, IrNode>;
  private readonly quant = new Map<string, string>(); // tensor -> its quantized form
  private readonly float = new Map<string, string>(); // tensor -> its float form
  private readonly dynamic = new Map<string, readonly [string, string, string]>(); // tensor -> DynamicQuantizeLinear outputs
  private readonly activation: string; // element type of quantized activations
  private readonly made = new Set<string>(); // initializers written for quantization

  constructor(
    private readonly graph: InferredGraph,
    private readonly form: QuantizedForm,
    private readonly ir: IrModel | undefined,
  ) {
    this.values = new Map(graph.values.map((v) => [v.name, v]));
    this.irNodes = new Map((ir?.graph.nodes ?? []).map((n) => [n.name, n]));
    this.activation = form === 'qdq' ? 'int8' : 'uint8';
    for (const t of ir?.graph.initializers ?? []) copyInitializer(this.g, t);
    for (const v of graph.values) {
      if (v.kind === 'initializer' && ir === undefined) this.g.initializer(v.name, v.dtypeName, v.shape ?? [], this.resizeScales(v));
    }
    for (const name of graph.inputs) {
      const v = this.values.get(name)!;
      this.g.input(name, v.dtypeName, v.shape);
      this.float.set(name, name);
    }
  }

  /** A graph without its file has no weight data: a Resize's scales are read back from its shapes. */
  private resizeScales(v: InferredValue): number[] | undefined {
    const resize = v.consumers.map((c) => this.graph.nodes[c]!).find((n) => n.opType === 'Resize' && n.inputs[2] === v.name);
    const [a, b] = [this.values.get(resize?.inputs[0] ?? '')?.shape, this.values.get(resize?.outputs[0] ?? '')?.shape];
    return a === undefined || b === undefined ? undefined : b.map((d, i) => d / a[i]!);
  }

  rewrite(node: InferredNode): void {
    const base = node.opType;
    const x = this.values.get(node.inputs[0] ?? '');
    if (node.constant || node.domain !== '' || x === undefined || !this.isRunTime(x)) return this.copy(node, false);
    if (this.form !== 'dynamic' && (base === 'Relu' || base === 'Clip') && this.folds(node)) {
      this.quant.set(node.outputs[0]!, this.quant.get(node.inputs[0]!)!);
      return;
    }
    const weighted = (base === 'Conv' || base === 'MatMul') && this.isWeight(node.inputs[1]);
    if (this.form === 'dynamic') return weighted ? this.dynamicOp(node) : this.copy(node, false);
    if (SHAPE_OPS.has(base)) return this.copy(node, this.quant.has(node.inputs[0]!) && !this.float.has(node.inputs[0]!));
    const runTimeOnly = node.inputs.filter((n) => n !== '').every((n) => this.isRunTime(this.values.get(n)));
    const quantizable = weighted || DIRECT_8BIT.has(base) || (QLINEAR_MS[base] !== undefined && (runTimeOnly || base.endsWith('Pool')));
    if (!quantizable) return this.copy(node, false);
    if (this.form === 'qdq') return this.qdqOp(node, weighted);
    return this.qlinearOp(node, weighted);
  }

  /** Graph outputs as float under their own names. */
  finish(): void {
    for (const name of this.graph.outputs) {
      const f = this.float.get(name);
      if (f === undefined) this.g.nodeOutputs('DequantizeLinear', [this.quant.get(name)!, ...this.qparams(name)], [name], {}, { name: `${name}/dequantize` });
      else if (f !== name) this.g.nodeOutputs('Identity', [f], [name], {}, { name: `${name}/identity` });
      this.g.output(name);
    }
  }

  private isRunTime(v: InferredValue | undefined): boolean {
    return v !== undefined && (v.kind === 'input' || v.kind === 'activation' || v.kind === 'output');
  }

  private isWeight(name: string | undefined): boolean {
    const v = this.values.get(name ?? '');
    return v !== undefined && (v.kind === 'initializer' || v.kind === 'constant') && v.shape !== undefined;
  }

  /** True when a Relu/Clip is the only reader of a quantized op's output. */
  private folds(node: InferredNode): boolean {
    const input = this.values.get(node.inputs[0]!)!;
    return this.quant.has(input.name) && !this.float.has(input.name) && input.consumers.length === 1 && !this.graph.outputs.includes(input.name);
  }

  /** Scale and zero point initializers of a tensor's quantization. */
  private qparams(tensor: string, type = this.activation): [string, string] {
    const scale = `${tensor}.scale`;
    const zero = `${tensor}.zero`;
    if (!this.made.has(scale)) {
      this.g.initializer(scale, 'float32', [], [0.05]);
      this.g.initializer(zero, type, [], [0]);
      this.made.add(scale);
    }
    return [scale, zero];
  }

  /** The quantized form of a tensor, quantizing its float form once. */
  private quantOf(tensor: string): string {
    const known = this.quant.get(tensor);
    if (known !== undefined) return known;
    const q = this.g.node('QuantizeLinear', [this.floatOf(tensor), ...this.qparams(tensor)], {}, { name: `${tensor}/quantize` });
    this.quant.set(tensor, q);
    return q;
  }

  /** The float form of a tensor, dequantizing its quantized form once. */
  private floatOf(tensor: string): string {
    const known = this.float.get(tensor);
    if (known !== undefined) return known;
    const v = this.values.get(tensor);
    if (v === undefined || !this.isRunTime(v)) return tensor;
    const f = this.g.node('DequantizeLinear', [this.quant.get(tensor)!, ...this.qparams(tensor)], {}, { name: `${tensor}/dequantize` });
    this.float.set(tensor, f);
    return f;
  }

  /** A quantized weight (int8 or uint8 zeros of the weight's shape) and its scale and zero point. */
  private weight(name: string, type: string): [string, string, string] {
    const shape = this.values.get(name)!.shape!;
    const w = `${name}.quantized`;
    if (!this.made.has(w)) {
      this.g.initializer(w, type, shape);
      this.made.add(w);
    }
    return [w, ...this.qparams(w, type)];
  }

  /** Copies a node as it is; `quantized`: its run-time input and outputs are the quantized forms. */
  private copy(node: InferredNode, quantized: boolean): void {
    const inputs = node.inputs.map((n, i) => (n === '' ? '' : quantized && i === 0 ? this.quantOf(n) : this.floatOf(n)));
    const outputs = node.outputs.map((o) => (quantized ? `${o}.q` : o));
    this.g.nodeOutputs(node.opType, inputs, outputs, this.attributes(node), { name: node.name, domain: node.domain });
    node.outputs.forEach((o, i) => (quantized ? this.quant : this.float).set(o, outputs[i]!));
  }

  private attributes(node: InferredNode): Record<string, AttributeValue> {
    return nodeAttributes(node, this.irNodes.get(node.name));
  }

  /** DequantizeLinear -> op -> QuantizeLinear, weights dequantized at load time. */
  private qdqOp(node: InferredNode, weighted: boolean): void {
    const inputs = node.inputs.map((n, i) => {
      if (n === '') return '';
      if (weighted && i === 1) return this.g.node('DequantizeLinear', this.weight(n, 'int8'), {}, { name: `${n}/dequantize` });
      if (weighted && i === 2) return this.g.node('DequantizeLinear', this.weight(n, 'int32').slice(0, 2), {}, { name: `${n}/dequantize` });
      const v = this.values.get(n);
      return this.isRunTime(v) ? this.g.node('DequantizeLinear', [this.quantOf(n), ...this.qparams(n)], {}, { name: `${node.name}/dequantize${i}` }) : n;
    });
    const out = node.outputs[0]!;
    const y = this.g.node(node.opType, inputs, this.attributes(node), { name: node.name });
    this.quant.set(out, this.g.node('QuantizeLinear', [y, ...this.qparams(out)], {}, { name: `${node.name}/quantize` }));
  }

  /** The QOperator form of a quantizable op. */
  private qlinearOp(node: InferredNode, weighted: boolean): void {
    const out = node.outputs[0]!;
    const [ys, yz] = this.qparams(out);
    const withParams = (n: string): string[] => [this.quantOf(n), ...this.qparams(n)];
    const attrs = this.attributes(node);
    let y: string;
    if (weighted) {
      const op = node.opType === 'Conv' ? 'QLinearConv' : 'QLinearMatMul';
      const bias = node.inputs[2] !== undefined && node.inputs[2] !== '' ? [this.weight(node.inputs[2], 'int32')[0]] : [];
      y = this.g.node(op, [...withParams(node.inputs[0]!), ...this.weight(node.inputs[1]!, 'int8'), ys, yz, ...bias], attrs, { name: node.name });
    } else if (DIRECT_8BIT.has(node.opType)) {
      y = this.g.node(node.opType, node.inputs.map((n, i) => (i === 0 ? this.quantOf(n) : n === '' ? '' : this.floatOf(n))), attrs, { name: node.name });
    } else if (node.opType === 'Concat') {
      y = this.g.node('QLinearConcat', [ys, yz, ...node.inputs.flatMap(withParams)], attrs, { ...MS, name: node.name });
    } else if (node.opType === 'Add' || node.opType === 'Mul') {
      y = this.g.node(QLINEAR_MS[node.opType]!, [...withParams(node.inputs[0]!), ...withParams(node.inputs[1]!), ys, yz], attrs, { ...MS, name: node.name });
    } else {
      y = this.g.node(QLINEAR_MS[node.opType]!, [...withParams(node.inputs[0]!), ys, yz], attrs, { ...MS, name: node.name });
    }
    this.quant.set(out, y);
  }

  /** DynamicQuantizeLinear -> ConvInteger/MatMulInteger -> Cast -> Mul by the scales -> Add of the bias. */
  private dynamicOp(node: InferredNode): void {
    const x = node.inputs[0]!;
    let dq = this.dynamic.get(x);
    if (dq === undefined) {
      const names = [`${x}.u8`, `${x}.u8scale`, `${x}.u8zero`] as const;
      this.g.nodeOutputs('DynamicQuantizeLinear', [this.floatOf(x)], [...names], {}, { name: `${x}/dynamic-quantize` });
      this.dynamic.set(x, (dq = names));
    }
    const [w, ws, wz] = this.weight(node.inputs[1]!, 'uint8');
    const integer = node.opType === 'Conv' ? 'ConvInteger' : 'MatMulInteger';
    const attrs = integer === 'ConvInteger' ? this.attributes(node) : {};
    const acc = this.g.node(integer, [dq[0], w, dq[2], wz], attrs, { name: node.name });
    const cast = this.g.node('Cast', [acc], { to: 1 }, { name: `${node.name}/cast` });
    const scale = this.g.node('Mul', [dq[1], ws], {}, { name: `${node.name}/scales` });
    const bias = node.inputs[2];
    const out = node.outputs[0]!;
    const noBias = bias === undefined || bias === '';
    const scaled = this.g.nodeOutputs('Mul', [cast, scale], [noBias ? out : `${out}.scaled`], {}, { name: `${node.name}/scale` })[0]!;
    this.float.set(out, out);
    if (noBias) return;
    const channels = this.values.get(bias)!.shape![0]!;
    const b = this.g.initializer(`${bias}.broadcast`, 'float32', node.opType === 'Conv' ? [1, channels, 1, 1] : [channels]);
    this.g.nodeOutputs('Add', [scaled, b], [out], {}, { name: `${node.name}/bias` });
  }
}
