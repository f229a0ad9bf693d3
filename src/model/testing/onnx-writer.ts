// A small ONNX writer for tests and the bundled sample: build a graph in code, get the
// bytes of a valid ModelProto (encoded with onnx-proto). Test utility; no DOM.
//
// Example:
//
//   const g = new GraphBuilder('net');
//   const x = g.input('x', 'float32', ['batch', 3, 224, 224]);   // symbolic batch dim
//   const w = g.initializer('w', 'float32', [16, 3, 3, 3]);      // zeros of the right size
//   const y = g.node('Conv', [x, w], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
//   const [a, b] = g.nodeOutputs('Split', [y], 2, { axis: 1 });
//   g.output(g.node('Add', [a, b]), 'float32', ['batch', 8, 224, 224]);
//   const bytes = g.toBytes({ opset: 17 });
//
// Values are passed around by name: every method that creates a value returns its
// name. Attribute values map to ONNX kinds by their JavaScript type (integer ->
// INT, other number -> FLOAT, string -> STRING, arrays of those, tensor(...) ->
// TENSOR, GraphBuilder -> GRAPH); `attr.*` forces a kind (attr.float(1) is FLOAT).

import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { dtypeCode, int64Field, tensorProto, type DTypeSpec, type TensorData, type TensorStorage } from './onnx-writer-tensor';

export { dtypeCode, numberToBfloat16, numberToHalf, rawBytes } from './onnx-writer-tensor';
export type { DTypeSpec, TensorData, TensorStorage } from './onnx-writer-tensor';

// onnx-proto is CommonJS: Node's ESM loader exposes only its default export.
const { onnx } = onnxProto;

/** One dimension: a size (a bigint for any int64, to write one no number holds), a symbolic name (dim_param), or undefined for an anonymous dim. */
export type DimSpec = number | bigint | string | undefined;

/** The type of a graph input, output or value_info entry beyond a plain tensor. */
export interface ValueOptions {
  /** 'tensor' (default), or a sequence / optional of such tensors, or a sparse tensor. */
  readonly kind?: 'tensor' | 'sequence' | 'optional' | 'sparse';
}

/** A constant tensor for a tensor attribute (Constant's `value`, ConstantOfShape's fill...). */
export interface TensorSpec extends TensorStorage {
  readonly tensorSpec: true;
  readonly name: string;
  readonly dtype: DTypeSpec;
  readonly dims: readonly number[];
  readonly data: TensorData | undefined;
}

/** Makes a tensor for an attribute; `data` left out fills it with zeros. */
export function tensor(
  dtype: DTypeSpec,
  dims: readonly number[],
  data?: TensorData,
  options: TensorStorage & { readonly name?: string } = {},
): TensorSpec {
  return { ...options, tensorSpec: true, name: options.name ?? '', dtype, dims, data };
}

/** An attribute whose ONNX kind is spelled out. */
export interface ExplicitAttribute {
  readonly attributeProto: Omit<Onnx.IAttributeProto, 'name'>;
}

/** A node attribute value; see the module header for how JavaScript types map to ONNX kinds. */
export type AttributeValue =
  | number
  | bigint
  | boolean
  | string
  | Uint8Array
  | readonly number[]
  | readonly string[]
  | TensorSpec
  | readonly TensorSpec[]
  | GraphBuilder
  | readonly GraphBuilder[]
  | ExplicitAttribute;

const AT = onnx.AttributeProto.AttributeType;
const explicit = (attributeProto: Omit<Onnx.IAttributeProto, 'name'>): ExplicitAttribute => ({ attributeProto });
const encodeText = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Attributes of a kind spelled out, for values whose JavaScript type is ambiguous. */
export const attr = {
  float: (f: number) => explicit({ type: AT.FLOAT, f }),
  floats: (floats: readonly number[]) => explicit({ type: AT.FLOATS, floats: [...floats] }),
  int: (i: number | bigint) => explicit({ type: AT.INT, i: int64Field(i) }),
  ints: (ints: readonly (number | bigint)[]) => explicit({ type: AT.INTS, ints: ints.map(int64Field) }),
  string: (s: string) => explicit({ type: AT.STRING, s: encodeText(s) }),
  strings: (strings: readonly string[]) => explicit({ type: AT.STRINGS, strings: strings.map(encodeText) }),
  tensor: (t: TensorSpec) => explicit({ type: AT.TENSOR, t: specProto(t) }),
  tensors: (ts: readonly TensorSpec[]) => explicit({ type: AT.TENSORS, tensors: ts.map(specProto) }),
  graph: (g: GraphBuilder) => explicit({ type: AT.GRAPH, g: g.toGraphProto() }),
  graphs: (gs: readonly GraphBuilder[]) => explicit({ type: AT.GRAPHS, graphs: gs.map((g) => g.toGraphProto()) }),
  /** Any AttributeProto fields as they are (sparse tensors, type protos, ref_attr_name...). */
  proto: (fields: Omit<Onnx.IAttributeProto, 'name'>) => explicit(fields),
} as const;

