// Test utility: infers one node through the real engine. Inputs with a value
// become initializers (constants), the others graph inputs with a declared shape.

import type { DataTypeCode, DeclaredDim } from '../ir';
import type { InferredModel, InferredValue } from '../inferred';
import { inferShapes } from '../infer/shapes';
import { irGraph, type AttrInput } from './ir-builder';

/** One input of the node under test; `undefined` leaves an optional input out. */
export interface TestInput {
  readonly dtype: DataTypeCode;
  readonly shape: readonly DeclaredDim[];
  readonly value?: readonly number[]; // makes the input a constant initializer
}

/** Options of inferNode. */
export interface InferNodeOptions {
  readonly attrs?: Readonly<Record<string, AttrInput>>;
  readonly opset?: number;
  readonly outputs?: number; // how many outputs the node has (default 1)
  readonly domain?: string;
  readonly dims?: Readonly<Record<string, number>>;
}

/** The inferred outputs of the node, and the whole model for diagnostics. */
export interface InferNodeResult {
  readonly outputs: readonly InferredValue[];
  readonly model: InferredModel;
}

/** Builds a one-node model around `opType` and infers it. */
export function inferNode(opType: string, inputs: readonly (TestInput | undefined)[], options: InferNodeOptions = {}): InferNodeResult {
  const g = irGraph();
  const names = inputs.map((input, i) => {
    if (input === undefined) return '';
    const name = `in${i}`;
    if (input.value !== undefined) {
      g.initializer(name, input.dtype, input.shape.map(Number), input.value);
    } else g.input(name, input.dtype, input.shape);
    return name;
  });
  const outputNames = Array.from({ length: options.outputs ?? 1 }, (_, i) => `out${i}`);
  g.node(opType, names, outputNames, options.attrs ?? {}, options.domain === undefined ? {} : { domain: options.domain });
  outputNames.forEach((n) => g.output(n));
  const extra = options.domain === undefined || options.domain === '' ? {} : { [options.domain]: 1 };
  const model = inferShapes(g.model(options.opset ?? 18, extra), options.dims === undefined ? {} : { dims: options.dims });
  const byName = new Map(model.values.map((v) => [v.name, v]));
  return { outputs: outputNames.map((n) => byName.get(n) as InferredValue), model };
}

/** Shapes of the node's outputs (undefined when unknown). */
export function outputShapes(opType: string, inputs: readonly (TestInput | undefined)[], options: InferNodeOptions = {}): (readonly number[] | undefined)[] {
  return inferNode(opType, inputs, options).outputs.map((o) => o.shape);
}

/** A float32 input of the given shape. */
export const f32 = (...shape: DeclaredDim[]): TestInput => ({ dtype: 1, shape });

/** An int64 constant holding `value` (1-D, or the given shape). */
export const i64 = (value: readonly number[], shape: readonly number[] = [value.length]): TestInput => ({ dtype: 7, shape, value });
