// Test utility: small TensorFlow Lite nets for the fusion and compute-unit
// tests, built on TinyGraph as the TFLite decoder leaves them: NHWC tensors,
// builtin op types in the 'tflite' domain, filters [out, kh, kw, in]
// (depthwise [1, kh, kw, out]), int32 biases when quantized, and the builtin
// options as node attributes (padding 0 SAME / 1 VALID, stride_h/w,
// dilation_h/w_factor, filter_height/width, axis). Output sizes follow
// TFLite: SAME ceil(in / stride), VALID ceil((in - extent + 1) / stride).

import type { InferredGraph, InferredModel, NodeAttribute } from '../../../model/inferred';
import { tinyGraph, type TinyGraph } from '../../testing/tiny-graph';

/** Options of a TFLite window (square unless kh / kw are given). */
export interface TfliteWindow {
  readonly k?: number; // kernel (default 1 for CONV_2D, 3 for DEPTHWISE_CONV_2D, 2 for pools)
  readonly kh?: number;
  readonly kw?: number;
  readonly s?: number; // stride on both axes (default 1; pools 2)
  readonly sh?: number;
  readonly sw?: number;
  readonly d?: number; // dilation (default 1)
  readonly padding?: 'SAME' | 'VALID'; // default SAME
}

type Shape = readonly [number, number, number, number];
type Dtype = 'float32' | 'int8' | 'uint8';

/** A TFLite net being built; every op's output tensor is named after the op. */
export class TfliteNet {
  private readonly g: TinyGraph;
  private readonly shapes = new Map<string, readonly number[]>();
  private readonly attributes = new Map<string, Record<string, NodeAttribute>>();

  constructor(input: Shape, private readonly dtype: Dtype = 'float32') {
    this.g = tinyGraph(dtype).input('x', input);
    this.shapes.set('x', input);
  }

  shape(name: string): readonly number[] {
    return this.shapes.get(name)!;
  }

  /** CONV_2D with `out` filters of `in / group` channels each. */
  conv(name: string, from: string, o: TfliteWindow & { readonly out: number; readonly group?: number }): this {
    const c = this.shape(from)[3]!;
    const [kh, kw] = [o.kh ?? o.k ?? 1, o.kw ?? o.k ?? 1];
    this.g.weight(`${name}.filter`, [o.out, kh, kw, c / (o.group ?? 1)]).weight(`${name}.bias`, [o.out], this.biasType());
    return this.window('CONV_2D', name, [from, `${name}.filter`, `${name}.bias`], o.out, { ...o, kh, kw }, true);
  }

  /** DEPTHWISE_CONV_2D: one filter per input channel and multiplier, filter [1, kh, kw, in × multiplier]. */
  dw(name: string, from: string, o: TfliteWindow & { readonly multiplier?: number } = {}): this {
    const out = this.shape(from)[3]! * (o.multiplier ?? 1);
    const [kh, kw] = [o.kh ?? o.k ?? 3, o.kw ?? o.k ?? 3];
    this.g.weight(`${name}.filter`, [1, kh, kw, out]).weight(`${name}.bias`, [out], this.biasType());
    const options = { depth_multiplier: o.multiplier ?? 1 };
    return this.window('DEPTHWISE_CONV_2D', name, [from, `${name}.filter`, `${name}.bias`], out, { ...o, kh, kw }, true, options);
  }

  /** AVERAGE_POOL_2D or MAX_POOL_2D. */
  pool(name: string, from: string, o: TfliteWindow & { readonly op?: 'AVERAGE_POOL_2D' | 'MAX_POOL_2D' } = {}): this {
    const [kh, kw] = [o.kh ?? o.k ?? 2, o.kw ?? o.k ?? 2];
    const options = { filter_height: kh, filter_width: kw };
    return this.window(o.op ?? 'MAX_POOL_2D', name, [from], this.shape(from)[3]!, { s: 2, ...o, kh, kw }, false, options);
  }

  /** FULLY_CONNECTED over the input flattened to [N, features]: weights [out, features]. */
  fc(name: string, from: string, out: number): this {
    const [n, ...rest] = this.shape(from);
    this.g.weight(`${name}.weights`, [out, rest.reduce((a, b) => a * b, 1)]).weight(`${name}.bias`, [out], this.biasType());
    return this.add('FULLY_CONNECTED', name, [from, `${name}.weights`, `${name}.bias`], [n!, out], {});
  }

  /** CONCATENATION along `axis` of NHWC maps. */
  concat(name: string, axis: number, ...inputs: string[]): this {
    const first = this.shape(inputs[0]!);
    const at = axis < 0 ? axis + first.length : axis;
    const out = first.map((d, i) => (i === at ? inputs.reduce((sum, x) => sum + this.shape(x)[i]!, 0) : d));
    return this.add('CONCATENATION', name, inputs, out, { axis });
  }

  /** An element-wise builtin (ADD, MUL, RELU, LOGISTIC...) over `inputs`; the output has the first input's shape. */
  op(opType: string, name: string, ...inputs: string[]): this {
    return this.add(opType, name, inputs, this.shape(inputs[0]!), {});
  }

  /** A builtin with an explicit output shape and type (RESHAPE, SOFTMAX, QUANTIZE...). */
  node(opType: string, name: string, inputs: readonly string[], out: readonly number[], dtype: Dtype = this.dtype): this {
    this.g.node(opType, inputs, { [name]: out }, { name, domain: 'tflite', dtype });
    this.shapes.set(name, out);
    return this;
  }

  output(...names: string[]): this {
    this.g.output(...names);
    return this;
  }

  graph(): InferredGraph {
    const g = this.g.graph();
    return { ...g, nodes: g.nodes.map((n) => (this.attributes.has(n.name) ? { ...n, attributes: this.attributes.get(n.name)! } : n)) };
  }

  model(): InferredModel {
    return { ...this.g.model(), ...this.graph(), format: 'tflite' };
  }

  private biasType(): 'float32' | 'int32' {
    return this.dtype === 'float32' ? 'float32' : 'int32';
  }

  private window(opType: string, name: string, inputs: readonly string[], channels: number, o: TfliteWindow & { kh: number; kw: number }, dilated: boolean, extra: Record<string, number> = {}): this {
    const [n, h, w] = this.shape(inputs[0]!);
    const sh = o.sh ?? o.s ?? 1;
    const sw = o.sw ?? o.s ?? 1;
    const d = dilated ? o.d ?? 1 : 1;
    const valid = o.padding === 'VALID';
    const size = (x: number, k: number, s: number) => (valid ? Math.ceil((x - (k - 1) * d) / s) : Math.ceil(x / s));
    const options: Record<string, number> = { padding: valid ? 1 : 0, stride_h: sh, stride_w: sw, ...extra };
    if (dilated) Object.assign(options, { dilation_h_factor: d, dilation_w_factor: d });
    return this.add(opType, name, inputs, [n!, size(h!, o.kh, sh), size(w!, o.kw, sw), channels], options);
  }

  private add(opType: string, name: string, inputs: readonly string[], out: readonly number[], attributes: Record<string, NodeAttribute>): this {
    this.g.node(opType, inputs, { [name]: out }, { name, domain: 'tflite' });
    this.shapes.set(name, out);
    if (Object.keys(attributes).length > 0) this.attributes.set(name, attributes);
    return this;
  }
}

/** Starts a TFLite net on input 'x' of shape [N, H, W, C]. */
export function tfliteNet(input: Shape, dtype: Dtype = 'float32'): TfliteNet {
  return new TfliteNet(input, dtype);
}