/** Options of a node. */
export interface NodeOptions {
  /** The node's name; default "<OpType>_<index>". Pass '' to write a node without a name. */
  readonly name?: string;
  /** The operator's domain, e.g. 'com.microsoft'; default '' (ONNX). */
  readonly domain?: string;
}

/** Options of the model around the graph. */
export interface ModelOptions {
  /** Version of the default ONNX opset (default 17). */
  readonly opset?: number;
  /** Further opset imports by domain, e.g. { 'com.microsoft': 1 }. */
  readonly opsets?: Readonly<Record<string, number>>;
  /** Written as the domain of the default opset import: '' (default) or 'ai.onnx'. */
  readonly defaultDomain?: '' | 'ai.onnx';
  /** IR version (default 8). */
  readonly irVersion?: number;
  /** Also list every initializer as a graph input, as files before IR 4 did (default: irVersion < 4). */
  readonly initializersAsInputs?: boolean;
  readonly producerName?: string;
  readonly producerVersion?: string;
}

/** Builds one ONNX graph (the main graph, or a subgraph to pass as an attribute). */
export class GraphBuilder {
  private readonly inputs: Onnx.IValueInfoProto[] = [];
  private readonly outputs: Onnx.IValueInfoProto[] = [];
  private readonly valueInfos: Onnx.IValueInfoProto[] = [];
  private readonly initializers: Onnx.ITensorProto[] = [];
  private readonly nodes: Onnx.INodeProto[] = [];
  private readonly generated = new Set<string>();

  constructor(readonly name = 'graph') {}

  /** Declares a graph input; `shape` undefined writes a tensor type without a shape. Returns the name. */
  input(name: string, dtype: DTypeSpec, shape?: readonly DimSpec[], options: ValueOptions = {}): string {
    this.inputs.push(valueInfo(name, dtype, shape, options));
    return name;
  }

  /** Declares a graph output; leave out `dtype` to write it without a type. Returns the name. */
  output(name: string, dtype?: DTypeSpec, shape?: readonly DimSpec[], options: ValueOptions = {}): string {
    this.outputs.push(valueInfo(name, dtype, shape, options));
    return name;
  }

  /** Adds a value_info entry (a declared type of an intermediate value). Returns the name. */
  valueInfo(name: string, dtype?: DTypeSpec, shape?: readonly DimSpec[], options: ValueOptions = {}): string {
    this.valueInfos.push(valueInfo(name, dtype, shape, options));
    return name;
  }

  /** Adds an initializer (weights); `data` left out fills it with zeros of the right size. Returns the name. */
  initializer(name: string, dtype: DTypeSpec, dims: readonly number[], data?: TensorData, options: TensorStorage = {}): string {
    this.initializers.push(tensorProto(name, dtype, dims, data, options));
    return name;
  }

  /** Adds a Constant node holding the tensor; returns its output's name. */
  constant(dtype: DTypeSpec, dims: readonly number[], data?: TensorData, options: NodeOptions = {}): string {
    return this.node('Constant', [], { value: tensor(dtype, dims, data) }, options);
  }

  /** Adds a node with one output and returns the output's name ("<node name>_out", made unique). */
  node(opType: string, inputs: readonly string[], attributes: Readonly<Record<string, AttributeValue>> = {}, options: NodeOptions = {}): string {
    return this.nodeOutputs(opType, inputs, 1, attributes, options)[0] ?? '';
  }

  /**
   * Adds a node with several outputs: `outputs` is their names, or a count for
   * generated names ("<node name>_out0", ...). Returns the output names.
   */
  nodeOutputs(
    opType: string,
    inputs: readonly string[],
    outputs: number | readonly string[],
    attributes: Readonly<Record<string, AttributeValue>> = {},
    options: NodeOptions = {},
  ): string[] {
    const name = options.name ?? `${opType}_${this.nodes.length}`;
    const base = name || `${opType}_${this.nodes.length}`;
    const names =
      typeof outputs === 'number'
        ? Array.from({ length: outputs }, (_, i) => this.freshName(outputs === 1 ? `${base}_out` : `${base}_out${i}`))
        : [...outputs];
    this.nodes.push({
      name,
      opType,
      domain: options.domain ?? '',
      input: [...inputs],
      output: names,
      attribute: Object.entries(attributes).map(([key, value]) => ({ name: key, ...attributeProto(value) })),
    });
    return names;
  }

