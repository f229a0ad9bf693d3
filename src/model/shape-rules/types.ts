// The contract between the shape-inference engine and the per-op shape rules.
// Rules are pure functions of their inputs' facts and the node's attributes.

import type { DataTypeCode, IrAttribute, IrGraph, IrNode } from '../ir';

/** One dimension during inference: a concrete size, or undefined when not known. */
export type Dim = number | undefined;

/**
 * What inference knows about one value: its type, its shape and, when it is
 * computable from constants (shape arithmetic), its value.
 */
export interface TensorFact {
  readonly dtype: DataTypeCode | undefined;
  readonly shape: readonly Dim[] | undefined; // undefined: rank unknown
  readonly value?: readonly number[]; // flattened constant value (row-major), when known and small
  readonly upperBound?: boolean; // the shape is an upper bound (data-dependent size)
  readonly note?: string; // why part of the fact is unknown
}

/** What a rule gets to look at. */
export interface RuleContext {
  readonly node: IrNode;
  readonly inputs: readonly (TensorFact | undefined)[]; // undefined: optional input left out ('')
  readonly opset: number; // the version of the node's domain imported by the model
  attr(name: string): IrAttribute | undefined;
  int(name: string, fallback: number): number;
  ints(name: string): readonly number[] | undefined;
  float(name: string, fallback: number): number;
  string(name: string, fallback: string): string;
  /** Infers a subgraph (If/Loop/Scan body) given facts for its inputs; returns its outputs' facts. */
  inferSubgraph(graph: IrGraph, inputs: readonly (TensorFact | undefined)[]): readonly (TensorFact | undefined)[];
  /** Records the branch that runs (`graph`) or was assumed (`reason` says why it was not known), or a guessed trip count. */
  readonly assume?: (choice: BranchChoice) => void;
  /** What bodies leave without a size: run-time values, their nested bodies' too (control.ts, for what a Loop's trip count sizes). */
  readonly unsized?: BodyUnsized;
}

/** The values of a body left without a size, by name. */
export interface BodyUnsized {
  /** By the last inference of `graph` that the node keeps; undefined when it was not inferred. */
  readonly kept: (graph: IrGraph) => readonly string[] | undefined;
  /** By an inference of `graph` with `inputs` for a look only: nothing it finds is reported or kept; undefined when the body budget cannot pay for it. */
  readonly lookWith: (graph: IrGraph, inputs: readonly (TensorFact | undefined)[]) => readonly string[] | undefined;
}

/** What a control-flow rule decided about its bodies. */
export interface BranchChoice {
  readonly taken: string; // 'then' | 'else' | 'both', or a trip count in words
  readonly graph?: IrGraph; // the body that runs, when only one does
  readonly reason?: string; // why it was assumed; absent when constants (or the user's input values) decided it
}

/** A rule's answer: one fact per output, or a reason it cannot say. */
export type RuleResult = readonly (TensorFact | undefined)[] | { readonly unknown: string };

/** A shape rule for one op type. */
export type ShapeRule = (ctx: RuleContext) => RuleResult;

/** Rules keyed by `domain::OpType` ('' for the ONNX domain, e.g. '::Conv', 'com.microsoft::Attention'). */
export type RuleTable = Readonly<Record<string, ShapeRule>>;

/** Key of a rule in a RuleTable. */
export const ruleKey = (domain: string, opType: string): string => `${domain}::${opType}`;
