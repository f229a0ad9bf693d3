// Test utility: small NCHW conv nets for the fusion tests, built on TinyGraph
// with the node attributes (kernel_shape, strides, pads, dilations, group)
// the fusion planners read, and output shapes computed from them.

import type { InferredGraph, InferredModel, NodeAttribute } from '../../../model/inferred';
import { type FusionSettings, type TargetProfile } from '../../targets/target';
import { parseTarget } from '../../targets/parse';
import { tinyGraph, type TinyGraph } from '../../testing/tiny-graph';

/** Options of a Conv or pool layer (square kernels). */
export interface WindowOptions {
  readonly k?: number; // kernel (default 1)
  readonly s?: number; // stride (default 1)
  readonly p?: number; // pad on every side (default 0)
  readonly d?: number; // dilation (default 1)
}

/** Options of a Conv. */
export interface ConvOptions extends WindowOptions {
  readonly out: number; // output channels
  readonly group?: number;
  readonly weight?: string; // name of an existing weight to read (shared weights)
  readonly autoPad?: 'SAME_UPPER' | 'SAME_LOWER' | 'VALID'; // instead of pads
}

type Shape = readonly [number, number, number, number];

/** A conv net being built; every layer's output tensor is named after the layer. */
export class ConvNet {
  private readonly g: TinyGraph;
  private readonly shapes = new Map<string, Shape>();
  private readonly attributes = new Map<string, Record<string, NodeAttribute>>();

  constructor(input: Shape, dtype: 'float32' | 'uint8' = 'float32') {
    this.g = tinyGraph(dtype).input('x', input);
    this.shapes.set('x', input);
  }

  shape(name: string): Shape {
    return this.shapes.get(name)!;
  }

  conv(name: string, from: string, o: ConvOptions): this {
    const [n, c, h, w] = this.shape(from);
    const { k = 1, s = 1, p = 0, d = 1, group = 1 } = o;
    const weight = o.weight ?? `${name}.w`;
    if (o.weight === undefined) this.g.weight(weight, [o.out, c / group, k, k]);
    const window = { kernel_shape: [k, k], strides: [s, s], dilations: [d, d], group };
    if (o.autoPad !== undefined) {
      const size = (x: number) => (o.autoPad === 'VALID' ? outSize(x, k, s, 0, d) : Math.ceil(x / s));
      return this.add('Conv', name, [from, weight], [n, o.out, size(h), size(w)], { ...window, auto_pad: o.autoPad });
    }
    const out: Shape = [n, o.out, outSize(h, k, s, p, d), outSize(w, k, s, p, d)];
    return this.add('Conv', name, [from, weight], out, { ...window, pads: [p, p, p, p] });
  }

  /** A depthwise Conv: group = channels = output channels. */
  dw(name: string, from: string, o: WindowOptions = {}): this {
    const c = this.shape(from)[1];
    return this.conv(name, from, { ...o, k: o.k ?? 3, p: o.p ?? 1, out: c, group: c });
  }

  pool(name: string, from: string, o: WindowOptions & { readonly op?: string } = {}): this {
    const [n, c, h, w] = this.shape(from);
    const { k = 2, s = 2, p = 0 } = o;
    return this.add(o.op ?? 'MaxPool', name, [from], [n, c, outSize(h, k, s, p, 1), outSize(w, k, s, p, 1)], {
      kernel_shape: [k, k],
      strides: [s, s],
      pads: [p, p, p, p],
    });
  }

  /** An element-wise op over `inputs` (tensors or weights); the output has the first input's shape. */
  op(opType: string, name: string, ...inputs: string[]): this {
    return this.add(opType, name, inputs, this.shape(inputs[0]!), {});
  }

  /** A constant input (a weight) of the given shape. */
  constant(name: string, shape: readonly number[]): this {
    this.g.weight(name, shape);
    return this;
  }