  /** `candidate`, or with a numeric suffix when a generated name already has it. */
  private freshName(candidate: string): string {
    let name = candidate;
    for (let k = 2; this.generated.has(name); k++) name = `${candidate}_${k}`;
    this.generated.add(name);
    return name;
  }

  /** The GraphProto. */
  toGraphProto(initializersAsInputs = false): Onnx.IGraphProto {
    const asInputs = initializersAsInputs ? this.initializers.map((t) => valueInfo(t.name ?? '', t.dataType ?? 0, (t.dims ?? []).map(Number), {})) : [];
    return {
      name: this.name,
      node: [...this.nodes],
      input: [...this.inputs, ...asInputs],
      output: [...this.outputs],
      valueInfo: [...this.valueInfos],
      initializer: [...this.initializers],
    };
  }

  /** The ModelProto around this graph, for tests that adjust fields before encoding. */
  toModelProto(options: ModelOptions = {}): Onnx.IModelProto {
    const irVersion = options.irVersion ?? 8;
    const extra = Object.entries(options.opsets ?? {}).map(([domain, version]) => ({ domain, version }));
    return {
      irVersion,
      producerName: options.producerName ?? 'heapscope onnx-writer',
      producerVersion: options.producerVersion ?? '1',
      opsetImport: [{ domain: options.defaultDomain ?? '', version: options.opset ?? 17 }, ...extra],
      graph: this.toGraphProto(options.initializersAsInputs ?? irVersion < 4),
    };
  }

  /** The model's bytes. */
  toBytes(options: ModelOptions = {}): Uint8Array {
    return encodeModel(this.toModelProto(options));
  }
}

/** Encodes a ModelProto (from toModelProto, possibly adjusted) to bytes: a plain Uint8Array, also in Node. */
export function encodeModel(model: Onnx.IModelProto): Uint8Array {
  const bytes = onnx.ModelProto.encode(model).finish();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function specProto(t: TensorSpec): Onnx.ITensorProto {
  return tensorProto(t.name, t.dtype, t.dims, t.data, t);
}

function valueInfo(name: string, dtype: DTypeSpec | undefined, shape: readonly DimSpec[] | undefined, options: ValueOptions): Onnx.IValueInfoProto {
  if (dtype === undefined) return { name };
  const tensorType: Onnx.TypeProto.ITensor = { elemType: dtypeCode(dtype) };
  if (shape !== undefined) {
    tensorType.shape = {
      dim: shape.map((d) => (typeof d === 'number' || typeof d === 'bigint' ? { dimValue: int64Field(d) } : typeof d === 'string' ? { dimParam: d } : {})),
    };
  }
  const kind = options.kind ?? 'tensor';
  const type: Onnx.ITypeProto =
    kind === 'tensor'
      ? { tensorType }
      : kind === 'sparse'
        ? { sparseTensorType: tensorType }
        : kind === 'sequence'
          ? { sequenceType: { elemType: { tensorType } } }
          : { optionalType: { elemType: { tensorType } } };
  return { name, type };
}

function attributeProto(value: AttributeValue): Omit<Onnx.IAttributeProto, 'name'> {
  if (typeof value === 'object' && value !== null && 'attributeProto' in value) return value.attributeProto;
  if (value instanceof GraphBuilder) return attr.graph(value).attributeProto;
  if (value instanceof Uint8Array) return { type: AT.STRING, s: value };
  if (typeof value === 'string') return attr.string(value).attributeProto;
  if (typeof value === 'boolean') return attr.int(value ? 1 : 0).attributeProto;
  if (typeof value === 'bigint') return attr.int(value).attributeProto;
  if (typeof value === 'number') return (Number.isInteger(value) ? attr.int(value) : attr.float(value)).attributeProto;
  if ('tensorSpec' in value) return attr.tensor(value).attributeProto;
  return listAttribute(value);
}

function listAttribute(values: readonly (number | string | TensorSpec | GraphBuilder)[]): Omit<Onnx.IAttributeProto, 'name'> {
  if (values.every((v) => typeof v === 'number')) {
    const numbers = values as readonly number[];
    return (numbers.every(Number.isInteger) ? attr.ints(numbers) : attr.floats(numbers)).attributeProto;
  }
  if (values.every((v) => typeof v === 'string')) return attr.strings(values as readonly string[]).attributeProto;
  if (values.every((v) => v instanceof GraphBuilder)) return attr.graphs(values as readonly GraphBuilder[]).attributeProto;
  if (values.every((v) => typeof v === 'object' && 'tensorSpec' in v)) return attr.tensors(values as readonly TensorSpec[]).attributeProto;
  throw new Error('onnx-writer: an attribute list must hold values of one kind');
}
