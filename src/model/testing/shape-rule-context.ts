// Test helper for shape rules: runs one rule of a table on hand-made input facts
// and attributes through the engine's own RuleContext. Used by *.test.ts only.

import { DT } from '../dtype';
import type { DataTypeCode, IrAttribute, IrGraph, IrNode, IrTensor } from '../ir';
import { ruleContext, type SubgraphInferrer } from '../infer/context';
import type { BranchChoice, Dim, RuleResult, RuleTable, TensorFact } from '../shape-rules/types';

/** A fact with an optional constant value. */
export function fact(dtype: DataTypeCode | undefined, shape: readonly Dim[] | undefined, value?: readonly number[]): TensorFact {
  return value === undefined ? { dtype, shape } : { dtype, shape, value };
}

/** An int64 constant (a shape vector by default). */
export function i64(values: readonly number[], shape: readonly number[] = [values.length]): TensorFact {
  return fact(DT.INT64, shape, values);
}

/** A float32 tensor of the given shape, value unknown. */
export function f32(shape: readonly Dim[] | undefined): TensorFact {
  return fact(DT.FLOAT, shape);
}

/** Attribute constructors. */
export const attr = {
  int: (value: number): IrAttribute => ({ kind: 'int', value }),
  ints: (value: readonly number[]): IrAttribute => ({ kind: 'ints', value }),
  float: (value: number): IrAttribute => ({ kind: 'float', value }),
  floats: (value: readonly number[]): IrAttribute => ({ kind: 'floats', value }),
  string: (value: string): IrAttribute => ({ kind: 'string', value }),
  tensor: (value: IrTensor): IrAttribute => ({ kind: 'tensor', value }),
  graph: (value: IrGraph): IrAttribute => ({ kind: 'graph', value }),
};

/** An IrTensor holding `values` in its typed field. */
export function irTensor(dtype: DataTypeCode, dims: readonly number[], values: readonly number[]): IrTensor {
  return { name: '', dtype, dims, raw: undefined, values, strings: undefined, external: undefined };
}

/** How to run one rule. */
export interface RunOptions {
  readonly inputs?: readonly (TensorFact | undefined)[]; // undefined: optional input left out
  readonly attrs?: Readonly<Record<string, IrAttribute>>;
  readonly opset?: number;
  readonly outputs?: number;
  readonly domain?: string;
  readonly inferSubgraph?: SubgraphInferrer;
  readonly assume?: (choice: BranchChoice) => void;
}

/** Runs the rule for `opType` from `table` and returns its answer. */
export function runRule(table: RuleTable, opType: string, options: RunOptions = {}): RuleResult {
  const domain = options.domain ?? '';
  const rule = table[`${domain}::${opType}`];
  if (rule === undefined) throw new Error(`no rule for ${domain}::${opType}`);
  const inputs = options.inputs ?? [];
  const node: IrNode = {
    name: `${opType}_0`,
    opType,
    domain,
    inputs: inputs.map((input, i) => (input === undefined ? '' : `in${i}`)),
    outputs: Array.from({ length: options.outputs ?? 1 }, (_, i) => `out${i}`),
    attributes: options.attrs ?? {},
  };
  const noSubgraphs: SubgraphInferrer = () => {
    throw new Error('this test gives no subgraph inferrer');
  };
  return rule(ruleContext(node, inputs, options.opset ?? 18, options.inferSubgraph ?? noSubgraphs, options.assume));
}

/** The facts of a rule's answer; throws with the rule's reason when it answered unknown. */
export function factsOf(result: RuleResult): readonly (TensorFact | undefined)[] {
  if ('unknown' in result) throw new Error(`rule answered unknown: ${result.unknown}`);
  return result;
}

/** The first output's fact of a rule's answer. */
export function firstFact(result: RuleResult): TensorFact {
  const first = factsOf(result)[0];
  if (first === undefined) throw new Error('rule gave no fact for its first output');
  return first;
}
