// Test utility: builds InferredModel objects directly (values with kinds,
// shapes, bytes, producers and consumers), so planner tests can describe small
// graphs in a few lines without ONNX bytes or shape inference.

import type { InferredGraph, InferredModel, InferredNode, InferredValue, ValueKind } from '../../model/inferred';
import { type TargetProfile } from '../targets/target';
import { parseTarget } from '../targets/parse';

/** Data types the builder sizes: name -> [ONNX code, bytes per element]. */
const DTYPES = { float32: [1, 4], uint8: [2, 1], int8: [3, 1], int32: [6, 4], float16: [10, 2], int64: [7, 8] } as const;
type DtypeName = keyof typeof DTYPES;

interface ValueSpec {
  readonly name: string;
  readonly shape: readonly number[] | undefined;
  readonly dtype: DtypeName;
  readonly kind: 'input' | 'initializer' | 'node';
  producer?: number;
}

/** Options of a node. */
export interface TinyNodeOptions {
  readonly name?: string;
  readonly domain?: string;
  readonly constant?: boolean;
  readonly subgraphs?: readonly InferredGraph[];
  readonly reads?: readonly string[]; // outer-scope values its subgraphs read
  readonly dtype?: DtypeName; // of the outputs (default: the graph's)
}

/** Collects a graph; `model()` returns the InferredModel. */
export class TinyGraph {
  private readonly values = new Map<string, ValueSpec>();
  private readonly nodes: (InferredNode & { readonly reads: readonly string[] })[] = [];
  private readonly inputs: string[] = [];
  private readonly outputs: string[] = [];

  constructor(
    private readonly dtype: DtypeName = 'float32',
    private readonly name = 'main',
  ) {}

  input(name: string, shape: readonly number[] | undefined, dtype: DtypeName = this.dtype): this {
    this.values.set(name, { name, shape, dtype, kind: 'input' });
    this.inputs.push(name);
    return this;
  }

  weight(name: string, shape: readonly number[], dtype: DtypeName = this.dtype): this {
    this.values.set(name, { name, shape, dtype, kind: 'initializer' });
    return this;
  }

  /** A node; `outputs` maps each output name to its shape (undefined: unknown). */
  node(opType: string, inputs: readonly string[], outputs: Readonly<Record<string, readonly number[] | undefined>>, options: TinyNodeOptions = {}): this {
    const index = this.nodes.length;
    for (const [name, shape] of Object.entries(outputs)) {
      this.values.set(name, { name, shape, dtype: options.dtype ?? this.dtype, kind: 'node', producer: index });
    }
    this.nodes.push({
      name: options.name ?? `${opType}_${index}`,
      opType,
      domain: options.domain ?? '',
      inputs,
      outputs: Object.keys(outputs),
      subgraphs: options.subgraphs ?? [],
      constant: options.constant ?? false,
      reads: options.reads ?? [],
    });
    return this;
  }

  output(...names: string[]): this {
    this.outputs.push(...names);
    return this;
  }

  graph(): InferredGraph {
    const consumers = new Map<string, number[]>();
    this.nodes.forEach((node, n) => {
      for (const name of new Set([...node.inputs, ...node.reads])) {
        if (name === '') continue;
        const list = consumers.get(name) ?? [];
        list.push(n);
        consumers.set(name, list);
      }
    });
    const values = [...this.values.values()].map((v) => this.valueOf(v, consumers.get(v.name) ?? []));
    const nodes = this.nodes.map(({ reads: _reads, ...node }) => node);
    return { name: this.name, nodes, values, inputs: [...this.inputs], outputs: [...this.outputs] };
  }

  model(): InferredModel {
    return {
      ...this.graph(),
      info: { producerName: 'tiny-graph', producerVersion: '1', irVersion: 8, opsets: [{ domain: '', version: 18 }], fileBytes: 0 },
      dims: [],
      shapes: {},
      inputValues: {},
      diagnostics: [],
    };
  }

  private valueOf(v: ValueSpec, consumers: readonly number[]): InferredValue {
    const [code, size] = DTYPES[v.dtype];
    const constant = v.producer !== undefined && this.nodes[v.producer]!.constant;
    const kind: ValueKind =
      v.kind === 'input' ? 'input' : v.kind === 'initializer' ? 'initializer' : this.outputs.includes(v.name) ? 'output' : constant ? 'constant' : 'activation';
    const bytes = v.shape === undefined ? undefined : v.shape.reduce((a, b) => a * b, 1) * size;
    return {
      name: v.name,
      kind,
      dtype: code,
      dtypeName: v.dtype,
      shape: v.shape,
      bytes,
      producer: v.producer,
      consumers,
      ...(bytes === undefined && { unknownReason: 'shape not given' }),
    };
  }
}

/** Starts a graph whose tensors default to `dtype`. */
export function tinyGraph(dtype: DtypeName = 'float32', name?: string): TinyGraph {
  return new TinyGraph(dtype, name);
}

/**
 * x -> A (100 B) -> A2 (1 B); x -> B (100 B) -> B2 (1 B); C = Add(A2, B2), in
 * uint8: the file's order runs both big branches before either small one.
 */
export function twoBranches(): TinyGraph {
  return tinyGraph('uint8')
    .input('x', [10])
    .node('Conv', ['x'], { a: [100] }, { name: 'A' })
    .node('Conv', ['x'], { b: [100] }, { name: 'B' })
    .node('Conv', ['a'], { a2: [1] }, { name: 'A2' })
    .node('Conv', ['b'], { b2: [1] }, { name: 'B2' })
    .node('Add', ['a2', 'b2'], { c: [1] }, { name: 'C' })
    .output('c');
}

/**
 * A target profile for tests: one region 'ram' with the given alignment, and any other sections; planned with M1
 * unless `planning.strategy` says otherwise (the offsets tests work out by hand are M1's; a target file's default is best).
 */
export function testTarget(doc: { readonly alignment?: number } & Readonly<Record<string, unknown>> = {}): TargetProfile {
  const { alignment = 1, planning, ...rest } = doc;
  return parseTarget({ name: 'test', regions: [{ name: 'ram', alignment }], ...rest, planning: { strategy: 'm1', ...(planning ?? {}) } });
}
