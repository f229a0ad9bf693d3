// Test utility: builds IrModel / IrGraph objects directly, so shape-inference
// tests can describe small graphs in a few lines without encoding ONNX bytes.

import type { DataTypeCode, DeclaredDim, IrAttribute, IrGraph, IrModel, IrNode, IrTensor, IrValueInfo } from '../ir';

/** An attribute given as a plain value: integers become 'int', other numbers 'float', arrays 'ints'/'floats'. */
export type AttrInput = number | string | readonly number[] | readonly string[] | IrGraph | IrTensor | IrAttribute;

/** A float attribute, even for a whole number. */
export function floatAttr(value: number): IrAttribute {
  return { kind: 'float', value };
}

function isGraph(v: object): v is IrGraph {
  return 'nodes' in v && 'initializers' in v;
}

function isTensor(v: object): v is IrTensor {
  return 'dims' in v && 'dtype' in v && 'raw' in v;
}

function toAttribute(value: AttrInput): IrAttribute {
  if (typeof value === 'number') return Number.isInteger(value) ? { kind: 'int', value } : { kind: 'float', value };
  if (typeof value === 'string') return { kind: 'string', value };
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) return { kind: 'strings', value: value as string[] };
    const nums = value as number[];
    return nums.every(Number.isInteger) ? { kind: 'ints', value: nums } : { kind: 'floats', value: nums };
  }
  const obj = value as object;
  if (isGraph(obj)) return { kind: 'graph', value: obj };
  if (isTensor(obj)) return { kind: 'tensor', value: obj };
  return obj as IrAttribute;
}

/** A constant tensor with values held in the typed field (no raw bytes). */
export function tensor(name: string, dtype: DataTypeCode, dims: readonly number[], values?: readonly number[]): IrTensor {
  return { name, dtype, dims, raw: undefined, values, strings: undefined, external: undefined };
}

/** Options of a node. */
export interface NodeOptions {
  readonly name?: string;
  readonly domain?: string;
}

/** Collects the parts of a graph; `graph()` and `model()` return the IR. */
export class IrGraphBuilder {
  private readonly nodes: IrNode[] = [];
  private readonly inputs: IrValueInfo[] = [];
  private readonly outputs: IrValueInfo[] = [];
  private readonly valueInfo: IrValueInfo[] = [];
  private readonly initializers: IrTensor[] = [];

  constructor(private readonly name = 'main') {}

  /** A graph input with a declared type (string dims are symbolic, undefined anonymous). */
  input(name: string, dtype: DataTypeCode | undefined, shape: readonly DeclaredDim[] | undefined): this {
    this.inputs.push({ name, dtype, shape, kind: 'tensor' });
    return this;
  }

  /** A graph input holding a sequence of tensors of the given element type. */
  sequenceInput(name: string, dtype: DataTypeCode, elementShape: readonly DeclaredDim[]): this {
    this.inputs.push({ name, dtype, shape: elementShape, kind: 'sequence' });
    return this;
  }

  /** A graph output, with an optional declared type. */
  output(name: string, dtype?: DataTypeCode, shape?: readonly DeclaredDim[]): this {
    this.outputs.push({ name, dtype, shape, kind: 'tensor' });
    return this;
  }

  /** A value_info entry. */
  info(name: string, dtype: DataTypeCode | undefined, shape: readonly DeclaredDim[] | undefined): this {
    this.valueInfo.push({ name, dtype, shape, kind: 'tensor' });
    return this;
  }

  /** An initializer; values are optional (a weight whose bytes do not matter). */
  initializer(name: string, dtype: DataTypeCode, dims: readonly number[], values?: readonly number[]): this {
    this.initializers.push(tensor(name, dtype, dims, values));
    return this;
  }

  /** A node; its name defaults to "<OpType>_<index>" as the decoder generates. */
  node(opType: string, inputs: readonly string[], outputs: readonly string[], attrs: Readonly<Record<string, AttrInput>> = {}, options: NodeOptions = {}): this {
    const attributes: Record<string, IrAttribute> = {};
    for (const [key, value] of Object.entries(attrs)) attributes[key] = toAttribute(value);
    this.nodes.push({
      name: options.name ?? `${opType}_${this.nodes.length}`,
      opType,
      domain: options.domain ?? '',
      inputs,
      outputs,
      attributes,
    });
    return this;
  }

  /** The graph built so far. */
  graph(): IrGraph {
    return {
      name: this.name,
      nodes: [...this.nodes],
      inputs: [...this.inputs],
      outputs: [...this.outputs],
      valueInfo: [...this.valueInfo],
      initializers: [...this.initializers],
    };
  }

  /** A model around the graph, importing the ONNX domain at `opset` (and any extra domains). */
  model(opset = 18, extra: Readonly<Record<string, number>> = {}): IrModel {
    return {
      irVersion: 8,
      producerName: 'ir-builder',
      producerVersion: '1',
      domain: '',
      modelVersion: 1,
      opsets: [{ domain: '', version: opset }, ...Object.entries(extra).map(([domain, version]) => ({ domain, version }))],
      graph: this.graph(),
      fileBytes: 0,
      diagnostics: [],
    };
  }
}

/** Starts a graph. */
export function irGraph(name?: string): IrGraphBuilder {
  return new IrGraphBuilder(name);
}