  /** A Resize of H and W by an integer factor (its scales a weight); `attributes` over mode 'nearest'. */
  resize(name: string, from: string, factor: number, attributes: Record<string, NodeAttribute> = {}): this {
    const [n, c, h, w] = this.shape(from);
    this.g.weight(`${name}.scales`, [4]);
    return this.add('Resize', name, [from, '', `${name}.scales`], [n, c, h * factor, w * factor], { mode: 'nearest', ...attributes });
  }

  concat(name: string, ...inputs: string[]): this {
    const [n, , h, w] = this.shape(inputs[0]!);
    const c = inputs.reduce((sum, i) => sum + this.shape(i)[1], 0);
    return this.add('Concat', name, inputs, [n, c, h, w], { axis: 1 });
  }

  /** A node of any op type with an explicit output shape. */
  node(opType: string, name: string, inputs: readonly string[], out: readonly number[]): this {
    this.g.node(opType, inputs, { [name]: out }, { name });
    if (out.length === 4) this.shapes.set(name, [out[0]!, out[1]!, out[2]!, out[3]!]);
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
    return { ...this.g.model(), ...this.graph() };
  }

  private add(opType: string, name: string, inputs: readonly string[], out: Shape, attributes: Record<string, NodeAttribute>): this {
    this.g.node(opType, inputs, { [name]: out }, { name });
    this.shapes.set(name, out);
    if (Object.keys(attributes).length > 0) this.attributes.set(name, attributes);
    return this;
  }
}

function outSize(size: number, k: number, s: number, p: number, d: number): number {
  return Math.floor((size + 2 * p - d * (k - 1) - 1) / s) + 1;
}

/** Starts a conv net on input 'x' of shape [N, C, H, W]. */
export function convNet(input: Shape, dtype: 'float32' | 'uint8' = 'float32'): ConvNet {
  return new ConvNet(input, dtype);
}

/** Fusion settings for tests: the profile's defaults, then `fusion` and `rules` over them. */
export function fusionSettings(fusion: Readonly<Record<string, unknown>> = {}, rules: Readonly<Record<string, unknown>> = {}): FusionSettings {
  const doc = { sramBytes: 1 << 20, nramBytes: 1 << 20, wramBytes: 1 << 20, coresPerCluster: 1, ...fusion, rules };
  return parseTarget({ name: 'test', regions: [{ name: 'dram' }, { name: 'sram', fast: true }], fusion: doc }).fusion!;
}

/** A target for tests that plan a whole model: activations in DRAM, an on-chip SRAM, fusion with the given fields over 1 MiB memories. */
export function fusionTarget(fusion: Readonly<Record<string, unknown>>): TargetProfile {
  return parseTarget({
    name: 'board',
    regions: [{ name: 'dram' }, { name: 'sram', fast: true }],
    fusion: { onChipRegion: 'sram', sramBytes: 1 << 20, nramBytes: 1 << 20, wramBytes: 1 << 20, ...fusion },
    planning: { activationRegion: 'dram' },
  });
}

/** x -> c1 (3×3) -> r1 Relu -> c2 (3×3), output c2: on the default [1,4,8,8] input every float tensor is 1 KiB. */
export function reluChain(input: Shape = [1, 4, 8, 8]): ConvNet {
  return convNet(input).conv('c1', 'x', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').conv('c2', 'r1', { out: 4, k: 3, p: 1 }).output('c2');
}

/** x [1,4,8,8] -> c0 (3×3) -> residual block [c1 (3×3) -> c2 (3×3) -> add(c2, c0)] -> r Relu, output r. */
export function residualNet(): ConvNet {
  return convNet([1, 4, 8, 8])
    .conv('c0', 'x', { out: 4, k: 3, p: 1 })
    .conv('c1', 'c0', { out: 4, k: 3, p: 1 })
    .conv('c2', 'c1', { out: 4, k: 3, p: 1 })
    .op('Add', 'add', 'c2', 'c0')
    .op('Relu', 'r', 'add')
    .output('r');
}
